//===- Timeline.cpp - Every profile event, in lanes -----------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Timeline.h"

#include "Events.h"

#include <algorithm>

using namespace emit;
using namespace emit::profile;

uint32_t TimelineBuilder::addLane(StringRef name) {
  timeline.lanes.push_back(name.str());
  return timeline.lanes.size() - 1;
}

uint32_t TimelineBuilder::intern(StringRef name) {
  auto [it, added] = names.try_emplace(name, timeline.names.size());
  if (added)
    timeline.names.push_back(name.str());
  return it->second;
}

void TimelineBuilder::addBlock(const Block &block, uint32_t lane,
                               const MethodModel *method) {
  for (const ProfileEvent &event : block.events) {
    uint32_t own = intern(event.getReportName());
    uint32_t shown = own;
    // OPERATOR_CALL and DELEGATE_CALL say less than what they call.
    bool call = !event.delegate &&
                classifyEvent(event.name, false).kind != EventKind::Kernel;
    if (method && call && event.isOfInstruction())
      if (std::optional<uint32_t> slot =
              method->getSlot(event.chain, event.instruction)) {
        StringRef callee = method->getCallee(method->getInstructions()[*slot]);
        if (!callee.empty())
          shown = intern(callee);
      }
    timeline.events.push_back({event.start, event.end, shown, own, lane,
                               block.index, event.chain, event.instruction,
                               event.delegate});
  }
}

void TimelineBuilder::finish() {
  std::vector<TimelineEvent> &events = timeline.events;
  std::stable_sort(events.begin(), events.end(), [](auto &a, auto &b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  timeline.origin = events.empty() ? 0 : events.front().start;
}
