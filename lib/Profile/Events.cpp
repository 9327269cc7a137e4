//===- Events.cpp - What a profile event timed ----------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Events.h"

#include "emit/Profile/ProfileReport.h"
#include "emit/Support/FileFormat.h"

#include "llvm/ADT/StringSwitch.h"

using namespace emit;
using namespace emit::profile;

EventClass profile::classifyEvent(StringRef name, bool delegate) {
  EventClass event;
  if (name.consume_front(etdp::kKernelEventPrefix))
    return {EventKind::Kernel, InstructionKind::Kernel, name};
  if (delegate)
    return {EventKind::Delegate, InstructionKind::Delegate, ""};
  event.instruction =
      llvm::StringSwitch<std::optional<InstructionKind>>(name)
          .Case(etdp::kOperatorCallEvent, InstructionKind::Kernel)
          .Case(etdp::kDelegateCallEvent, InstructionKind::Delegate)
          .Case(etdp::kMoveCallEvent, InstructionKind::Move)
          .Case(etdp::kJumpFalseCallEvent, InstructionKind::JumpFalse)
          .Case(etdp::kFreeCallEvent, InstructionKind::Free)
          .Default(std::nullopt);
  if (event.instruction)
    event.kind = EventKind::Call;
  else
    event.kind = llvm::StringSwitch<EventKind>(name)
                     .Case(etdp::kLoadMethodEvent, EventKind::Load)
                     .Case(etdp::kInitEvent, EventKind::Init)
                     .Case(etdp::kExecuteEvent, EventKind::Execute)
                     .Default(EventKind::Other);
  return event;
}

TimelineKind profile::classifyTimelineEvent(const TimelineEvent &event,
                                            StringRef name) {
  if (event.delegate)
    return TimelineKind::Delegate;
  if (event.chain < 0)
    return TimelineKind::Method;
  if (name.starts_with(etdp::kKernelEventPrefix))
    return TimelineKind::Kernel;
  return TimelineKind::Instruction;
}

StringRef profile::getTimelineKindName(TimelineKind kind) {
  switch (kind) {
  case TimelineKind::Method:
    return "method";
  case TimelineKind::Instruction:
    return "instruction";
  case TimelineKind::Kernel:
    return "kernel";
  case TimelineKind::Delegate:
    return "delegate";
  }
  llvm_unreachable("unknown timeline kind");
}
