//===- Instructions.h - What a program says of an instruction ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_PROFILE_INSTRUCTIONS_H
#define EMIT_LIB_PROFILE_INSTRUCTIONS_H

#include "emit/Profile/ProfileReport.h"

#include <optional>

namespace executorch_flatbuffer {
struct ExecutionPlan;
struct Program;
} // namespace executorch_flatbuffer

namespace emit::profile {

/// An instruction's kind, as the runtime's event names tell it.
enum class InstructionKind { Kernel, Delegate, Move, JumpFalse, Free, Other };

/// A method's instructions, as a block's events are checked against them:
/// each instruction's kind and kernel name, read once.
class MethodInstructions {
public:
  explicit MethodInstructions(const executorch_flatbuffer::ExecutionPlan &plan);

  StringRef getName() const { return name; }
  uint32_t getChainCount() const { return chainStarts.size() - 1; }
  uint32_t getInstructionCount(uint32_t chain) const {
    return chainStarts[chain + 1] - chainStarts[chain];
  }
  uint64_t getTotalInstructionCount() const { return kinds.size(); }
  /// The instruction's index across the method's chains, if it is one.
  std::optional<uint64_t> getSlot(int64_t chain, int64_t instruction) const;

  /// What instruction `slot` calls: its operator (`aten::add.out`) or its
  /// delegate's backend; empty for other instructions.
  StringRef getCallee(uint64_t slot) const { return callees[slot]; }

  /// Why an event named `name` cannot be instruction `instruction` of
  /// chain `chain`; none when it can. `delegateEvent`: a delegate logged
  /// it.
  std::optional<std::string> whyNot(StringRef name, bool delegateEvent,
                                    int64_t chain, int64_t instruction) const;

  /// The instruction, its operator or backend and its operands.
  InstructionInfo describe(const executorch_flatbuffer::Program &program,
                           uint32_t chain, uint32_t instruction) const;

private:
  const executorch_flatbuffer::ExecutionPlan &plan;
  std::string name;
  /// Where each chain's instructions start among the slots, and the end.
  std::vector<uint64_t> chainStarts;
  std::vector<InstructionKind> kinds;
  /// The name a kernel call's `native_call_` event carries: the operator's
  /// name after its namespace, `.overload` where it has one.
  std::vector<std::string> kernelNames;
  std::vector<std::string> callees;
};

} // namespace emit::profile

#endif // EMIT_LIB_PROFILE_INSTRUCTIONS_H
