#!/usr/bin/env python3
# ===- et_link.py - Programs exported separately from one model ----------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes prefill.pte + prefill.ptd and decode.pte + decode.ptd with
# ExecuTorch's serializers, each from its own NamedDataStore, as two
# separate exports of one model write them. Both hold the same weights:
# an external constant ("linear.weight") and a backend's packed weights in
# their .ptd, a named datum in the .pte, a named constant ("bias") in the
# constant segment and a delegate payload (an encoder both methods call).
# Each also has data of its own: a delegate payload with its own compile
# specs, a named constant and a key in its .ptd.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 et_link.py OUT_DIR
# ===----------------------------------------------------------------------===#

import os
import sys

from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir._serialize.data_serializer import DataPayload
from executorch.exir.backend.compile_spec_schema import CompileSpec
from executorch.exir.scalar_type import ScalarType
from executorch.exir.schema import (
    BackendDelegate, BackendDelegateDataReference, BackendDelegateInlineData,
    Buffer, DataLocation, DelegateCall, ExtraTensorInfo, Instruction,
    KernelCall, Operator, Program, SubsegmentOffsets, TensorDataLocation)
from executorch.exir.tensor_layout import TensorLayout
from executorch.extension.flat_tensor.serialize.serialize import (
    FlatTensorSerializer)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)
from et_data import external, floats, plan, tensor  # noqa: E402

ENCODER = bytes(range(256)) * 16            # 4 KiB, in both programs
PACKED = bytes(reversed(range(256))) * 256  # 64 KiB, in both .ptd files
TOKENIZER = b"tokenizer " * 100             # in both .pte files


def named(fqn):
    return ExtraTensorInfo(fully_qualified_name=fqn,
                           location=TensorDataLocation.SEGMENT)


def export(name, number):
    values = [tensor([2], mem=(1, 0)), tensor([2], mem=(1, 16)),
              tensor([2, 2], extra=external("linear.weight")),
              # The same bias in both programs, and a constant of this
              # program's own, both named (as torch.export names them).
              tensor([2], data=1, extra=named("bias")),
              tensor([2], data=2, extra=named("%s.scale" % name))]
    delegates = [
        BackendDelegate(
            "XnnpackBackend",
            BackendDelegateDataReference(DataLocation.INLINE, 0),
            [CompileSpec("method", name.encode())]),
        BackendDelegate(
            "XnnpackBackend",
            BackendDelegateDataReference(DataLocation.INLINE, 1),
            [CompileSpec("part", b"encoder")]),
    ]
    method = plan(name, values,
                  [Instruction(KernelCall(0, [0, 2, 3, 4, 1])),
                   Instruction(DelegateCall(1, [0, 1])),
                   Instruction(DelegateCall(0, [0, 1]))],
                  delegates, [Operator("aten::linear", "out")])
    program = Program(
        version=0, execution_plan=[method],
        constant_buffer=[Buffer(b""), Buffer(floats(0.5, -0.5)),
                         Buffer(floats(number, 1))],
        backend_delegate_data=[
            BackendDelegateInlineData(("%s graph" % name).encode() * 64),
            BackendDelegateInlineData(ENCODER)],
        segments=[], constant_segment=SubsegmentOffsets(0, []))
    store = NamedDataStore()
    store.add_named_data("linear.weight", floats(1, 2, 3, 4),
                         tensor_layout=TensorLayout(ScalarType.FLOAT, [2, 2],
                                                    [0, 1]),
                         external_tag="model")
    store.add_named_data("xnn.packed_weights", PACKED, alignment=64,
                         external_tag="model")
    store.add_named_data("%s.state" % name, floats(number, number),
                         external_tag="model")
    store.add_named_data("tokenizer", TOKENIZER, alignment=16)
    output = store.get_named_data_store_output()
    pte = serialize_pte_binary(PTEFile(program=program, named_data=output),
                               extract_delegate_segments=True)
    ptd = FlatTensorSerializer().serialize(
        DataPayload(buffers=output.buffers,
                    named_data=output.external_data["model"]))
    return bytes(pte), bytes(ptd)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for number, name in enumerate(("prefill", "decode")):
        pte, ptd = export(name, number)
        with open(os.path.join(out, name + ".pte"), "wb") as f:
            f.write(pte)
        with open(os.path.join(out, name + ".ptd"), "wb") as f:
            f.write(ptd)


if __name__ == "__main__":
    main()
