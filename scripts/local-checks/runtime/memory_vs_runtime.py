#!/usr/bin/env python3
# ===- memory_vs_runtime.py - emit-memory against the runtime's figures ---===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# The local check of emit-memory (see README.md here). For every program
# given (and its data files: STEM.ptd or STEM.*.ptd beside STEM.pte), per
# method:
# emit-memory's planned buffers and method allocator bytes against what
# pte-check --memory prints on this host and, under qemu-user, on 32-bit
# ARM; then, per program with kernel calls, its overlap mutants
# (overlap_mutants.py: every planned argument of every kernel call moved
# onto every other): each must be found, naming both values, and the valid
# programs must have no finding.
#
#   memory_vs_runtime.py BUILD_DIR PTE_CHECK_DIR ET_PYTHON_DIR WORK_DIR PTE...
#
# Prints markdown tables; exits 1 on any difference, missed mutant or
# finding on a valid program.
# ===----------------------------------------------------------------------===#

import glob
import json
import os
import re
import subprocess
import sys

import overlap_mutants

HERE = os.path.dirname(os.path.abspath(__file__))


def data_files(pte):
    """The data files a program loads with, beside it: STEM.ptd or
    STEM.*.ptd."""
    stem = glob.escape(os.path.splitext(pte)[0])
    return sorted(glob.glob(stem + ".ptd") + glob.glob(stem + ".*.ptd"))


def runtime(tool, pte, data):
    """Per method: (planned buffer sizes, method allocator bytes), from
    pte-check --memory; None for a method that did not load."""
    args = tool + ["--memory"] + ["--data=" + d for d in data] + [pte]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    methods, name = {}, None
    for line in out.splitlines():
        m = re.match(r"method\[\d+\] name=(\S+)", line)
        if m:
            name = m.group(1)
            methods[name] = ([], None)
        m = re.match(r"\s+planned_buffer\[\d+\] size=(\d+)", line)
        if m and name:
            methods[name][0].append(int(m.group(1)))
        m = re.search(r"memory: method_allocator_bytes=(\d+)", line)
        if m and name:
            methods[name] = (methods[name][0], int(m.group(1)))
    return methods


def emit_memory(build, pte, data):
    args = [os.path.join(build, "bin", "emit-memory"), "--format=json", pte]
    args += ["--data=" + d for d in data]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode == 2:
        return None, run.stderr.strip()
    return json.loads(run.stdout), run.returncode


def findings(report):
    for method in report["methods"]:
        for finding in method["findings"]:
            yield method["name"], finding
    yield from ((None, f) for f in report["findings"])


def compare(build, ptecheck, programs):

    print("| program | method | planned buffers (emit / runtime) | "
          "64-bit (emit / runtime) | 32-bit ARM (emit / runtime) | equal |")
    print("|---|---|---|---|---|---|")
    failures = 0
    for pte in programs:
        data = data_files(pte)
        report, code = emit_memory(build, pte, data)
        if report is None:
            print("| %s | | emit-memory refuses it: %s | | | no |" %
                  (os.path.basename(pte), code))
            failures += 1
            continue
        host = runtime([os.path.join(ptecheck, "pte-check")], pte, data)
        arm = runtime([os.path.join(ptecheck, "pte-check-arm32.sh")], pte,
                      data)
        for method in report["methods"]:
            name = method["name"]
            buffers = [b["bytes"] for b in method["planned_buffers"]]
            bytes64 = method["method_allocator_bytes"]["64"]
            bytes32 = method["method_allocator_bytes"]["32"]
            rt_buffers, rt64 = host.get(name, ([], None))
            _, rt32 = arm.get(name, ([], None))
            if rt64 is None or rt32 is None:
                print("| %s | %s | %s / - | %d / (not loaded) | %d / "
                      "(not loaded) | skipped |" % (
                          os.path.basename(pte), name, buffers, bytes64,
                          bytes32))
                continue
            equal = (buffers == rt_buffers and bytes64 == rt64 and
                     bytes32 == rt32)
            failures += not equal
            print("| %s | %s | %s / %s | %d / %d | %d / %d | %s |" % (
                os.path.basename(pte), name, buffers, rt_buffers, bytes64,
                rt64, bytes32, rt32, "yes" if equal else "**no**"))
        for method, finding in findings(report):
            if finding["check"].startswith("memory-") and \
                    finding["severity"] == "error":
                print("| %s | %s | finding on a valid program: %s | | | "
                      "**no** |" % (os.path.basename(pte), method,
                                    finding["message"]))
                failures += 1
    return failures


def main():
    if len(sys.argv) < 6:
        sys.exit("usage: memory_vs_runtime.py BUILD_DIR PTE_CHECK_DIR "
                 "ET_PYTHON_DIR WORK_DIR PTE...")
    build, ptecheck, etpython, work = sys.argv[1:5]
    programs = sys.argv[5:]
    failures = compare(build, ptecheck, programs)
    print()
    failures += overlap_mutants.mutants(build, ptecheck, etpython, work,
                                        programs)
    print()
    print("%d failures" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
