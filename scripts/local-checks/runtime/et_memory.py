#!/usr/bin/env python3
# ===- et_memory.py - Programs and mutants for emit-memory's local check --===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Two jobs, both with ExecuTorch's own Python serializer (see README.md):
#
#   et_memory.py programs OUT_DIR
#       writes programs that make the runtime's method allocator take every
#       kind of allocation it has (every value kind, dynamic tensors of
#       several ranks, odd-sized scalar types, lists, several chains,
#       delegates with and without compile specs, external constants with a
#       data file beside program named data), and plans ExecuTorch makes on
#       purpose (in-place, elided views, a loop);
#   et_memory.py mutants IN.pte OUT_DIR
#       reads IN.pte with ExecuTorch's deserializer and writes one mutant per
#       kernel call and ordered pair of its planned tensor arguments with
#       bytes: the first moved onto the second's bytes. Every pair is
#       written, whatever the check under test allows (only a move onto
#       bytes it already has is skipped). Prints one line per mutant:
#       `FILE METHOD INSTRUCTION MOVED ONTO OPERATOR KIND`, KIND the roles
#       of the two in the call (`result-onto-input`, ...).
# ===----------------------------------------------------------------------===#

import copy
import itertools
import os
import struct
import sys

from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir._serialize._program import (
    PTEFile, deserialize_pte_binary, serialize_pte_binary)
from executorch.exir._serialize.data_serializer import DataPayload
from executorch.exir.backend.compile_spec_schema import CompileSpec
from executorch.exir.scalar_type import ScalarType
from executorch.exir.schema import (
    AllocationDetails, BackendDelegate, BackendDelegateDataReference,
    BackendDelegateInlineData, Bool, BoolList, Buffer, Chain,
    ContainerMetadata, DataLocation, DelegateCall, Double, DoubleList, EValue,
    ExecutionPlan, ExtraTensorInfo, Instruction, Int, IntList, JumpFalseCall,
    KernelCall, Null, OptionalTensorList, Operator, Program, String,
    SubsegmentOffsets, Tensor, TensorDataLocation, TensorList,
    TensorShapeDynamism)
from executorch.exir.tensor_layout import TensorLayout
from executorch.extension.flat_tensor.serialize.serialize import (
    FlatTensorSerializer)

ELEMENT_BYTES = {ScalarType.FLOAT: 4, ScalarType.BOOL: 1, ScalarType.CHAR: 1,
                 ScalarType.LONG: 8, ScalarType.HALF: 2, ScalarType.INT: 4,
                 ScalarType.BYTE: 1, ScalarType.DOUBLE: 8, ScalarType.SHORT: 2}


def tensor(sizes, mem=None, data=0, scalar=ScalarType.FLOAT, extra=None,
           dynamic=False):
    allocation = AllocationDetails(mem[0], mem[1], 0) if mem else None
    dynamism = (TensorShapeDynamism.DYNAMIC_BOUND if dynamic
                else TensorShapeDynamism.STATIC)
    return EValue(Tensor(scalar_type=scalar, storage_offset=0, sizes=sizes,
                         dim_order=list(range(len(sizes))),
                         requires_grad=False, layout=0, data_buffer_idx=data,
                         allocation_info=allocation, shape_dynamism=dynamism,
                         extra_tensor_info=extra))


def inline(index):
    return BackendDelegateDataReference(location=DataLocation.INLINE,
                                        index=index)


def plan(name, values, chains, operators=(), delegates=(), buffers=(0, 256),
         inputs=(0,), outputs=(1,)):
    return ExecutionPlan(
        name=name, container_meta_type=ContainerMetadata("", ""),
        values=values, inputs=list(inputs), outputs=list(outputs),
        chains=[Chain(inputs=[], outputs=[], instructions=c, stacktrace=None)
                for c in chains],
        operators=list(operators), delegates=list(delegates),
        non_const_buffer_sizes=list(buffers))


def kernel(op, *args):
    return Instruction(KernelCall(op_index=op, args=list(args)))


