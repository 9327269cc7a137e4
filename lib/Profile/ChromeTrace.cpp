//===- ChromeTrace.cpp - The timeline as a Chrome trace -------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The Trace Event Format's JSON object form: a complete event ("ph": "X")
// per profile event, in microseconds from the ETDump's earliest event, one
// thread per lane (named by a metadata event), so that a method's
// executions hold their instructions' calls, and each call its kernel's and
// its delegate's own events. Streamed: a dump of a million events is never
// built in memory twice.
//
//===----------------------------------------------------------------------===//

#include "Events.h"
#include "emit/Profile/ProfileReport.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::profile;

static void printEvent(llvm::json::OStream &json, const Timeline &timeline,
                       const TimelineEvent &event) {
  StringRef own = timeline.names[event.event];
  uint64_t start = event.start - timeline.origin;
  uint64_t duration = event.end > event.start ? event.end - event.start : 0;
  json.object([&] {
    json.attribute("name", timeline.names[event.name]);
    // The trace's category: what kind of work it timed.
    json.attribute("cat",
                   getTimelineKindName(classifyTimelineEvent(event, own)));
    json.attribute("ph", "X");
    json.attribute("pid", 1);
    json.attribute("tid", int64_t(event.lane) + 1);
    json.attribute("ts", double(start) / 1000);
    json.attribute("dur", double(duration) / 1000);
    json.attributeObject("args", [&] {
      json.attribute("event", own);
      json.attribute("block", int64_t(event.block));
      if (event.chain >= 0) {
        json.attribute("chain", event.chain);
        json.attribute("instruction", event.instruction);
      }
    });
  });
}

void profile::printChromeTrace(const ProfileReport &report, raw_ostream &os) {
  const Timeline &timeline = report.timeline;
  llvm::BitVector used(timeline.lanes.size());
  for (const TimelineEvent &event : timeline.events)
    used.set(event.lane);
  llvm::json::OStream json(os);
  json.object([&] {
    json.attribute("displayTimeUnit", "ns");
    json.attributeObject("otherData", [&] {
      json.attribute("generator", "emit-profile");
      json.attribute("etdump", report.etdumpFile);
      if (report.programFile.empty())
        json.attribute("program", nullptr);
      else
        json.attribute("program", report.programFile);
    });
    json.attributeArray("traceEvents", [&] {
      for (unsigned lane : used.set_bits())
        json.object([&] {
          json.attribute("name", "thread_name");
          json.attribute("ph", "M");
          json.attribute("pid", 1);
          json.attribute("tid", int64_t(lane) + 1);
          json.attributeObject(
              "args", [&] { json.attribute("name", timeline.lanes[lane]); });
        });
      for (const TimelineEvent &event : timeline.events)
        printEvent(json, timeline, event);
    });
  });
  os << "\n";
}
