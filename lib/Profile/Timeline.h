//===- Timeline.h - Every profile event, in lanes ---------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_PROFILE_TIMELINE_H
#define EMIT_LIB_PROFILE_TIMELINE_H

#include "Blocks.h"

#include "llvm/ADT/StringMap.h"

namespace emit::profile {

/// Fills a Timeline block by block, each name kept once.
class TimelineBuilder {
public:
  explicit TimelineBuilder(Timeline &timeline) : timeline(timeline) {}

  uint32_t addLane(StringRef name);
  /// Adds the events of `block` to `lane`; a joined block's instruction
  /// events are named by what the instruction calls (`method`).
  void addBlock(const Block &block, uint32_t lane, const MethodModel *method);
  /// Orders the events by start, an outer event before those it holds.
  void finish();

private:
  uint32_t intern(StringRef name);

  Timeline &timeline;
  llvm::StringMap<uint32_t> names;
};

} // namespace emit::profile

#endif // EMIT_LIB_PROFILE_TIMELINE_H
