"""Checks every field of joined.etdp's JSON report that json.test's
FileCheck lines do not: the instructions, operands and groups."""
import json
import sys

report = json.load(open(sys.argv[1]))
forward, decode, decode_long = report["methods"]
assert [m["name"] for m in report["methods"]] == [
    "forward", "decode", "decode_long"]
assert report["unmatched"] == [] and report["findings"] == []

add, xnn, relu = forward["instructions"]
assert (add["chain"], add["instruction"], add["kind"], add["name"]) == (
    0, 0, "kernel", "aten::add.out")
assert (add["count"], add["total_ns"], add["min_ns"], add["p50_ns"],
        add["p90_ns"], add["max_ns"]) == (2, 220, 100, 100, 120, 120)
assert abs(add["share"] - 220 / 2460) < 1e-9
assert add["operands"][0] == {"value": 0, "kind": "tensor", "dtype": "float",
                              "shape": [2, 8], "bytes": 64, "buffer": 1,
                              "offset": 0}
assert add["operands"][2] == {"value": 4, "kind": "int"}
assert "backend" not in add

assert (xnn["kind"], xnn["name"], xnn["backend"]) == (
    "delegate", "XnnpackBackend", "XnnpackBackend")
assert (xnn["payload_bytes"], xnn["compile_specs"]) == (48, ["threads"])
assert (xnn["count"], xnn["total_ns"]) == (2, 2100)
assert [(e["name"], e["count"], e["total_ns"]) for e in
        xnn["delegate_events"]] == [("conv", 2, 1200), ("#7", 2, 600)]
assert [o["offset"] for o in xnn["operands"]] == [64, 128]
assert relu["total_ns"] == 100

assert forward["by_operator"] == [
    {"name": "aten::add.out", "instructions": 1, "calls": 2, "total_ns": 220,
     "share": add["share"]},
    {"name": "aten::relu.out", "instructions": 1, "calls": 2, "total_ns": 100,
     "share": relu["share"]}]
assert forward["by_backend"] == [
    {"name": "XnnpackBackend", "instructions": 1, "calls": 2,
     "total_ns": 2100, "share": xnn["share"]}]

assert (decode["runs"], decode["load_ns"], decode["run"]["total_ns"]) == (
    1, 3000, 260)
assert [b["block"] for b in decode["blocks"]] == [3, 4]
assert [(i["instruction"], i["name"], i["total_ns"]) for i in
        decode["instructions"]] == [(0, "aten::mul.out", 200),
                                    (1, "aten::relu.out", 40)]
assert (decode_long["load_ns"], decode_long["run"]["total_ns"]) == (4000, 320)
assert [g["name"] for g in decode_long["by_operator"]] == [
    "aten::mul.out", "aten::relu.out"]
assert decode_long["by_operator"][1]["instructions"] == 2
