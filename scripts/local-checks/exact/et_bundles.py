#!/usr/bin/env python3
# ===- et_bundles.py - .bpte files written by ExecuTorch's own serializer -===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Wraps each program of a directory (et_programs.py's) in a bundle written
# by ExecuTorch's bundled-program serializer
# (devtools/bundled_program/serialize, `_bundled_program_schema_to_flatbuffer`
# on the schema's dataclasses, which needs no PyTorch): per method, two test
# cases whose inputs are what the method takes (tensors of its type, sizes
# and dim order; scalars as traced) and whose expected outputs have its
# outputs' shapes. Needs the serializer on the path (check-et-bundles.sh
# sets it up from the snapshot).
#
#   PYTHONPATH=DIR python3 et_bundles.py PROGRAM_DIR OUT_DIR [--size-mib N]
#
# With --size-mib N, writes instead OUT_DIR/large.bpte around the one
# program PROGRAM_DIR/large.pte, and prints the seconds the serializer took.
# ===----------------------------------------------------------------------===#

import glob
import os
import sys
import time
import types

# The serializer imports the user-facing BundledProgram (which needs
# PyTorch) only to name a type; the schema path does not use it.
core = types.ModuleType("executorch.devtools.bundled_program.core")
core.BundledProgram = object
sys.modules[core.__name__] = core

import executorch.devtools.bundled_program.schema as bp  # noqa: E402
from executorch.devtools.bundled_program.serialize import (  # noqa: E402
    _bundled_program_schema_to_flatbuffer)
from executorch.exir._serialize._program import (  # noqa: E402
    deserialize_pte_binary)
from executorch.exir.schema import (  # noqa: E402
    Bool, Double, Int, Tensor)

ELEMENT = {0: 1, 1: 1, 2: 2, 3: 4, 4: 8, 5: 2, 6: 4, 7: 8, 11: 1, 15: 2}


def value_for(evalue, seed):
    """A bundled value the method's input (or output) `evalue` takes."""
    val = evalue.val
    if isinstance(val, Tensor):
        count = 1
        for size in val.sizes:
            count *= size
        width = ELEMENT.get(int(val.scalar_type), 4)
        data = bytes((seed + i) % 251 for i in range(count * width))
        return bp.Value(bp.Tensor(val.scalar_type, list(val.sizes), data,
                                  list(val.dim_order)))
    if isinstance(val, Int):
        return bp.Value(bp.Int(val.int_val))
    if isinstance(val, Bool):
        return bp.Value(bp.Bool(val.bool_val))
    if isinstance(val, Double):
        return bp.Value(bp.Double(val.double_val))
    return None


def suites_for(program):
    suites = []
    for plan in program.execution_plan:
        cases = []
        for seed in range(2):
            inputs = [value_for(plan.values[i], seed) for i in plan.inputs]
            outputs = [value_for(plan.values[i], seed + 7)
                       for i in plan.outputs]
            if None in inputs or None in outputs:
                break
            cases.append(bp.BundledMethodTestCase(inputs, outputs))
        suites.append(bp.BundledMethodTestSuite(plan.name, cases))
    return suites


def bundle(pte):
    program = deserialize_pte_binary(pte).program
    return _bundled_program_schema_to_flatbuffer(
        bp.BundledProgram(version=0, method_test_suites=suites_for(program),
                          program=pte))


def main():
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if "--size-mib" in sys.argv:
        pte = open(os.path.join(source, "large.pte"), "rb").read()
        start = time.perf_counter()
        data = bundle(pte)
        seconds = time.perf_counter() - start
        open(os.path.join(out, "large.bpte"), "wb").write(data)
        print("%.3f" % seconds)
        return
    for path in sorted(glob.glob(os.path.join(source, "*.pte"))):
        name = os.path.splitext(os.path.basename(path))[0]
        if ".out" in name:
            continue
        data = bundle(open(path, "rb").read())
        with open(os.path.join(out, name + ".bpte"), "wb") as f:
            f.write(data)
        print("%s.bpte: %d bytes" % (name, len(data)))


if __name__ == "__main__":
    main()
