//===- Instructions.h - What a program says of an instruction ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A profile event against the instruction it names, in a method's model
// (emit/File/ProgramModel.h): whether the instruction explains the event,
// and what the report says of the instruction.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_PROFILE_INSTRUCTIONS_H
#define EMIT_LIB_PROFILE_INSTRUCTIONS_H

#include "emit/File/ProgramModel.h"
#include "emit/Profile/ProfileReport.h"

#include <optional>

namespace emit::profile {

/// Why an event named `name` cannot be instruction `instruction` of chain
/// `chain` of `method`; none when it can. `delegateEvent`: a delegate
/// logged it.
std::optional<std::string> whyNotInstruction(const MethodModel &method,
                                             StringRef name, bool delegateEvent,
                                             int64_t chain,
                                             int64_t instruction);

/// The instruction, its operator or backend and its operands.
InstructionInfo describeInstruction(const MethodModel &method, uint32_t chain,
                                    uint32_t instruction);

} // namespace emit::profile

#endif // EMIT_LIB_PROFILE_INSTRUCTIONS_H
