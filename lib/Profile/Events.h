//===- Events.h - What a profile event timed --------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The runtime names its events after what they time (FileFormat.h's
// etdp vocabulary): a load, a run, an instruction's call by kind, a
// kernel's own work. Read here once, for the join, the timeline, the page
// and the trace.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_PROFILE_EVENTS_H
#define EMIT_LIB_PROFILE_EVENTS_H

#include "emit/File/ProgramModel.h"
#include "emit/Support/LLVM.h"

#include <optional>

namespace emit::profile {
struct TimelineEvent;

/// What an event of a block timed, by its name.
enum class EventKind : uint8_t {
  /// Program::load_method.
  Load,
  /// Method::init.
  Init,
  /// Method::execute.
  Execute,
  /// The runtime's event around an instruction (OPERATOR_CALL, ...).
  Call,
  /// A kernel's own (native_call_<kernel>).
  Kernel,
  /// A delegate's own (it carries a delegate debug id).
  Delegate,
  /// Anything else.
  Other,
};

/// What an event named `name` timed, and of which instruction kind it
/// must be: a kernel event (whatever logged it) of a kernel call, the
/// name after the prefix being `kernel`; a delegate's own of a delegate
/// call; a call event of its kind.
struct EventClass {
  EventKind kind = EventKind::Other;
  std::optional<InstructionKind> instruction;
  StringRef kernel;
};

/// `name`'s class; `delegate`: a delegate logged it.
EventClass classifyEvent(StringRef name, bool delegate);

/// How the timeline draws an event: by who logged it and what it timed.
enum class TimelineKind : uint8_t { Method, Instruction, Kernel, Delegate };

/// `event`'s kind on the timeline; `name` is its own name.
TimelineKind classifyTimelineEvent(const TimelineEvent &event, StringRef name);
/// `method`, `instruction`, `kernel` or `delegate`.
StringRef getTimelineKindName(TimelineKind kind);

} // namespace emit::profile

#endif // EMIT_LIB_PROFILE_EVENTS_H
