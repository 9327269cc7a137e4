#!/usr/bin/env python3
# ===- et_diff_pairs.py - Pairs of exports, written by ExecuTorch --------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes pairs of programs with ExecuTorch's Python serializer, each pair
# differing in one way a user asks emit-diff about: a delegate payload that
# grew from 2,000 to 5,000 bytes, a method added, named data changed, added
# and removed, an operator added, and layout only (segment alignment 128
# against 1024; payloads inline against in segments). Each pair is
# OUT/<name>.old.pte and OUT/<name>.new.pte; the first line of each is
# printed with what changed.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 et_diff_pairs.py OUT_DIR
# ===----------------------------------------------------------------------===#

import copy
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)

from et_programs import program  # noqa: E402
from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir.schema import (BackendDelegateInlineData, Instruction,
                                    KernelCall, Operator)

SEGMENTS = dict(extract_delegate_segments=True)


def named(entries):
    store = NamedDataStore()
    for key, data in entries.items():
        store.add_named_data(key, data, alignment=64)
    return store.get_named_data_store_output()


def with_payload(size):
    """The example program with its first delegate payload `size` bytes."""
    pte = program(named=True)
    pte.program.backend_delegate_data[0] = BackendDelegateInlineData(
        bytes(i % 251 for i in range(size)))
    return pte


def forward_only():
    pte = program(named=True)
    pte.program.execution_plan = pte.program.execution_plan[:1]
    # Only decode used the QNN payload (entry 2).
    pte.program.backend_delegate_data = pte.program.backend_delegate_data[:2]
    return pte


def with_mul():
    pte = program(named=True)
    forward = pte.program.execution_plan[0]
    forward.operators.append(Operator("aten::mul", "out"))
    forward.chains[0].instructions.append(
        Instruction(KernelCall(op_index=len(forward.operators) - 1,
                               args=[0, 2, 1])))
    chain = forward.chains[0]
    chain.stacktrace.append(copy.deepcopy(chain.stacktrace[-1]))
    return pte


def with_named(entries):
    pte = program(named=False)
    return PTEFile(program=pte.program, mutable_data=pte.mutable_data,
                   named_data=named(entries))


WEIGHT = bytes(range(40))

# name -> (old, new, what changed), each side (PTEFile, serializer options)
PAIRS = {
    "payload-grew": ((with_payload(2000), SEGMENTS),
                     (with_payload(5000), SEGMENTS),
                     "delegate payload 0 grew from 2,000 to 5,000 bytes"),
    "method-added": ((forward_only(), SEGMENTS),
                     (program(named=True), SEGMENTS),
                     "method decode added"),
    "named-data": ((with_named({"shared_weight": WEIGHT,
                                "other_weight": b"\x07" * 24}), SEGMENTS),
                   (with_named({"shared_weight": WEIGHT[::-1],
                                "added_weight": b"\x05" * 96}), SEGMENTS),
                   "shared_weight changed, added_weight added, "
                   "other_weight removed"),
    "operator-added": ((program(named=True), SEGMENTS),
                       (with_mul(), SEGMENTS),
                       "aten::mul.out added to forward, with a call"),
    "layout-alignment": ((program(named=True), SEGMENTS),
                         (program(named=True),
                          dict(SEGMENTS, segment_alignment=1024)),
                         "layout only: segment alignment 128 against 1024"),
    "layout-inline": ((program(named=True), SEGMENTS),
                      (program(named=True),
                       dict(extract_delegate_segments=False)),
                      "layout only: payloads in segments against inline"),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (old, new, what) in PAIRS.items():
        for side, (pte, options) in (("old", old), ("new", new)):
            data = bytes(serialize_pte_binary(copy.deepcopy(pte), **options))
            with open(os.path.join(out, "%s.%s.pte" % (name, side)),
                      "wb") as f:
                f.write(data)
        print("%s: %s" % (name, what))


if __name__ == "__main__":
    main()
