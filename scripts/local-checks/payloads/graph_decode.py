#!/usr/bin/env python3
# ===- graph_decode.py - emit-graph against a flatc decode of each program -===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# For each program: flatc decodes it with the project's schema, and this
# script counts per method, from the decode alone, the nodes (inputs,
# instructions, outputs), the delegate calls and the edges (each value
# read, from the node that last wrote it: a kernel call writes its last
# argument and reads the others but the out arguments the emitter passes
# before it, an in-place operator (`name_`) reads the argument it returns;
# a delegate call writes the arguments at its end no instruction or input
# named before; a move writes its destination; a list is read through its
# items; a planned tensor no call writes, at the place and of the size of
# one written before, through that one). emit-graph's JSON is then checked
# against those counts, method by method, and a table printed.
#
#   graph_decode.py EMIT_BUILD_DIR PROGRAM.pte...
# ===----------------------------------------------------------------------===#

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)
import tempfile

ROOT = common.ROOT
SCHEMA = os.path.join(ROOT, "schema", "program.fbs")


def decode(path, work):
    subprocess.run(["flatc", "--json", "--strict-json", "--raw-binary",
                    "--defaults-json", "-o", work, SCHEMA, "--", path],
                   check=True, capture_output=True)
    name = os.path.splitext(os.path.basename(path))[0] + ".json"
    return json.load(open(os.path.join(work, name)))


def tensor_place(value):
    if value.get("val_type") != "Tensor":
        return None
    info = value["val"].get("allocation_info")
    if not info:
        return None
    offset = (info.get("memory_offset_high", 0) << 32) | \
        info.get("memory_offset_low", 0)
    return info.get("memory_id", 0), offset


def tensor_size(value):
    tensor = value["val"]
    count = 1
    for size in tensor.get("sizes", []):
        count *= size
    return tensor.get("scalar_type"), count


def method_counts(plan):
    values = plan.get("values", [])
    operators = plan.get("operators", [])
    inputs, outputs = plan.get("inputs", []), plan.get("outputs", [])
    nodes = len(inputs) + len(outputs)
    writer, place_writer, named = {}, {}, set(inputs)
    edges, delegates, node = 0, 0, 0

    def items(v):
        val = values[v].get("val", {}) if 0 <= v < len(values) else {}
        if values[v].get("val_type") in ("TensorList", "OptionalTensorList"):
            return [i for i in val.get("items", []) if 0 <= i < len(values)]
        return []

    def source(v):
        if v in writer:
            return writer[v], v
        place = tensor_place(values[v])
        base = place_writer.get(place)
        if base is not None and tensor_size(values[base]) == \
                tensor_size(values[v]):
            return writer[base], base
        return None, None

    def read(reads, at):
        seen = set()
        for v in reads:
            for w in [v] + items(v):
                src = source(w)
                if src[0] is not None and src not in seen:
                    seen.add(src)
        return len(seen)

    def write(v, at):
        for w in [v] + items(v):
            writer[w] = at
            place = tensor_place(values[w])
            if place:
                place_writer[place] = w

    for i, v in enumerate(inputs):
        if 0 <= v < len(values):
            write(v, "input%d" % i)
    for chain in plan.get("chains", []):
        for instruction in chain.get("instructions", []):
            kind = instruction.get("instr_args_type")
            args = instruction.get("instr_args", {})
            at = "i%d" % node
            node += 1
            nodes += 1
            if kind == "KernelCall":
                a = args.get("args", [])
                if not a:
                    continue
                result, rest = a[-1], a[:-1]
                name = operators[args["op_index"]]["name"]
                if not name.endswith("_"):
                    while rest and (rest[-1] == result or
                                    rest[-1] in items(result)):
                        rest = rest[:-1]
                edges += read(rest, at)
                write(result, at)
                named.update(a)
            elif kind == "DelegateCall":
                delegates += 1
                a = args.get("args", [])
                begin = len(a)
                while begin > 0 and a[begin - 1] not in named:
                    begin -= 1
                edges += read(a[:begin], at)
                for v in a[begin:]:
                    write(v, at)
                named.update(a)
            elif kind == "MoveCall":
                edges += read([args["move_from"]], at)
                write(args["move_to"], at)
            elif kind in ("JumpFalseCall", "FreeCall"):
                key = "cond_value_index" if kind == "JumpFalseCall" \
                    else "value_index"
                edges += read([args[key]], at)
    for v in outputs:
        edges += read([v], "output")
    return nodes, edges, delegates


def main():
    build, programs = sys.argv[1], sys.argv[2:]
    graph_tool = os.path.join(build, "bin", "emit-graph")
    failures = 0
    print("| program | method | nodes emit/flatc | edges emit/flatc | "
          "delegate nodes emit/flatc | fallback |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for path in programs:
            decoded = decode(path, work)
            drawn = json.loads(subprocess.run(
                [graph_tool, "--format=json", path], check=True,
                capture_output=True, text=True).stdout)
            for plan, method in zip(decoded["execution_plan"],
                                    drawn["methods"]):
                nodes, edges, delegates = method_counts(plan)
                got = (len(method["nodes"]), len(method["edges"]),
                       sum(n["kind"] == "delegate" for n in method["nodes"]))
                ok = got == (nodes, edges, delegates)
                failures += not ok
                fallback = method["fallback"]
                spread = ", ".join("%s %d" % (k or "-", v) for k, v in list(
                    fallback["by_namespace"].items()) + list(
                    fallback["by_backend"].items()))
                print("| %s | %s | %d/%d | %d/%d | %d/%d | %s |%s" % (
                    os.path.basename(path), method["name"], got[0], nodes,
                    got[1], edges, got[2], delegates, spread,
                    "" if ok else " MISMATCH"))
    print("%d methods differ" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
