#!/usr/bin/env python3
"""Writes bundled programs (.bpte) as JSON for flatc, around PROGRAM.pte:
one valid bundle, one without suites, one with every value kind, and one
per defect the bundle checks find.

Usage: bundle-json.py PROGRAM.pte OUT_DIR; then flatc --binary each
OUT_DIR/*.json with schema/bundled_program.fbs. The program's method
`forward` takes a float tensor [2, 2] and an int, and returns one tensor."""

import json
import os
import sys


def tensor(scalar="FLOAT", sizes=(2, 2), data=None):
    count = 1
    for size in sizes:
        count *= size
    width = {"FLOAT": 4, "INT": 4, "LONG": 8}[scalar]
    return {"val_type": "Tensor",
            "val": {"scalar_type": scalar, "sizes": list(sizes),
                    "data": list(data if data is not None
                                 else bytes(count * width)),
                    "dim_order": list(range(len(sizes)))}}


INT = {"val_type": "Int", "val": {"int_val": 3}}
BOOL = {"val_type": "Bool", "val": {"bool_val": True}}
DOUBLE = {"val_type": "Double", "val": {"double_val": 2.5}}
NONE = {}  # A value of no kind.


def case(inputs=None, outputs=None):
    return {"inputs": inputs if inputs is not None else [tensor(), INT],
            "expected_outputs": outputs if outputs is not None else
            [tensor()]}


def suite(cases, name="forward"):
    return {"method_name": name, "test_cases": cases}


program = list(open(sys.argv[1], "rb").read())
out = sys.argv[2]
bundles = {
    "good": [suite([case(), case()])],
    "empty": [],
    "no-method": [suite([case()], "missing")],
    "twice": [suite([case()]), suite([case()])],
    "few-inputs": [suite([case(inputs=[tensor()])])],
    "no-outputs": [suite([case(outputs=[])])],
    "wrong-kind": [suite([case(inputs=[
        {"val_type": "Bool", "val": {"bool_val": True}}, INT])])],
    "wrong-type": [suite([case(inputs=[tensor("INT"), INT])])],
    "wrong-sizes": [suite([case(inputs=[tensor(sizes=(4,)), INT])])],
    "short-data": [suite([case(inputs=[tensor(data=bytes(12)), INT])])],
    "wrong-int": [suite([case(inputs=[
        tensor(), {"val_type": "Int", "val": {"int_val": 4}}])])],
    "wrong-dim-order": [suite([case(inputs=[
        dict(tensor(), val=dict(tensor()["val"], dim_order=[1, 0])), INT])])],
    # Vectors the runtime's reader dereferences, absent.
    "absent-inputs": [suite([{"expected_outputs": [tensor()]}])],
    "absent-suites": None,
    # Every value kind, several suites (one for a method the program lacks,
    # one empty), a test case without values, a version.
    "all-kinds": ([suite([case(outputs=[tensor("LONG", (3,), range(24)),
                                        INT, BOOL, DOUBLE, NONE]),
                          case(inputs=[], outputs=[])]),
                   suite([case()], "missing"),
                   suite([], "forward")], 3),
}
for name, suites in bundles.items():
    suites, version = suites if isinstance(suites, tuple) else (suites, 0)
    bundle = {"version": version, "program": program}
    if suites is not None:
        bundle["method_test_suites"] = suites
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(bundle, f)
