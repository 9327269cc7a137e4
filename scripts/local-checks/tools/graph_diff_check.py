#!/usr/bin/env python3
# ===- graph_diff_check.py - emit-diff --graph on ExecuTorch's files ------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# emit-diff --graph on pairs written by ExecuTorch's own serializers
# (graph_diff_pairs.py: the program by serialize_pte_binary, XNNPACK
# payloads by its XNNPACK serializer), each pair an edit made on purpose:
#
#   - every edit recovered exactly (test/Diff/Inputs/check-graph-diff.py
#     against what the edit alone says it must show), by main's serializer
#     and by each release's whose et-python is set up;
#   - the same model written by two releases: all unchanged, whatever the
#     layout;
#   - a program against emit's own rewrites of it (--pte-to-pte, with
#     --replan-memory, emit-link --internalize): all unchanged;
#   - every program written loads in the real runtime (pte-check: full
#     verification, load_method of every method).
#
#   graph_diff_check.py BUILD PTE_CHECK ET_PYTHON WORK [RELEASE_ET_PYTHON...]
#
# RELEASE_ET_PYTHON: et-python trees of releases (~/.cache/et-python-v1.0.1,
# as ../shared/tools/et-python/setup.sh sets them up); one whose serializer
# lacks what the writer needs is reported as skipped, with why. Prints a
# table; exits 1 when anything differs from what it must be.
# ===----------------------------------------------------------------------===#

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, os.pardir, os.pardir, os.pardir)
CHECK = os.path.join(ROOT, "test", "Diff", "Inputs", "check-graph-diff.py")
WRITER = os.path.join(HERE, "graph_diff_pairs.py")


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def write(et_python, out):
    """The pairs by the serializer in `et_python`; None, or why not."""
    result = run(["/usr/bin/python3", WRITER, out],
                 env=dict(os.environ, PYTHONPATH=et_python))
    if result.returncode:
        return (result.stderr.strip().splitlines() or ["failed"])[-1]
    return None


def graph_diff(build, old, new, out):
    result = run([os.path.join(build, "bin", "emit-diff"), "--graph",
                  "--format=json", old, new, "-o", out])
    return result.returncode, result.stderr.strip()


def check_edits(build, work):
    """Each edit of `work` against its base: a row per edit."""
    rows = []
    for name in sorted(os.listdir(work)):
        if not name.endswith(".expected.json"):
            continue
        edit = name[:-len(".expected.json")]
        old = "long" if edit == "long-edited" else "base"
        out = os.path.join(work, edit + ".out.json")
        code, error = graph_diff(build, os.path.join(work, old + ".pte"),
                                 os.path.join(work, edit + ".pte"), out)
        verdict = error or run([sys.executable, CHECK,
                                os.path.join(work, name), out]).stdout.strip()
        want = 0 if edit == "same" else 1
        ok = verdict == "ok" and code == want
        rows.append((edit, "exit %d, %s" % (code, verdict), ok))
    return rows


def check_unchanged(build, old, new, work, label):
    out = os.path.join(work, label + ".out.json")
    code, error = graph_diff(build, old, new, out)
    if error:
        return (label, error, False)
    report = json.load(open(out))
    counts = [m["counts"] for m in report["methods"]]
    return (label, "exit %d, unchanged %s, %s" % (code, report["unchanged"],
                                                  counts),
            code == 0 and report["unchanged"])


def check_rewrites(build, work):
    base = os.path.join(work, "base.pte")
    rows = []
    for label, command in (
            ("--pte-to-pte", ["emit-translate", "--pte-to-pte"]),
            ("--pte-to-pte --replan-memory",
             ["emit-translate", "--pte-to-pte", "--replan-memory"]),
            ("emit-link --internalize", ["emit-link", "--internalize"])):
        out = os.path.join(work, "rewrite.pte")
        result = run([os.path.join(build, "bin", command[0])] + command[1:] +
                     [base, "-o", out])
        if result.returncode:
            rows.append((label, result.stderr.strip()[-200:], False))
            continue
        rows.append(check_unchanged(build, base, out, work, "rewrite"))
        rows[-1] = (label,) + rows[-1][1:]
    return rows


def check_loads(pte_check, work):
    failed = []
    programs = sorted(f for f in os.listdir(work) if f.endswith(".pte")
                      and not f.startswith("rewrite"))
    for name in programs:
        result = run([pte_check, os.path.join(work, name)])
        if result.returncode:
            failed.append(name)
    return ("pte-check", "%d programs, %d refused %s" % (
        len(programs), len(failed), failed), not failed)


def main():
    build, pte_check, et_python, work = (os.path.abspath(a)
                                         for a in sys.argv[1:5])
    releases = sys.argv[5:]
    rows = []
    main_dir = os.path.join(work, "main")
    why = write(et_python, main_dir)
    if why:
        sys.exit("graph_diff_check.py: main's serializer: %s" % why)
    rows += [("main: " + a, b, c) for a, b, c in check_edits(build, main_dir)]
    rows += [("main: " + a, b, c) for a, b, c in check_rewrites(build,
                                                                  main_dir)]
    rows.append(check_loads(pte_check, main_dir))
    for tree in releases:
        tag = os.path.basename(tree.rstrip("/")).replace("et-python-", "")
        out = os.path.join(work, tag)
        why = write(tree, out)
        if why:
            rows.append((tag, "skipped: its serializer: %s" % why, True))
            continue
        rows += [(tag + ": " + a, b, c) for a, b, c in check_edits(build, out)]
        rows.append(check_unchanged(
            build, os.path.join(main_dir, "base.pte"),
            os.path.join(out, "base.pte"), work, "main against " + tag))
        same = open(os.path.join(main_dir, "base.pte"), "rb").read() == \
            open(os.path.join(out, "base.pte"), "rb").read()
        rows[-1] = (rows[-1][0], rows[-1][1] + (
            "; the files are byte for byte the same" if same else
            "; the files differ"), rows[-1][2])
        load = check_loads(pte_check, out)
        rows.append((tag + ": " + load[0],) + load[1:])
    print("| check | found | as it must be |")
    print("|---|---|---|")
    for label, found, ok in rows:
        print("| %s | %s | %s |" % (label, found.replace("|", "\\|"),
                                    "yes" if ok else "**no**"))
    failures = sum(not ok for _, _, ok in rows)
    print("\n%d checks, %d not as they must be" % (len(rows), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
