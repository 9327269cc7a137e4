#!/usr/bin/env python3
# verify_vs_runtime.py EMIT_VERIFY PTE_CHECK PTE_CHECK_ASAN WORK_DIR PTE...
#
# The local check of emit-verify's verdict (issue 22): each program and a
# set of mutants of it go through emit-verify (--format=json) and the real
# runtime (pte-check, and its AddressSanitizer build), and the verdicts are
# compared. Mutants, from a seeded generator (the same on every run):
#
#   flip      one byte of the flatbuffer XORed with 0xFF, at 40 offsets
#   truncate  the file cut at 8 points (header, flatbuffer, segments)
#   index     one index of the flatbuffer (value, operator, delegate, segment,
#             memory id) set past its table, through flatc's JSON
#   header    every field of the extended header set to 0, 1, the file
#             size, the program size, its largest value and one off its
#             true value (test/Inputs/header-mutants.py)
#
# The runtime's verdict: `crashes` when ASan reports an error or pte-check
# refuses to call load_method because the runtime would dereference null;
# `loads` when pte-check exits 0; `rejects` otherwise.
#
# Prints a table of (emit-verify, runtime) verdict pairs with counts, then
# every mutant where they differ. Exits 1 if emit-verify passes a file (no
# error, verdict loads) that the runtime rejects or crashes on, or fails an
# input the runtime loads. PTE_CHECK is main's release build
# (releases/main/pte-check: the build emit-verify's verdict is of).
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

import collections
import importlib.util
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)

ROOT = common.ROOT
SCHEMA = os.path.join(ROOT, "schema", "program.fbs")
PTE_JSON = os.path.join(ROOT, "test", "Inputs", "pte-json.py")


# The header mutants are the lit suite's (test/Inputs/header-mutants.py).
_spec = importlib.util.spec_from_file_location(
    "header_mutants", os.path.join(ROOT, "test", "Inputs",
                                   "header-mutants.py"))
header_mutants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(header_mutants)


def headers(data):
    if data[8:12] != b"eh00":
        return
    for label, mutant in header_mutants.mutants(data):
        yield "header:" + label, mutant


