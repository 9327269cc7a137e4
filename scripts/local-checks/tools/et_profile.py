#!/usr/bin/env python3
# ===- et_profile.py - emit-profile's join against the real runtime's -----===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Runs each program in the real runtime with its ETDumpGen attached
# (../shared/tools/et-run: no-op kernels, stub backends), then joins the
# ETDump it wrote with emit-profile. et-run knows which method each block
# ran; emit-profile is told nothing but the two files. For every program:
# each block goes to the method et-run ran in it, or, where methods are
# alike (the ETDump cannot tell them apart), is timed in a group with that
# method among its candidates, and then each method run alone joins with
# --method, and every block joins to its method with --in-order (et-run
# runs the methods in program order); each method has the runs et-run made, and the instruction calls
# emit-profile counts are the instruction events (OPERATOR_CALL,
# DELEGATE_CALL and the others) et-run counted.
#
#   et_profile.py EMIT_BUILD_DIR ET_RUN PROGRAM.pte... [--iterations=N]
# ===----------------------------------------------------------------------===#

import json
import os
import re
import subprocess
import sys
import tempfile
import time

BLOCK = re.compile(r"^block\[(\d+)\] name=(\S+) method=(\S+) .*"
                   r"OPERATOR_CALL=(\d+) DELEGATE_CALL=(\d+)"
                   r"(?:.* other_instruction=(\d+))?")


def run_runtime(et_run, program, etdump, iterations, method=None):
    """et-run's ground truth: block -> method, and calls per method."""
    only = ["--method=" + method] if method else []
    out = subprocess.run([et_run, "--etdump=" + etdump,
                          "--iterations=%d" % iterations, "--delegate-events"]
                         + only + [program], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.returncode
    blocks, calls = {}, {}
    for line in out.stdout.splitlines():
        match = BLOCK.match(line)
        if match:
            index, _, method, ops, delegates, other = match.groups()
            blocks[int(index)] = method
            calls[method] = (calls.get(method, 0) + int(ops) + int(delegates)
                             + int(other or 0))
    return (blocks, calls), 0


def join(build, program, etdump, method=None, in_order=False):
    only = ["--method=" + method] if method else []
    only += ["--in-order"] if in_order else []
    start = time.monotonic()
    out = subprocess.run([os.path.join(build, "bin", "emit-profile"),
                          "--format=json", program, etdump] + only,
                         capture_output=True, text=True)
    took = time.monotonic() - start
    if out.returncode != 0:
        return None, took, "emit-profile exit %d %s" % (
            out.returncode, out.stderr.strip())
    return json.loads(out.stdout), took, None


def compare(report, truth, iterations):
    """What differs between emit-profile's join and et-run's truth, and
    the blocks reported alike (with the true method a candidate)."""
    blocks, calls = truth
    problems, alike = [], 0
    joined = {b["block"]: m for m in report["methods"] for b in m["blocks"]}
    for index, method in sorted(blocks.items()):
        got = joined.get(index)
        if got and got["name"] == method and not got["candidates"]:
            continue
        if got and method in got["candidates"]:
            alike += 1
            continue
        problems.append("block %d: %s, not %s" % (
            index, got["name"] if got else "unmatched", method))
    for method in report["methods"]:
        if method["candidates"]:
            continue
        counted = sum(i["count"] for i in method["instructions"])
        if not alike and counted != calls.get(method["name"]):
            problems.append("%s: %d calls, not %s" % (
                method["name"], counted, calls.get(method["name"])))
        if not alike and method["runs"] != iterations:
            problems.append("%s: %d runs" % (method["name"], method["runs"]))
    return problems, alike


def check(build, et_run, program, iterations, work):
    name = os.path.basename(program)
    etdump = os.path.join(work, name + ".etdp")
    truth, code = run_runtime(et_run, program, etdump, iterations)
    if truth is None:
        return [name, "et-run exit %d" % code, "", "", "", "", "skipped"]
    report, took, error = join(build, program, etdump)
    if error:
        return [name, "", "", "", "", "", "FAIL " + error]
    problems, alike = compare(report, truth, iterations)
    # Alike methods: each run alone joins when emit-profile is told which.
    for method in sorted(set(truth[0].values())) if alike else []:
        alone = os.path.join(work, name + "." + method + ".etdp")
        one, _ = run_runtime(et_run, program, alone, iterations, method)
        result, _, error = join(build, program, alone, method)
        more = [error] if error else compare(result, one, iterations)[0]
        problems += ["--method=%s: %s" % (method, p) for p in more if p]
    # et-run runs the methods in program order: told so, every block joins.
    ordered, _, error = join(build, program, etdump, in_order=True)
    more = [error] if error else compare(ordered, truth, iterations)[0]
    problems += ["--in-order: %s" % p for p in more if p]
    return [name, str(len(truth[0])), str(report["etdump"]["events"]),
            str(len(report["methods"])), str(alike), "%.3f" % took,
            "ok" if not problems else "FAIL " + "; ".join(problems)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--iterations=")]
    iterations = int(next((a.split("=")[1] for a in sys.argv[1:]
                           if a.startswith("--iterations=")), "3"))
    build, et_run, programs = args[0], args[1], args[2:]
    rows = [["program", "blocks", "events", "methods", "alike", "join s",
             "result"]]
    with tempfile.TemporaryDirectory() as work:
        for program in programs:
            rows.append(check(build, et_run, program, iterations, work))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width)
                        for cell, width in zip(row, widths)).rstrip())
    failed = sum(row[-1].startswith("FAIL") for row in rows[1:])
    print("%d programs, %d failed" % (len(programs), failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
