"""The local checks' shared preamble: where the tree and the checks are,
and every folder of checks importable by its scripts' names (et_programs,
delegate_call, pte_compare, ...). A check in one of the folders here starts

    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), os.pardir))
    import common  # noqa: E402

ExecuTorch's snapshot, Python and tools are never assumed: each check
takes them as arguments, or from ET_SNAPSHOT."""
import os
import sys

CHECKS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(CHECKS))
SCHEMA_DIR = os.path.join(ROOT, "schema")
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
FOLDERS = ("exact", "runtime", "payloads", "tools", "code")

for folder in FOLDERS:
    path = os.path.join(CHECKS, folder)
    if path not in sys.path:
        sys.path.append(path)


def check(folder, name):
    """The path of check `name` in `folder`."""
    return os.path.join(CHECKS, folder, name)
