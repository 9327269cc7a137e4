//===- DataFlow.h - What instructions read and write, and when --*- C++ -*-===//
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
// ExecuTorch knowledge every data-flow view needs (memory plans, graphs),
// read off a method's model (ProgramModel.h).
//
// What an instruction writes is read off the emitter's layout of a call:
// a kernel call's last argument is what it returns (its out argument, or a
// list of them). A delegate call writes what its payload says its backend
// writes (CallArguments, where a decoder reads the payload); else its
// outputs follow its inputs, so they are the arguments at its end that
// nothing named before it and that are no view of a tensor holding data.
// It reads the rest of its arguments; a move reads its source and writes
// its destination; a jump reads its condition. What a kernel's result may
// share with what it reads is read off its operator's name.
//
// A view the emitter elided (a static view of a planned tensor: a value on
// its base's bytes that no instruction writes) reads the tensor that last
// held data on those bytes: one rule, which the memory checks and the
// graph ask.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_DATAFLOW_H
#define EMIT_FILE_DATAFLOW_H

#include "emit/Delegate/CallArguments.h"
#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace emit {
class MethodModel;

/// Instructions `first` to `last` (inclusive), numbered across a method's
/// chains in order.
struct Lifetime {
  uint32_t first = UINT32_MAX;
  uint32_t last = 0;
};

/// What a kernel call's result may share with what it reads, as ExecuTorch
/// plans it (exir/memory_planning.py's verify_storage_reuse allows storage
/// and lifetime to overlap only for an in-place pair).
enum class KernelSharing : uint8_t {
  /// An out-variant (or any other) kernel: its result shares no byte with
  /// what it reads; one that does computes wrong results.
  None,
  /// `executorch_prim::et_view`: its result is a view of its first tensor
  /// argument's bytes.
  View,
  /// An in-place operator (by ATen's convention its name ends in `_`, as
  /// `aten::index_put_` and `aten::copy_` do): its result is its mutated
  /// argument, `self`, the first argument (exir/passes/reinplace.py).
  InPlace,
  /// An element-wise `.out` kernel (`aten::add.out`, `aten::relu.out`, ...):
  /// written exactly over an input that dies there, each element is read
  /// before it is written. ExecuTorch plans that only for an operator a
  /// user enrolled in reinplace_pass (`_share_alloc_with_arg_idx`): a
  /// warning, never silent.
  Elementwise,
};

/// How the kernel `name` (without its overload) shares its result's bytes.
KernelSharing getKernelSharing(StringRef name);

/// What one instruction does with its values.
struct InstructionUse {
  /// Where its writes and reads start in `MethodDataFlow::written` and
  /// `MethodDataFlow::read`.
  uint32_t writesBegin = 0;
  uint32_t readsBegin = 0;
  /// The value of its first tensor argument, for a kernel call that has
  /// one: what `et_view` returns a view of.
  int32_t firstTensorArgument = -1;
  KernelSharing sharing = KernelSharing::None;
};

/// How a method's instructions use its values.
struct MethodDataFlow {
  uint32_t instructionCount = 0;
  /// Per value, its lifetime; `first > last` when nothing names it.
  std::vector<Lifetime> lifetimes;
  /// Per value, the last instruction that names it, loops aside;
  /// kAfterLast for the method's outputs.
  std::vector<uint32_t> lastNamed;
  static constexpr uint32_t kAfterLast = UINT32_MAX;
  /// Per instruction, then one past the last.
  std::vector<InstructionUse> instructions;
  /// The tensors each instruction writes, instruction after instruction.
  std::vector<uint32_t> written;
  /// The values each instruction reads (a list as itself), instruction
  /// after instruction.
  std::vector<uint32_t> read;
  /// The values that hold their data from before the first instruction
  /// to after the last: mutable buffers.
  llvm::BitVector persistent;
  /// The values that hold data before the first instruction: the method's
  /// inputs and its mutable buffers.
  llvm::BitVector given;
  /// Per value, the tensor whose bytes it reads though no instruction
  /// writes it: a view the emitter elided, of the tensor that last held
  /// data on its bytes (same buffer, offset, size and scalar type) when it
  /// is first named; kNoView for any other value.
  std::vector<int32_t> viewOf;
  static constexpr int32_t kNoView = -1;

  bool isLive(uint32_t value) const {
    return lifetimes[value].first <= lifetimes[value].last;
  }
  ArrayRef<uint32_t> getWrites(uint32_t instruction) const {
    return ArrayRef<uint32_t>(written).slice(
        instructions[instruction].writesBegin,
        instructions[instruction + 1].writesBegin -
            instructions[instruction].writesBegin);
  }
  ArrayRef<uint32_t> getReads(uint32_t instruction) const {
    return ArrayRef<uint32_t>(read).slice(
        instructions[instruction].readsBegin,
        instructions[instruction + 1].readsBegin -
            instructions[instruction].readsBegin);
  }
};

/// Reads how `method`'s instructions use its values; `delegateArguments`,
/// per entry of the method's delegate table, what its payload says of a
/// call's arguments (null, or past the list: the emitter's layout decides).
MethodDataFlow computeDataFlow(
    const MethodModel &method,
    ArrayRef<const delegate::CallArguments *> delegateArguments = {});

} // namespace emit

#endif // EMIT_FILE_DATAFLOW_H
