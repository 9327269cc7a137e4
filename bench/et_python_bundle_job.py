#!/usr/bin/env python3
# et_python_bundle_job.py - ExecuTorch's Python writing the bundle that
# emit-translate --pte-to-pte writes in the bundle workload: the program's
# bytes wrapped with its test suites by ExecuTorch's bundled-program
# serializer (devtools/bundled_program/serialize, on the schema's
# dataclasses, as BundledProgram.serialize_to_schema hands them over).
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
#   PYTHONPATH=DIR python3 et_python_bundle_job.py PROGRAM.pte OUT.bpte CASES
#
# DIR: scripts/local-checks/exact/et-bundle-python.sh's. CASES test cases per
# method, each a float [16] input and expected output, as the bench's
# suites have.

import struct
import sys
import types

core = types.ModuleType("executorch.devtools.bundled_program.core")
core.BundledProgram = object  # Only named by the serializer.
sys.modules[core.__name__] = core

import executorch.devtools.bundled_program.schema as bp  # noqa: E402
from executorch.devtools.bundled_program.serialize import (  # noqa: E402
    _bundled_program_schema_to_flatbuffer)
from executorch.exir.scalar_type import ScalarType  # noqa: E402

METHODS = ("prefill", "decode")


def tensor(seed):
    data = struct.pack("<16f", *[float(seed + i) for i in range(16)])
    return bp.Value(bp.Tensor(ScalarType.FLOAT, [16], data, [0]))


def main():
    program_path, out, cases = sys.argv[1], sys.argv[2], int(sys.argv[3])
    program = open(program_path, "rb").read()
    suites = [bp.BundledMethodTestSuite(name, [
        bp.BundledMethodTestCase([tensor(c)], [tensor(c + 1)])
        for c in range(cases)]) for name in METHODS]
    data = _bundled_program_schema_to_flatbuffer(
        bp.BundledProgram(version=0, method_test_suites=suites,
                          program=program))
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