def values_plan():
    """Every value kind the method allocator allocates for."""
    values = [
        tensor([2, 3], mem=(1, 0)),                                 # 0
        tensor([2, 3], mem=(1, 32)),                                # 1
        tensor([4, 5], mem=(1, 64), dynamic=True),                  # 2
        tensor([3], mem=(1, 160), scalar=ScalarType.BOOL),          # 3
        tensor([], mem=(1, 176), scalar=ScalarType.CHAR),           # 4
        EValue(Int(3)),                                             # 5
        EValue(Bool(True)),                                         # 6
        EValue(Double(0.25)),                                       # 7
        EValue(String("abc")),                                      # 8
        EValue(IntList([5, 5, 5])),                                 # 9
        EValue(BoolList([True, False, True])),                      # 10
        EValue(DoubleList([0.5])),                                  # 11
        EValue(TensorList([0, 1, 2])),                              # 12
        EValue(OptionalTensorList([0, -1, 3])),                     # 13
        EValue(Null()),                                             # 14
        tensor([2, 3], data=1),                                     # 15
        tensor([1, 1, 1, 1, 2], mem=(2, 0), dynamic=True),          # 16
        tensor([7], mem=(1, 192), scalar=ScalarType.HALF,           # 17
               dynamic=True),
    ]
    chains = [
        [kernel(0, 0, 15, 5, 1), kernel(1, 12, 9, 2),
         Instruction(DelegateCall(delegate_index=0, args=[0, 3])),
         Instruction(DelegateCall(delegate_index=1, args=[1, 4])),
         kernel(2, 13, 11, 10, 8, 16)],
        [kernel(0, 1, 7, 6, 17),
         Instruction(DelegateCall(delegate_index=2, args=[17, 4, 3]))],
    ]
    delegates = [
        BackendDelegate("XnnpackBackend", inline(0),
                        [CompileSpec("a", b"1"), CompileSpec("b", b"22")]),
        BackendDelegate("XnnpackBackend", inline(0), []),
        BackendDelegate("QnnBackend", inline(1), [CompileSpec("c", b"")]),
    ]
    operators = [Operator("aten::add", "out"), Operator("aten::cat", "out"),
                 Operator("aten::index", "Tensor_out")]
    return plan("values", values, chains, operators, delegates,
                buffers=(0, 208, 16))


def plain_plan(name, count):
    """`count` kernel calls in a line: a method of a plain model."""
    values = [tensor([8], mem=(1, 32 * (i % 2))) for i in range(count + 1)]
    values.append(tensor([8], data=1))
    chain = [kernel(0, i, count + 1, i + 1) for i in range(count)]
    return plan(name, values, [chain], [Operator("aten::mul", "out")],
                buffers=(0, 64), inputs=(0,), outputs=(count,))


def purposeful_plan():
    """Plans ExecuTorch makes on purpose: an in-place kernel (its result on
    its first tensor argument, which dies there), an elided view (a second
    tensor on the same bytes), et_view, and a loop."""
    values = [
        tensor([4], mem=(1, 0)),              # 0 input
        tensor([4], data=1),                  # 1 constant
        tensor([4], mem=(1, 0)),              # 2 in place on 0
        tensor([2, 2], mem=(1, 0)),           # 3 elided view of 2
        tensor([4], mem=(1, 16)),             # 4
        EValue(IntList([6, 6])),              # 5
        EValue(Int(2)),                       # 6
        tensor([2, 2], mem=(1, 16)),          # 7 et_view of 4
        EValue(Bool(False)),                  # 8
        tensor([2, 2], mem=(1, 32)),          # 9 output
    ]
    chain = [kernel(0, 0, 1, 2),              # 2 = add(0, 1), in place
             kernel(1, 3, 4),                 # 4 = relu(3), 3 views 2
             kernel(2, 4, 5, 7),              # 7 = et_view(4)
             kernel(1, 7, 9),                 # 9 = relu(7)
             Instruction(JumpFalseCall(cond_value_index=8,
                                       destination_instruction=1))]
    operators = [Operator("aten::add", "out"), Operator("aten::relu", "out"),
                 Operator("executorch_prim::et_view", "default")]
    return plan("purposeful", values, [chain], operators, buffers=(0, 48),
                outputs=(9,))


def memory_program():
    program = Program(
        version=0,
        execution_plan=[values_plan(), plain_plan("plain", 6),
                        purposeful_plan()],
        constant_buffer=[Buffer(b""), Buffer(struct.pack("<8f", *range(8)))],
        backend_delegate_data=[BackendDelegateInlineData(b"xnn" * 10),
                               BackendDelegateInlineData(b"qnn" * 10)],
        segments=[], constant_segment=SubsegmentOffsets(0, []))
    return bytes(serialize_pte_binary(PTEFile(program=program),
                                      extract_delegate_segments=True))


