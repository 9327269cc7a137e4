#!/usr/bin/env python3
# ===- et_programs.py - .pte files written by ExecuTorch's own serializer -===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes test programs with ExecuTorch's Python serializer
# (`serialize_pte_binary`, `NamedDataStore`), the code that writes real
# exports, so that emit is checked against what ExecuTorch writes rather
# than against what emit writes. Needs ExecuTorch's serializer on the path
# (../shared/tools/et-python); see scripts/local-checks/README.md.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 et_programs.py OUT_DIR
# ===----------------------------------------------------------------------===#

import os
import struct
import sys

from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir.backend.compile_spec_schema import CompileSpec
from executorch.exir.scalar_type import ScalarType
from executorch.exir.schema import (
    AllocationDetails, BackendDelegate, BackendDelegateDataReference,
    BackendDelegateInlineData, Bool, BoolList, Buffer, Chain,
    ContainerMetadata, DataLocation, DelegateCall, Double, DoubleList, EValue,
    ExecutionPlan, ExtraTensorInfo, Frame, FrameList, FreeCall, Instruction,
    Int, IntList, JumpFalseCall, KernelCall, MoveCall, Null,
    OptionalTensorList, Operator, Program, String, SubsegmentOffsets, Tensor,
    TensorList, TensorShapeDynamism)


def tensor(sizes, mem=None, data=0, scalar=ScalarType.FLOAT, extra=None):
    allocation = AllocationDetails(mem[0], mem[1], 0) if mem else None
    return EValue(Tensor(scalar_type=scalar, storage_offset=0, sizes=sizes,
                         dim_order=list(range(len(sizes))),
                         requires_grad=False, layout=0, data_buffer_idx=data,
                         allocation_info=allocation,
                         shape_dynamism=TensorShapeDynamism.STATIC,
                         extra_tensor_info=extra))


def inline(index):
    return BackendDelegateDataReference(location=DataLocation.INLINE,
                                        index=index)


def spec(key, value):
    return CompileSpec(key, value)


def forward_plan():
    """Every value and instruction kind, an OptionalTensorList with a None
    item (-1), an operator table in neither first-use order nor fully used,
    and delegate entries: two calls on one payload with different specs,
    and one entry no instruction calls."""
    values = [
        tensor([2, 2], mem=(1, 0)),                      # 0 input
        tensor([2, 2], mem=(1, 16)),                     # 1 output
        tensor([2, 2], data=1),                          # 2 constant
        EValue(Int(1)),                                  # 3
        EValue(Bool(True)),                              # 4
        EValue(Double(0.5)),                             # 5
        EValue(String("mean")),                          # 6
        EValue(IntList([3, 3])),                         # 7
        EValue(DoubleList([0.5, 2.0])),                  # 8
        EValue(BoolList([True, False])),                 # 9
        EValue(TensorList([0, 1])),                      # 10
        EValue(OptionalTensorList([0, -1, 12])),         # 11: None as -1
        EValue(Null()),                                  # 12
        tensor([2, 2], mem=(1, 32), data=1,              # 13 mutable state
               extra=ExtraTensorInfo(fully_qualified_name="state")),
    ]
    instructions = [
        Instruction(KernelCall(op_index=0, args=[0, 2, 3, 1])),
        Instruction(DelegateCall(delegate_index=0, args=[0, 1])),
        Instruction(DelegateCall(delegate_index=1, args=[0, 1])),
        Instruction(MoveCall(move_from=1, move_to=13)),
        Instruction(JumpFalseCall(cond_value_index=4,
                                  destination_instruction=6)),
        Instruction(FreeCall(value_index=13)),
        Instruction(KernelCall(op_index=2, args=[0, 11, 1])),
    ]
    frames = [FrameList([Frame("model.py", i + 1, "forward", "x")])
              for i in range(len(instructions))]
    return ExecutionPlan(
        name="forward",
        container_meta_type=ContainerMetadata("T1#1($)", "$"),
        values=values, inputs=[0], outputs=[1],
        chains=[Chain(inputs=[0], outputs=[1], instructions=instructions,
                      stacktrace=frames)],
        operators=[Operator("aten::add", "out"),
                   Operator("aten::never_called", "out"),
                   Operator("aten::index", "Tensor_out")],
        delegates=[
            BackendDelegate("XnnpackBackend", inline(0),
                            [spec("config", b"fast")]),
            BackendDelegate("XnnpackBackend", inline(0),
                            [spec("config", b"small")]),
            BackendDelegate("UnusedBackend", inline(1), []),
        ],
        non_const_buffer_sizes=[0, 64])


