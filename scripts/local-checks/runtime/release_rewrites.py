#!/usr/bin/env python3
"""--target-runtime against each release's own runtime.

    python3 release_rewrites.py BIN_DIR RELEASES_DIR CASE...

BIN_DIR holds emit-translate and emit-diff; RELEASES_DIR is what
../shared/tools/pte-check/build.sh --releases wrote (vX.Y/pte-check,
main/pte-check). A CASE is a program and the data files it loads with,
`model.pte[,weights.ptd...]`, or a data file and a program to load it
with, `weights.ptd@model.pte`.

For each case and release, rewrites the input with
`emit-translate --pte-to-pte --target-runtime=RELEASE`, loads what was
written in that release's pte-check (a program with the data files it
still needs; a data file beside its program), and compares it with the
input through emit-diff (tensor bytes per tensor, external ones through
their data files, payload bytes per entry). One letter per cell:
  S  written, loads, same tensors and payloads
  X  refused (exit 1, nothing written): the release lacks what no rewrite
     removes
  F  written, but the release does not load it
  D  written and loads, but a tensor or payload differs
  !  the rewrite failed otherwise, or a refusal left a file
Exits 1 when a cell is F, D or !.
"""

import os
import re
import subprocess
import sys
import tempfile

RELEASES = ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "1.0", "1.1",
            "1.2", "1.3", "1.4", "main"]


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def pte_check(releases, release, path, data):
    tool = os.path.join(releases, "main" if release == "main"
                        else "v" + release, "pte-check")
    result = run([tool, path] + ["--data=" + d for d in data])
    return "ok=1" in result.stdout and "failed=0" in result.stdout or \
        re.search(r"failed=0 skipped=0 exit=0", result.stdout) is not None


def needs_data(bin_dir, path):
    text = run([os.path.join(bin_dir, "emit-translate"), "--from-pte",
                path]).stdout
    return "location = external" in text


def same_content(bin_dir, old, new, old_data, new_data):
    result = run([os.path.join(bin_dir, "emit-diff"), old, new] +
                 ["--old-data=" + d for d in old_data] +
                 ["--new-data=" + d for d in new_data])
    if result.returncode == 2:
        return False
    return "\nmethods:" not in result.stdout


def program_cell(bin_dir, releases, release, program, data, out):
    result = run([os.path.join(bin_dir, "emit-translate"), "--pte-to-pte",
                  "--target-runtime=" + release, program, "-o", out] +
                 ["--pte-data=" + d for d in data])
    if result.returncode == 1:
        return "!" if os.path.exists(out) else "X"
    if result.returncode != 0:
        return "!"
    kept = data if needs_data(bin_dir, out) else []
    if not pte_check(releases, release, out, kept):
        return "F"
    return "S" if same_content(bin_dir, program, out, data, kept) else "D"


def data_cell(bin_dir, releases, release, data, program, out):
    result = run([os.path.join(bin_dir, "emit-translate"), "--pte-to-pte",
                  "--target-runtime=" + release, data, "-o", out])
    if result.returncode == 1:
        return "!" if os.path.exists(out) else "X"
    if result.returncode != 0:
        return "!"
    if not pte_check(releases, release, program, [out]):
        return "F"
    diff = run([os.path.join(bin_dir, "emit-diff"), data, out])
    return "S" if "same content" in diff.stdout else "D"


def main():
    bin_dir, releases, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    print("case".ljust(40) + " ".join(r.ljust(4) for r in RELEASES))
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        for case in cases:
            cells = []
            for release in RELEASES:
                if "@" in case:
                    data, program = case.split("@")
                    out = os.path.join(work, "out.ptd")
                    cell = data_cell(bin_dir, releases, release, data,
                                     program, out)
                else:
                    program, *data = case.split(",")
                    out = os.path.join(work, "out.pte")
                    cell = program_cell(bin_dir, releases, release, program,
                                        data, out)
                if os.path.exists(out):
                    os.remove(out)
                bad += cell in "FD!"
                cells.append(cell)
            name = "+".join(os.path.basename(part)
                            for part in re.split("[,@]", case))
            print(name[:39].ljust(40) + " ".join(c.ljust(4) for c in cells))
    print(f"{bad} cells failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