def external_program():
    """External constants (the runtime allocates their NamedData), and
    program named data beside the data file (it merges the two)."""
    def external(fqn):
        return ExtraTensorInfo(fully_qualified_name=fqn,
                               location=TensorDataLocation.EXTERNAL)
    values = [tensor([2], mem=(1, 0)), tensor([2], mem=(1, 16)),
              tensor([2], extra=external("w")),
              tensor([2], extra=external("b")),
              tensor([2], mem=(1, 32), data=1,
                     extra=ExtraTensorInfo(fully_qualified_name="state"))]
    forward = plan("forward", values,
                   [[kernel(0, 0, 2, 3, 4, 1),
                     Instruction(DelegateCall(delegate_index=0,
                                              args=[0, 1]))]],
                   [Operator("aten::addcmul", "out")],
                   [BackendDelegate("XnnpackBackend", inline(0), [])],
                   buffers=(0, 48))
    program = Program(
        version=0, execution_plan=[forward], constant_buffer=[Buffer(b"")],
        backend_delegate_data=[BackendDelegateInlineData(b"xnn payload")],
        segments=[], constant_segment=SubsegmentOffsets(0, []))
    store = NamedDataStore()
    layout = TensorLayout(ScalarType.FLOAT, [2], [0])
    store.add_named_data("w", struct.pack("<2f", 1, 2), tensor_layout=layout,
                         external_tag="model")
    store.add_named_data("b", struct.pack("<2f", 3, 4), tensor_layout=layout,
                         external_tag="model")
    store.add_named_data("xnn.blob", bytes(range(32)), alignment=64)
    output = store.get_named_data_store_output()
    mutable = [Buffer(b""), Buffer(struct.pack("<2f", 0, 0))]
    pte = serialize_pte_binary(
        PTEFile(program=program, mutable_data=mutable, named_data=output),
        extract_delegate_segments=True)
    ptd = FlatTensorSerializer().serialize(
        DataPayload(buffers=output.buffers,
                    named_data=output.external_data["model"]))
    return bytes(pte), bytes(ptd)


def write_programs(out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "memory.pte"), "wb") as f:
        f.write(memory_program())
    pte, ptd = external_program()
    with open(os.path.join(out, "memory-external.pte"), "wb") as f:
        f.write(pte)
    with open(os.path.join(out, "memory-external.model.ptd"), "wb") as f:
        f.write(ptd)


def tensor_bytes(t):
    count = 1
    for size in t.sizes:
        count *= size
    return count * ELEMENT_BYTES.get(t.scalar_type, 4)


def planned(values, index):
    if index < 0 or index >= len(values):
        return None
    t = values[index].val
    if isinstance(t, Tensor) and t.allocation_info is not None:
        return t
    return None


def returned(values, index):
    """What a kernel call returns: its last argument, or a list's items."""
    value = values[index].val
    return list(getattr(value, "items", None) or []) + [index]


def write_mutants(path, out):
    """Every planned tensor argument of every kernel call moved onto the
    bytes of every other: no pair is left out for being one the check
    allows, so the mutants test the check's rule rather than share it.
    Only moves that change nothing (already on those bytes) are skipped."""
    os.makedirs(out, exist_ok=True)
    with open(path, "rb") as f:
        original = deserialize_pte_binary(f.read())
    base = os.path.splitext(os.path.basename(path))[0]
    count = 0
    for plan_index, plan in enumerate(original.program.execution_plan):
        step = 0
        for chain in plan.chains:
            for instruction in chain.instructions:
                call = instruction.instr_args
                step += 1
                if not isinstance(call, KernelCall) or not call.args:
                    continue
                op = plan.operators[call.op_index]
                op_name = op.name + ("." + op.overload if op.overload else "")
                results = set(returned(plan.values, call.args[-1]))
                args = [a for a in dict.fromkeys(call.args)
                        if planned(plan.values, a) is not None and
                        tensor_bytes(plan.values[a].val)]
                for moved_index, onto in itertools.permutations(args, 2):
                    src = plan.values[onto].val.allocation_info
                    old = plan.values[moved_index].val.allocation_info
                    if (old.memory_id, old.memory_offset_low,
                            old.memory_offset_high) == (
                            src.memory_id, src.memory_offset_low,
                            src.memory_offset_high):
                        continue  # already there: not a mutant
                    mutant = copy.deepcopy(original)
                    values = mutant.program.execution_plan[plan_index].values
                    values[moved_index].val.allocation_info = AllocationDetails(
                        src.memory_id, src.memory_offset_low,
                        src.memory_offset_high)
                    name = "%s.m%d.p%d.i%d.v%d-on-v%d.pte" % (
                        base, count, plan_index, step - 1, moved_index, onto)
                    with open(os.path.join(out, name), "wb") as f:
                        f.write(bytes(serialize_pte_binary(
                            mutant, extract_delegate_segments=True)))
                    role = lambda v: "result" if v in results else "input"
                    print(name, plan.name, step - 1, moved_index, onto,
                          op_name, "%s-onto-%s" % (role(moved_index),
                                                   role(onto)))
                    count += 1


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "programs":
        write_programs(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "mutants":
        write_mutants(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: et_memory.py programs OUT_DIR | "
                 "mutants IN.pte OUT_DIR")


if __name__ == "__main__":
    main()