def decode_plan(own_copy=False):
    """As ExecuTorch up to 0.7 wrote two calls with the same bytes: one
    delegate entry called twice; the entries not in call order. With
    `own_copy`, the shared payload is a second inline entry with the same
    bytes, as the per-method cache of ExecuTorch up to 0.5 stored it."""
    values = [tensor([2, 2], mem=(1, 0)), tensor([2, 2], mem=(1, 16))]
    instructions = [
        Instruction(DelegateCall(delegate_index=1, args=[0, 1])),
        Instruction(DelegateCall(delegate_index=1, args=[1, 0])),
        Instruction(DelegateCall(delegate_index=0, args=[0, 1])),
    ]
    return ExecutionPlan(
        name="decode", container_meta_type=ContainerMetadata("", ""),
        values=values, inputs=[0], outputs=[1],
        chains=[Chain(inputs=[0], outputs=[1], instructions=instructions,
                      stacktrace=None)],
        operators=[],
        delegates=[
            BackendDelegate("QnnBackend", inline(2),
                            [spec("graph", b"decode")]),
            BackendDelegate("XnnpackBackend", inline(3 if own_copy else 0),
                            [spec("config", b"fast")]),
        ],
        non_const_buffer_sizes=[0, 32])


def program(named, own_copy=False):
    payload_a = bytes(range(256)) * 3                  # shared by methods
    payload_b = b"unused entry payload" * 5
    payload_c = b"qnn context binary" * 7
    floats = struct.pack("<4f", 1.0, 2.0, 3.0, 4.0)
    prog = Program(
        version=0, execution_plan=[forward_plan(), decode_plan(own_copy)],
        constant_buffer=[Buffer(b""), Buffer(floats)],
        backend_delegate_data=[BackendDelegateInlineData(payload_a),
                               BackendDelegateInlineData(payload_b),
                               BackendDelegateInlineData(payload_c)] +
        ([BackendDelegateInlineData(bytes(payload_a))] if own_copy else []),
        segments=[], constant_segment=SubsegmentOffsets(0, []))
    mutable = [Buffer(b""), Buffer(struct.pack("<4f", 0, 0, 0, 0))]
    store = None
    if named:
        store = NamedDataStore()
        weight = bytes(range(40))
        store.add_named_data("shared_weight", weight, alignment=64)
        store.add_named_data("alias_of_shared_weight", weight, alignment=256)
        store.add_named_data("other_weight", b"\x07" * 24, alignment=512)
        store = store.get_named_data_store_output()
    return PTEFile(program=prog, mutable_data=mutable, named_data=store)


# name -> (program arguments, serializer options)
VARIANTS = {
    "segments-default": (dict(named=True),
                         dict(extract_delegate_segments=True)),
    "segments-align1024": (dict(named=True),
                           dict(extract_delegate_segments=True,
                                segment_alignment=1024,
                                constant_tensor_alignment=64)),
    "inline-default": (dict(named=False),
                       dict(extract_delegate_segments=False)),
    "inline-align64": (dict(named=False),
                       dict(extract_delegate_segments=False,
                            delegate_alignment=64)),
    "inline-align64-named": (dict(named=True),
                             dict(extract_delegate_segments=False,
                                  delegate_alignment=64,
                                  segment_alignment=4096)),
    "inline-duplicates": (dict(named=True, own_copy=True),
                          dict(extract_delegate_segments=False)),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (arguments, options) in VARIANTS.items():
        data = bytes(serialize_pte_binary(program(**arguments), **options))
        with open(os.path.join(out, name + ".pte"), "wb") as f:
            f.write(data)
        print("%s.pte: %d bytes" % (name, len(data)))


if __name__ == "__main__":
    main()
