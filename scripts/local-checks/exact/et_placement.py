#!/usr/bin/env python3
# ===- et_placement.py - A program whose data lives in three places ------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes, with ExecuTorch's serializers, a program whose data is spread the
# way exports spread it: external constants (EXTERNAL, found by fully
# qualified name) and named data in two data files (tags "weights" and
# "extra"), and one named key kept in the .pte itself, read by a delegate.
# Some constants are larger than 2 KiB, so that splitting the data into
# files of at most 2 KiB has something to split.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 et_placement.py OUT_DIR
#   -> OUT_DIR/placed.pte, placed.weights.ptd, placed.extra.ptd
# ===----------------------------------------------------------------------===#

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir))
import common  # noqa: E402  (the shared preamble)

from et_data import external, floats, plan, tensor  # noqa: E402
from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir._serialize.data_serializer import DataPayload
from executorch.exir.scalar_type import ScalarType
from executorch.exir.schema import (
    BackendDelegate, BackendDelegateDataReference, BackendDelegateInlineData,
    Buffer, DataLocation, DelegateCall, Instruction, KernelCall, Operator,
    Program, SubsegmentOffsets)
from executorch.exir.tensor_layout import TensorLayout
from executorch.extension.flat_tensor.serialize.serialize import (
    FlatTensorSerializer)

# name -> (sizes, tag)
CONSTANTS = {
    "embed.weight": ([32, 32], "weights"),   # 4 KiB: a file of its own
    "linear.weight": ([16, 16], "weights"),  # 1 KiB
    "linear.bias": ([16], "weights"),
    "norm.weight": ([16], "extra"),
    "head.weight": ([8, 32], "extra"),       # 1 KiB
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = list(CONSTANTS)
    values = [tensor([8], mem=(1, 0)), tensor([8], mem=(1, 32))] + [
        tensor(CONSTANTS[name][0], extra=external(name)) for name in names]
    delegate = BackendDelegate(
        "XnnpackBackend",
        BackendDelegateDataReference(location=DataLocation.INLINE, index=0),
        [])
    forward = plan("forward", values,
                   [Instruction(KernelCall(0, list(range(len(values))))),
                    Instruction(DelegateCall(0, [0, 1]))],
                   [delegate], [Operator("aten::mlp", "out")])
    program = Program(
        version=0, execution_plan=[forward], constant_buffer=[Buffer(b"")],
        backend_delegate_data=[BackendDelegateInlineData(b"xnn payload")],
        segments=[], constant_segment=SubsegmentOffsets(0, []))
    store = NamedDataStore()
    for index, name in enumerate(names):
        sizes, tag = CONSTANTS[name]
        count = 1
        for size in sizes:
            count *= size
        store.add_named_data(
            name, floats(*[(index + 1) * 0.25 + i for i in range(count)]),
            tensor_layout=TensorLayout(ScalarType.FLOAT, sizes,
                                       list(range(len(sizes)))),
            external_tag=tag)
    store.add_named_data("xnn.packed", bytes(range(200)), alignment=64,
                         external_tag="extra")
    # One key the program keeps: no tag.
    store.add_named_data("xnn.config", b"fast" * 16, alignment=16)
    output = store.get_named_data_store_output()
    pte = serialize_pte_binary(
        PTEFile(program=program, named_data=output),
        extract_delegate_segments=True)
    with open(os.path.join(out, "placed.pte"), "wb") as f:
        f.write(bytes(pte))
    for tag, named in output.external_data.items():
        ptd = FlatTensorSerializer().serialize(
            DataPayload(buffers=output.buffers, named_data=named))
        with open(os.path.join(out, "placed.%s.ptd" % tag), "wb") as f:
            f.write(bytes(ptd))


if __name__ == "__main__":
    main()
