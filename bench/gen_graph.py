#!/usr/bin/env python3
# gen_graph.py - write an un-delegated ExecuTorch program with ExecuTorch's
# own serializer: the benchmarks' big-graph workload.
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# One method "forward", a chain of CALLS kernel calls, each
# aten::linear.out(x, weight, bias, out=y): three new tensor values per call
# (a constant weight, a constant bias, a planned output), so 3 * CALLS + 1
# tensors in all, and every constant distinct, in the constant segment. The
# program goes through serialize_pte_binary with segments extracted, as
# ExecuTorch's exporter writes it. Needs ExecuTorch's Python serializer
# (../shared/tools/et-python): run with PYTHONPATH pointing at it.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 gen_graph.py OUT.pte \
#       --calls 50000 [--planned N]
#
# With --edits N, the same program with N edits spread evenly through the
# chain, in turn: a relu inserted after a call, a call removed, a call's
# operator replaced (aten::linear -> bench::linear_alt), a call's weight
# bytes changed; OUT.edits.json says how many nodes each edit adds,
# removes and changes (the graph diff workload's answer).
#
# With --planned N, the memory workloads' shape: each call writes N planned
# tensors and reads the first of the call before's, with no constants.
# With --slots S as well, the shape ExecuTorch's planner makes: tensors of
# 16 bytes, the k-th planned tensor in slot k mod S, so each slot's bytes
# hold many tensors, one lifetime after another.

import argparse
import json
import struct
import sys

from executorch.exir._serialize._program import PTEFile, serialize_pte_binary
from executorch.exir.scalar_type import ScalarType
from executorch.exir.schema import (
    AllocationDetails, Buffer, Chain, ContainerMetadata, EValue,
    ExecutionPlan, Instruction, KernelCall, Operator, Program,
    SubsegmentOffsets, Tensor, TensorList, TensorShapeDynamism)

FEATURES = 16  # activations are [1, 16] floats


def tensor(sizes, buffer=0, offset=None):
    """A float tensor: constant when buffer > 0, planned when offset is set."""
    allocation = None
    if offset is not None:
        allocation = AllocationDetails(memory_id=1, memory_offset_low=offset,
                                       memory_offset_high=0)
    return EValue(Tensor(
        scalar_type=ScalarType.FLOAT, storage_offset=0, sizes=sizes,
        dim_order=list(range(len(sizes))), requires_grad=False, layout=0,
        data_buffer_idx=buffer, allocation_info=allocation,
        shape_dynamism=TensorShapeDynamism.STATIC))


def constant(index, count):
    """Distinct float32 content for constant number index."""
    return struct.pack(f"<{count}f", *(float(index + i) for i in range(count)))


EDITS = ("insert", "remove", "replace", "constant")


def edit_plan(calls, edits):
    """Which call each of `edits` edits touches, spread evenly, and how."""
    return {int((k + 0.5) * calls / edits): EDITS[k % len(EDITS)]
            for k in range(edits)}


def build(calls, edits=0):
    activation_bytes = FEATURES * 4
    values = [tensor([1, FEATURES], offset=0)]  # the input
    buffers = [Buffer(storage=b"")]  # index 0: no data, as the emitter writes
    instructions = []
    plan_edits = edit_plan(calls, edits) if edits else {}
    x = 0
    for call in range(calls):
        edit = plan_edits.get(call)
        if edit == "remove":
            continue
        weight = constant(2 * call, FEATURES * FEATURES)
        if edit == "constant":
            weight = constant(2 * call + 0.5, FEATURES * FEATURES)
        buffers.append(Buffer(storage=weight))
        values.append(tensor([FEATURES, FEATURES], buffer=len(buffers) - 1))
        buffers.append(Buffer(storage=constant(2 * call + 1, FEATURES)))
        values.append(tensor([FEATURES], buffer=len(buffers) - 1))
        # Outputs alternate between two planned slots, as a memory planner
        # reuses them.
        values.append(tensor([1, FEATURES],
                             offset=activation_bytes * (1 + call % 2)))
        y = len(values) - 1
        instructions.append(Instruction(KernelCall(
            op_index=2 if edit == "replace" else 0,
            args=[x, y - 2, y - 1, y, y])))
        x = y
        if edit == "insert":
            values.append(tensor([1, FEATURES], offset=0))
            instructions.append(Instruction(KernelCall(
                op_index=1, args=[x, len(values) - 1, len(values) - 1])))
            x = len(values) - 1
    plan = ExecutionPlan(
        name="forward",
        container_meta_type=ContainerMetadata("", ""),
        values=values, inputs=[0], outputs=[x],
        chains=[Chain(inputs=[0], outputs=[x],
                      instructions=instructions, stacktrace=None)],
        operators=[Operator(name="aten::linear", overload="out")] + (
            [Operator(name="aten::relu", overload="out"),
             Operator(name="bench::linear_alt", overload="out")]
            if edits else []),
        delegates=[], non_const_buffer_sizes=[0, 3 * activation_bytes])
    return Program(version=0, execution_plan=[plan], constant_buffer=buffers,
                   backend_delegate_data=[], segments=[],
                   constant_segment=SubsegmentOffsets(segment_index=0,
                                                      offsets=[]))


