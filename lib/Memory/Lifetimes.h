//===- Lifetimes.h - When a method's values are live ------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// How a method's instructions use its values, numbered across its chains in
// order: each value's lifetime, from the first instruction that names it to
// the last (a list names its items), with the method's inputs live from the
// start, its outputs to the end, its mutable buffers throughout, and a value
// named inside a loop (a backward jump) live for the whole loop; and which
// tensors each instruction writes.
//
// What an instruction writes is read off the emitter's layout of a call:
// a kernel call's last argument is what it returns (its out argument, or a
// list of them); a delegate call's outputs follow its inputs, so they are
// the arguments at its end that nothing named before it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_MEMORY_LIFETIMES_H
#define EMIT_LIB_MEMORY_LIFETIMES_H

#include "emit/Memory/MemoryReport.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace executorch_flatbuffer {
struct ExecutionPlan;
} // namespace executorch_flatbuffer

namespace emit::memory {

/// What one instruction does with memory.
struct InstructionUse {
  /// Where its writes start in `MethodUses::written`.
  uint32_t writesBegin = 0;
  /// The value of its first tensor argument, for a kernel call that has
  /// one: where an in-place kernel writes its result.
  int32_t firstTensorArgument = -1;
  /// Its kernel returns a view of its first tensor argument's bytes
  /// (`executorch_prim::et_view`).
  bool returnsView = false;
};

/// How a method's instructions use its values.
struct MethodUses {
  uint32_t instructionCount = 0;
  /// Per value, its lifetime; `first > last` when nothing names it.
  std::vector<Lifetime> lifetimes;
  /// Per value, the last instruction that names it, loops aside.
  std::vector<uint32_t> lastNamed;
  /// Per instruction, then one past the last.
  std::vector<InstructionUse> instructions;
  /// The tensors each instruction writes, instruction after instruction.
  std::vector<uint32_t> written;
  /// The values that hold their data from before the first instruction
  /// to after the last: mutable buffers.
  llvm::BitVector persistent;
  /// The values that hold data before the first instruction: the method's
  /// inputs and its mutable buffers.
  llvm::BitVector given;

  bool isLive(uint32_t value) const {
    return lifetimes[value].first <= lifetimes[value].last;
  }
  ArrayRef<uint32_t> getWrites(uint32_t instruction) const {
    return ArrayRef<uint32_t>(written).slice(
        instructions[instruction].writesBegin,
        instructions[instruction + 1].writesBegin -
            instructions[instruction].writesBegin);
  }
};

/// Reads how `plan`'s instructions use its values. Indices out of range
/// (which the file layer reports) are skipped.
MethodUses computeMethodUses(const executorch_flatbuffer::ExecutionPlan &plan);

} // namespace emit::memory

#endif // EMIT_LIB_MEMORY_LIFETIMES_H
