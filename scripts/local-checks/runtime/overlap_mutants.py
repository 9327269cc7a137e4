#!/usr/bin/env python3
# ===- overlap_mutants.py - The overlap check against independent mutants -===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# For every program given, every planned tensor argument of every kernel
# call moved onto the bytes of every other (et_memory.py mutants, which
# knows nothing of the check's rule), each mutant:
#   - loaded by the real runtime (pte-check: every method loads);
#   - run through emit-verify --format=json: `error` when a memory-overlap
#     error names both values, `warning` when a memory-in-place-out warning
#     does (an element-wise kernel exactly over a dying input), `missed`
#     otherwise.
# Prints a table per program and one per kind of move (the moved and the
# target tensor's roles in the call: its result or an input), and exits 1
# when any mutant is missed.
#
#   overlap_mutants.py BUILD_DIR PTE_CHECK_DIR ET_PYTHON_DIR WORK_DIR PTE...
# ===----------------------------------------------------------------------===#

import collections
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def data_files(pte):
    """The data files a program loads with, beside it: STEM.ptd or
    STEM.*.ptd."""
    stem = glob.escape(os.path.splitext(pte)[0])
    return sorted(glob.glob(stem + ".ptd") + glob.glob(stem + ".*.ptd"))


def loads(ptecheck, pte, data):
    """Whether the runtime loads every method of `pte`."""
    run = subprocess.run(
        [os.path.join(ptecheck, "pte-check")] + ["--data=" + d for d in data] +
        [pte], capture_output=True, text=True)
    return run.returncode == 0


def verdict(build, pte, data, moved, onto):
    """`error`, `warning` or `missed`: what emit-verify says of the pair."""
    run = subprocess.run(
        [os.path.join(build, "bin", "emit-verify"), "--format=json", pte] +
        ["--data=" + d for d in data], capture_output=True, text=True)
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return "missed"
    names = lambda message: (re.search(r"\bvalue %s\b" % moved, message) and
                             re.search(r"\bvalue %s\b" % onto, message))
    found = set()
    for finding in report.get("findings", []):
        if not names(finding["message"]):
            continue
        if finding["check"] == "memory-overlap" and \
                finding["severity"] == "error":
            found.add("error")
        elif finding["check"] == "memory-in-place-out" and \
                finding["severity"] == "warning":
            found.add("warning")
    return "error" if "error" in found else (
        "warning" if "warning" in found else "missed")



def mutants(build, ptecheck, etpython, work, programs):
    """Prints the tables; returns the count of missed mutants."""
    env = dict(os.environ, PYTHONPATH=etpython)
    by_kind = collections.defaultdict(collections.Counter)
    print("| program | mutants | loaded by the runtime | error | warning | "
          "missed |")
    print("|---|---|---|---|---|---|")
    missed_names = []
    totals = collections.Counter()
    for pte in programs:
        out = os.path.join(work, "mutants",
                           os.path.splitext(os.path.basename(pte))[0])
        run = subprocess.run(
            ["/usr/bin/python3", os.path.join(HERE, "et_memory.py"),
             "mutants", pte, out], capture_output=True, text=True, env=env)
        if run.returncode != 0:
            print("| %s | cannot write mutants: %s | | | | |" % (
                os.path.basename(pte), run.stderr.strip()[-200:]))
            totals["missed"] += 1
            continue
        lines = [line.split() for line in run.stdout.splitlines()]
        if not lines:
            continue
        data = data_files(pte)
        counts = collections.Counter()
        for name, method, step, moved, onto, op, kind in lines:
            path = os.path.join(out, name)
            counts["mutants"] += 1
            counts["loaded"] += loads(ptecheck, path, data)
            result = verdict(build, path, data, moved, onto)
            counts[result] += 1
            by_kind[kind][result] += 1
            by_kind[kind]["mutants"] += 1
            if result == "missed":
                missed_names.append("%s (%s)" % (name, op))
        totals.update(counts)
        print("| %s | %d | %d | %d | %d | %d |" % (
            os.path.basename(pte), counts["mutants"], counts["loaded"],
            counts["error"], counts["warning"], counts["missed"]))
    print("| all | %d | %d | %d | %d | %d |" % (
        totals["mutants"], totals["loaded"], totals["error"],
        totals["warning"], totals["missed"]))
    print()
    print("| move | mutants | error | warning | missed |")
    print("|---|---|---|---|---|")
    for kind in sorted(by_kind):
        c = by_kind[kind]
        print("| %s | %d | %d | %d | %d |" % (
            kind.replace("-", " "), c["mutants"], c["error"], c["warning"],
            c["missed"]))
    for name in missed_names:
        print("missed: %s" % name)
    return totals["missed"]


def main():
    if len(sys.argv) < 6:
        sys.exit("usage: overlap_mutants.py BUILD_DIR PTE_CHECK_DIR "
                 "ET_PYTHON_DIR WORK_DIR PTE...")
    build, ptecheck, etpython, work = sys.argv[1:5]
    missed = mutants(build, ptecheck, etpython, work, sys.argv[5:])
    print()
    print("%d missed" % missed)
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