def run(argv, timeout=120):
    try:
        result = subprocess.run(argv, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -999, "timeout"
    return result.returncode, result.stdout.decode(errors="replace")


def runtime_verdict(ptecheck, asan, path):
    status, out = run([asan, path])
    if (status < 0 or "AddressSanitizer" in out or "runtime error" in out
            or "would dereference" in out or "would read" in out):
        return "crashes"
    status, out = run([ptecheck, path])
    return "loads" if status == 0 else "rejects"


def emit_verdict(verify, path):
    """(verdict, exit code, checks found)."""
    status, out = run([verify, "--format=json", path])
    if status == 2:
        return "unreadable", status, ""
    try:
        report = json.loads(out)
    except ValueError:
        return "no-json", status, out[:120]
    checks = sorted({f["check"] for f in report["findings"]
                     if f["severity"] == "error"})
    return report["runtime_load"], status, ",".join(checks)


def flatbuffer_range(data):
    """(start, end) of the flatbuffer: after the extended header, if any,
    up to program_size."""
    if len(data) >= 32 and data[8:12] == b"eh00":
        size = int.from_bytes(data[16:24], "little")
        return 8, min(size, len(data))
    return 8, len(data)


def flips(data, rng):
    start, end = flatbuffer_range(data)
    for offset in sorted(rng.sample(range(start, end), min(40, end - start))):
        mutant = bytearray(data)
        mutant[offset] ^= 0xFF
        yield "flip@%d" % offset, bytes(mutant)


def truncations(data, rng):
    points = {16, 40, len(data) // 2, len(data) - 1}
    start, end = flatbuffer_range(data)
    points |= {rng.randrange(start, end) for _ in range(4)}
    for point in sorted(p for p in points if 0 < p < len(data)):
        yield "truncate@%d" % point, data[:point]


def index_edits(path, work, rng):
    """One index of the program's JSON set past its table."""
    status, text = run([sys.executable, PTE_JSON, "flatc", SCHEMA, path])
    if status != 0:
        return
    program = json.loads(text)
    edits = []
    for p, plan in enumerate(program.get("execution_plan", [])):
        values = len(plan.get("values", []))
        for field in ("inputs", "outputs"):
            if plan.get(field):
                edits.append(("plan%d.%s" % (p, field),
                              lambda q, p=p, f=field: q["execution_plan"][p][f]
                              .__setitem__(0, values + 3)))
        for c, chain in enumerate(plan.get("chains", [])):
            for i, ins in enumerate(chain.get("instructions", [])):
                args = ins.get("instr_args", {})
                for key, table in (("op_index", "operators"),
                                   ("delegate_index", "delegates")):
                    if key in args or ins.get("instr_args_type") == (
                            "KernelCall" if key == "op_index" else
                            "DelegateCall"):
                        size = len(plan.get(table, []))
                        edits.append((
                            "plan%d.chain%d.ins%d.%s" % (p, c, i, key),
                            lambda q, p=p, c=c, i=i, k=key, n=size:
                            q["execution_plan"][p]["chains"][c]
                            ["instructions"][i]["instr_args"]
                            .__setitem__(k, n + 1)))
                if args.get("args"):
                    edits.append((
                        "plan%d.chain%d.ins%d.args" % (p, c, i),
                        lambda q, p=p, c=c, i=i: q["execution_plan"][p]
                        ["chains"][c]["instructions"][i]["instr_args"]
                        ["args"].__setitem__(0, values + 7)))
        for d, delegate in enumerate(plan.get("delegates", [])):
            if delegate.get("processed"):
                edits.append((
                    "plan%d.delegate%d.index" % (p, d),
                    lambda q, p=p, d=d: q["execution_plan"][p]["delegates"][d]
                    ["processed"].__setitem__("index", 999)))
        for v, value in enumerate(plan.get("values", [])):
            info = value.get("val", {}).get("allocation_info")
            if info:
                edits.append((
                    "plan%d.value%d.memory_id" % (p, v),
                    lambda q, p=p, v=v: q["execution_plan"][p]["values"][v]
                    ["val"]["allocation_info"].__setitem__("memory_id", 9)))
    for s, segment in enumerate(program.get("segments", [])):
        edits.append(("segment%d.offset" % s,
                      lambda q, s=s: q["segments"][s].__setitem__(
                          "offset", 1 << 40)))
    for name, edit in rng.sample(edits, min(12, len(edits))):
        mutant = json.loads(text)
        edit(mutant)
        source = os.path.join(work, "edit.json")
        with open(source, "w") as f:
            json.dump(mutant, f)
        status, _ = run(["flatc", "--binary", "-o", work, SCHEMA, source])
        built = os.path.join(work, "edit.pte")
        if status == 0 and os.path.exists(built):
            yield "index:" + name, open(built, "rb").read()


def main():
    verify, ptecheck, asan, work = sys.argv[1:5]
    inputs = sys.argv[5:]
    os.makedirs(work, exist_ok=True)
    rng = random.Random(22)
    pairs = collections.Counter()
    differing, bad = [], []
    for path in inputs:
        data = open(path, "rb").read()
        name = os.path.basename(path)
        cases = [("original", data)]
        cases += list(flips(data, rng)) + list(truncations(data, rng))
        cases += list(headers(data))
        cases += list(index_edits(path, work, rng))
        for label, mutant in cases:
            target = os.path.join(work, "mutant.pte")
            with open(target, "wb") as f:
                f.write(mutant)
            emit, status, checks = emit_verdict(verify, target)
            runtime = runtime_verdict(ptecheck, asan, target)
            pairs[(emit, runtime)] += 1
            row = "%s %s: emit-verify %s (exit %d; %s), runtime %s" % (
                name, label, emit, status, checks or "-", runtime)
            if emit != runtime:
                differing.append(row)
            # Passing is exit 0 and a verdict of loads: a warning's
            # refusal (a build-dependent one) is said, not passed.
            passes = status == 0 and emit == "loads"
            if (passes and runtime != "loads") or (
                    label == "original" and runtime == "loads"
                    and not passes):
                bad.append(row)
    print("| emit-verify | runtime | files |")
    print("|---|---|---|")
    for (emit, runtime), count in sorted(pairs.items()):
        print("| %s | %s | %d |" % (emit, runtime, count))
    print("\nverdicts that differ:")
    for row in differing:
        print("  " + row)
    print("\nBAD (passes what the runtime refuses, or fails a valid input):")
    for row in bad:
        print("  " + row)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