def edit_counts(calls, edits):
    """The nodes the edits add, remove and change."""
    kinds = list(edit_plan(calls, edits).values()) if edits else []
    return {"added": kinds.count("insert"), "removed": kinds.count("remove"),
            "changed": kinds.count("replace") + kinds.count("constant")}


def build_planned(calls, planned, slots=None):
    """The memory workloads' shape: a chain of CALLS kernel calls, each
    reading the first output of the call before it and writing `planned`
    planned tensors (a kernel with several outputs, as native_layer_norm
    writes three; one: an element-wise kernel), no constants. Outputs
    alternate between two groups of slots, as a memory planner reuses
    them; with `slots`, tensors of 16 bytes go round the slots."""
    if slots is not None and slots < 2 * planned:
        sys.exit("--slots must be at least twice --planned: a call's outputs "
                 "and its input live at once")
    features = FEATURES if slots is None else 4
    activation_bytes = features * 4
    values = [tensor([1, features], offset=0)]  # the input
    instructions = []
    x = 0
    written = 0
    for call in range(calls):
        outputs = []
        for slot in range(planned):
            place = ((call % 2) * planned + slot if slots is None
                     else written % slots)
            values.append(tensor([1, features],
                                 offset=activation_bytes * (1 + place)))
            outputs.append(len(values) - 1)
            written += 1
        result = outputs[0]
        if planned > 1:
            values.append(EValue(TensorList(items=outputs)))
            result = len(values) - 1
        instructions.append(Instruction(KernelCall(
            op_index=0, args=[x] + outputs + [result])))
        x = outputs[0]
    operator = (Operator(name="aten::relu", overload="out") if planned == 1
                else Operator(name="bench::with_stats", overload="out"))
    plan = ExecutionPlan(
        name="forward",
        container_meta_type=ContainerMetadata("", ""),
        values=values, inputs=[0], outputs=[x],
        chains=[Chain(inputs=[0], outputs=[x], instructions=instructions,
                      stacktrace=None)],
        operators=[operator], delegates=[],
        non_const_buffer_sizes=[0, (1 + (2 * planned if slots is None
                                         else slots)) * activation_bytes])
    return Program(version=0, execution_plan=[plan],
                   constant_buffer=[Buffer(storage=b"")],
                   backend_delegate_data=[], segments=[],
                   constant_segment=SubsegmentOffsets(segment_index=0,
                                                      offsets=[]))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--calls", type=int, default=50000)
    parser.add_argument("--edits", type=int, default=0,
                        help="the same program with this many edits spread "
                             "through it (not with --planned)")
    parser.add_argument("--planned", type=int,
                        help="the memory workloads' shape instead: each call "
                             "writes this many planned tensors, no "
                             "constants")
    parser.add_argument("--slots", type=int,
                        help="with --planned: tensors of 16 bytes, going "
                             "round this many slots (bytes reused across "
                             "lifetimes, as ExecuTorch's planner does)")
    args = parser.parse_args()
    program = (build_planned(args.calls, args.planned, args.slots)
               if args.planned
               else build(args.calls, args.edits))
    data = serialize_pte_binary(PTEFile(program=program),
                                extract_delegate_segments=True,
                                segment_alignment=128)
    with open(args.out, "wb") as out:
        out.write(bytes(data))
    if args.edits:
        with open(args.out + ".edits.json", "w") as out:
            json.dump(edit_counts(args.calls, args.edits), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
