#!/usr/bin/env python3
# ===- replan_programs.py - Programs to re-plan, by ExecuTorch's serializer -===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes, with ExecuTorch's own Python serializer (et-python on PYTHONPATH),
# programs whose memory a re-plan can shrink and whose kernels run here
# (replan_runner.cpp registers real portable kernels for every operator they
# call), for replan_check.py:
#
#   replan_programs.py OUT_DIR
#
# OUT_DIR/runnable.pte, each method planned naively (every tensor its own
# bytes, as a planner without lifetimes would), input x: float [16]:
#   chain      60 calls of relu, add and mul, each reading the one before
#              and x, which lives to the end
#   two_ids    the same with tensors alternating between memory ids 1 and 2
#   state      a mutable buffer (initial state 1..16): y = add(x, state),
#              copy_(state, y) in place (its result on the buffer's bytes),
#              out = relu(y)
#   views      y = relu(x), et_view(y) as [4, 4] (on y's bytes), z = relu
#   shaped     200 calls over 8 slots reused round-robin, as ExecuTorch's
#              planner shares bytes across lifetimes (already tight)
# ===----------------------------------------------------------------------===#

import os
import struct
import sys

from et_memory import kernel, plan, tensor
from executorch.exir._serialize._program import (PTEFile,
                                                  serialize_pte_binary)
from executorch.exir.schema import (Buffer, Bool, EValue, ExtraTensorInfo,
                                    Int, IntList, Operator, Program,
                                    SubsegmentOffsets)

BYTES = 64  # float [16]
OPERATORS = [Operator("aten::relu", "out"), Operator("aten::add", "out"),
             Operator("aten::mul", "out"), Operator("aten::copy_", ""),
             Operator("executorch_prim::et_view", "default")]
RELU, ADD, MUL, COPY, VIEW = range(5)


def chain_plan(name, calls, memory_ids):
    """x, then one tensor per call, each at its own offset of its buffer."""
    ends = [0] * (max(memory_ids) + 1)

    def place(index):
        memory_id = memory_ids[index % len(memory_ids)]
        offset = ends[memory_id]
        ends[memory_id] += BYTES
        return (memory_id, offset)

    values = [tensor([16], mem=place(0)), EValue(Int(1))]
    instructions = []
    previous = 0
    for call in range(calls):
        values.append(tensor([16], mem=place(call + 1)))
        out = len(values) - 1
        if call % 3 == 0:
            instructions.append(kernel(RELU, previous, out))
        elif call % 3 == 1:
            instructions.append(kernel(ADD, previous, 0, 1, out))
        else:
            instructions.append(kernel(MUL, previous, 0, out))
        previous = out
    return plan(name, values, [instructions], OPERATORS,
                buffers=[0] + ends[1:], inputs=(0,), outputs=(previous,))


def state_plan():
    values = [tensor([16], mem=(1, 0)),                          # 0 x
              tensor([16], mem=(1, 64), data=1,                  # 1 state
                     extra=ExtraTensorInfo(fully_qualified_name="state")),
              EValue(Int(1)),                                    # 2
              tensor([16], mem=(1, 128)),                        # 3 y
              EValue(Bool(False)),                               # 4
              tensor([16], mem=(1, 64)),                         # 5 copy_'s
              tensor([16], mem=(1, 192))]                        # 6 out
    instructions = [kernel(ADD, 0, 1, 2, 3), kernel(COPY, 1, 3, 4, 5),
                    kernel(RELU, 3, 6)]
    return plan("state", values, [instructions], OPERATORS,
                buffers=(0, 512), inputs=(0,), outputs=(6,))


def views_plan():
    # An int list names the values of its items.
    values = [tensor([16], mem=(1, 0)),                          # 0 x
              tensor([16], mem=(1, 128)),                        # 1 y
              EValue(Int(4)),                                    # 2
              EValue(IntList([2, 2])),                           # 3 [4, 4]
              tensor([4, 4], mem=(1, 128)),                      # 4 view
              tensor([4, 4], mem=(1, 256))]                      # 5 z
    instructions = [kernel(RELU, 0, 1), kernel(VIEW, 1, 3, 4),
                    kernel(RELU, 4, 5)]
    return plan("views", values, [instructions], OPERATORS,
                buffers=(0, 512), inputs=(0,), outputs=(5,))


def shaped_plan(calls=200, slots=8):
    values = [tensor([16], mem=(1, 0)), EValue(Int(1))]
    instructions = []
    previous = 0
    for call in range(calls):
        values.append(tensor([16], mem=(1, BYTES * (1 + call % slots))))
        out = len(values) - 1
        instructions.append(kernel(ADD if call % 2 else RELU, previous,
                                   *((0, 1) if call % 2 else ()), out))
        previous = out
    return plan("shaped", values, [instructions], OPERATORS,
                buffers=(0, BYTES * (1 + slots)), inputs=(0,),
                outputs=(previous,))


def runnable_program():
    program = Program(
        version=0,
        execution_plan=[chain_plan("chain", 60, [1]),
                        chain_plan("two_ids", 60, [1, 2]), state_plan(),
                        views_plan(), shaped_plan()],
        constant_buffer=[Buffer(b"")], backend_delegate_data=[], segments=[],
        constant_segment=SubsegmentOffsets(0, []))
    state = [Buffer(b""), Buffer(struct.pack("<16f", *range(1, 17)))]
    return bytes(serialize_pte_binary(PTEFile(program=program,
                                              mutable_data=state)))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: replan_programs.py OUT_DIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    with open(os.path.join(sys.argv[1], "runnable.pte"), "wb") as f:
        f.write(runnable_program())


if __name__ == "__main__":
    main()
