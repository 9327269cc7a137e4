#!/usr/bin/env python3
# ===- et_data.py - Programs and data files ExecuTorch's writers produce --===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes programs whose constants live in .ptd data files, as
# serialize_for_executorch does with external constants: the program's
# tensors say EXTERNAL and name a fully qualified name, and a
# NamedDataStore with those names (and layouts), aliases and backend blobs
# is written per tag by ExecuTorch's FlatTensorSerializer. Also a data file
# written without sharing (as ExecuTorch's C++ save_ptd writes, one segment
# per key), and a program whose constant and mutable buffers repeat bytes.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 et_data.py OUT_DIR
# ===----------------------------------------------------------------------===#

import os
import struct
import sys

from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir._serialize.data_serializer import DataEntry, DataPayload
from executorch.exir.scalar_type import ScalarType
from executorch.exir.schema import (
    AllocationDetails, BackendDelegate, BackendDelegateDataReference,
    BackendDelegateInlineData, Buffer, Chain, ContainerMetadata, DataLocation,
    DelegateCall, EValue, ExecutionPlan, ExtraTensorInfo, Instruction,
    KernelCall, Operator, Program, SubsegmentOffsets, Tensor,
    TensorDataLocation, TensorShapeDynamism)
from executorch.exir.tensor_layout import TensorLayout
from executorch.extension.flat_tensor.serialize.serialize import (
    FlatTensorSerializer)


def tensor(sizes, mem=None, data=0, extra=None):
    allocation = AllocationDetails(mem[0], mem[1], 0) if mem else None
    return EValue(Tensor(scalar_type=ScalarType.FLOAT, storage_offset=0,
                         sizes=sizes, dim_order=list(range(len(sizes))),
                         requires_grad=False, layout=0, data_buffer_idx=data,
                         allocation_info=allocation,
                         shape_dynamism=TensorShapeDynamism.STATIC,
                         extra_tensor_info=extra))


def external(fqn):
    return ExtraTensorInfo(fully_qualified_name=fqn,
                           location=TensorDataLocation.EXTERNAL)


def floats(*values):
    return struct.pack("<%df" % len(values), *values)


def plan(name, values, instructions, delegates=(), operators=()):
    return ExecutionPlan(
        name=name, container_meta_type=ContainerMetadata("", ""),
        values=values, inputs=[0], outputs=[1],
        chains=[Chain(inputs=[0], outputs=[1], instructions=instructions,
                      stacktrace=None)],
        operators=list(operators), delegates=list(delegates),
        non_const_buffer_sizes=[0, 64])


def external_program():
    """Two methods reading external constants by name (one name twice, two
    names with equal bytes), and a delegate whose backend reads a named
    blob from the data file."""
    linear = [tensor([2], mem=(1, 0)), tensor([2], mem=(1, 16)),
              tensor([2, 2], extra=external("linear.weight")),
              tensor([2], extra=external("linear.bias")),
              tensor([2], extra=external("copy.bias"))]
    delegate = BackendDelegate(
        "XnnpackBackend",
        BackendDelegateDataReference(location=DataLocation.INLINE, index=0),
        [])
    forward = plan("forward", linear,
                   [Instruction(KernelCall(0, [0, 2, 3, 1])),
                    Instruction(DelegateCall(0, [0, 1]))],
                   [delegate], [Operator("aten::linear", "out")])
    again = plan("again", [tensor([2], mem=(1, 0)), tensor([2], mem=(1, 16)),
                           tensor([2], extra=external("linear.bias"))],
                 [Instruction(KernelCall(0, [0, 2, 1]))], [],
                 [Operator("aten::add", "out")])
    program = Program(
        version=0, execution_plan=[forward, again],
        constant_buffer=[Buffer(b"")],
        backend_delegate_data=[BackendDelegateInlineData(b"xnn payload")],
        segments=[], constant_segment=SubsegmentOffsets(0, []))
    store = NamedDataStore()
    bias = floats(0.5, -0.5)
    store.add_named_data("linear.weight", floats(1, 2, 3, 4),
                         tensor_layout=TensorLayout(ScalarType.FLOAT, [2, 2],
                                                    [0, 1]),
                         external_tag="model")
    store.add_named_data("linear.bias", bias,
                         tensor_layout=TensorLayout(ScalarType.FLOAT, [2],
                                                    [0]),
                         external_tag="model")
    # Equal bytes under another name: the store keeps one buffer.
    store.add_named_data("copy.bias", bias,
                         tensor_layout=TensorLayout(ScalarType.FLOAT, [2],
                                                    [0]),
                         external_tag="model")
    store.add_named_data("xnn.packed_weights", bytes(range(64)), alignment=64,
                         external_tag="model")
    output = store.get_named_data_store_output()
    pte = serialize_pte_binary(PTEFile(program=program),
                               extract_delegate_segments=True)
    ptd = FlatTensorSerializer().serialize(
        DataPayload(buffers=output.buffers,
                    named_data=output.external_data["model"]))
    return bytes(pte), {"model": bytes(ptd)}


def unshared_data():
    """A data file with one segment per key, equal bytes included, as
    ExecuTorch's C++ writer (save_ptd) writes it."""
    weight = floats(1, 2, 3, 4)
    layout = TensorLayout(ScalarType.FLOAT, [4], [0])
    payload = DataPayload(
        buffers=[weight, weight, floats(1, 2, 3, 5), weight],
        named_data={"a": DataEntry(0, 16, layout),
                    "b": DataEntry(1, 16, layout),
                    "near": DataEntry(2, 16, layout),
                    "c": DataEntry(3, 64, layout)})
    return bytes(FlatTensorSerializer().serialize(payload))


def repeated_constants():
    """Constants and mutable states that repeat bytes, as a writer that
    does not hash them (or a linker of two programs) leaves them."""
    values = [tensor([2], mem=(1, 0)), tensor([2], mem=(1, 16)),
              tensor([2], data=1), tensor([2], data=2), tensor([2], data=3),
              tensor([2], mem=(1, 32), data=1), tensor([2], mem=(1, 48),
                                                      data=2)]
    forward = plan("forward", values,
                   [Instruction(KernelCall(0, [0, 2, 3, 4, 5, 6, 1]))], [],
                   [Operator("aten::mix", "out")])
    same = floats(3, 4)
    program = Program(
        version=0, execution_plan=[forward],
        constant_buffer=[Buffer(b""), Buffer(same), Buffer(floats(3, 5)),
                         Buffer(same)],
        backend_delegate_data=[], segments=[],
        constant_segment=SubsegmentOffsets(0, []))
    mutable = [Buffer(b""), Buffer(floats(0, 0)), Buffer(floats(0, 0))]
    return bytes(serialize_pte_binary(
        PTEFile(program=program, mutable_data=mutable),
        extract_delegate_segments=True))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    pte, ptds = external_program()
    with open(os.path.join(out, "external.pte"), "wb") as f:
        f.write(pte)
    for tag, ptd in ptds.items():
        with open(os.path.join(out, "external.%s.ptd" % tag), "wb") as f:
            f.write(ptd)
    with open(os.path.join(out, "unshared.ptd"), "wb") as f:
        f.write(unshared_data())
    with open(os.path.join(out, "repeated.pte"), "wb") as f:
        f.write(repeated_constants())


if __name__ == "__main__":
    main()
