//===- ProfilePage.cpp - emit-profile's report as one HTML page -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a user looks for first (per method: runs, load and run time), then
// per method the timeline of its first run (time left to right; the
// execution, its instructions' calls, and their kernels' and delegates' own
// events on three rows; each box's name and time on hover) and the tables:
// the top instructions with their operands, the totals by operator and by
// backend. Then the blocks no method explains. Self-contained: no script,
// no fetch.
//
//===----------------------------------------------------------------------===//

#include "Events.h"
#include "ProfileFormat.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/Page.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace emit;
using namespace emit::profile;

/// Boxes drawn per run (the longest events), and rows of instructions
/// listed per method.
static constexpr size_t kTopCount = 20;

static const char kProfileStyle[] = R"css(
svg.run { width: 100%; height: 90px; border: 1px solid #ccc;
          border-radius: 4px; background: #fafafa; }
svg.run rect { stroke: #333; stroke-width: 0.5; }
svg.run rect.method { fill: #bab0ac; }
svg.run rect.instruction { fill: #4e79a7; }
svg.run rect.kernel { fill: #59a14f; }
svg.run rect.delegate { fill: #f28e2b; }
)css";
static const char kTableStyle[] = R"css(.finding.warning { color: #8a5a00; }
td.operands { font-size: 12px; color: #444; }
)css";

static void printMethodsTable(const ProfileReport &report, raw_ostream &os) {
  printSectionStart(os, "methods", "Methods");
  printTableStart(os, {{"method"},
                       numberColumn("runs"),
                       numberColumn("run (p50)"),
                       numberColumn("min"),
                       numberColumn("max"),
                       numberColumn("load"),
                       numberColumn("init"),
                       {"most time"}});
  for (const MethodProfile &method : report.methods) {
    os << "<tr class=\"method\" data-name=\"" << escapeHTML(method.name)
       << "\"><td>" << escapeHTML(method.name) << "</td><td class=\"num\">"
       << method.runs << "</td><td class=\"num\">" << formatNs(method.run.p50)
       << "</td><td class=\"num\">" << formatNs(method.run.min)
       << "</td><td class=\"num\">" << formatNs(method.run.max)
       << "</td><td class=\"num\">" << formatNs(method.load.p50)
       << "</td><td class=\"num\">" << formatNs(method.init.p50) << "</td><td>";
    const std::vector<GroupProfile> &groups =
        !method.byOperator.empty() && (method.byBackend.empty() ||
                                       method.byOperator.front().totalNs >=
                                           method.byBackend.front().totalNs)
            ? method.byOperator
            : method.byBackend;
    if (!groups.empty())
      os << escapeHTML(groups.front().name) << " ("
         << formatPercent(groups.front().share * 100) << ")";
    os << "</td></tr>\n";
  }
  printTableEnd(os, /*section=*/true);
}

/// The row a timeline event is drawn on, and its class.
static std::pair<unsigned, StringRef> getRow(const Timeline &timeline,
                                             const TimelineEvent &event) {
  TimelineKind kind = classifyTimelineEvent(event, timeline.names[event.event]);
  unsigned row = kind == TimelineKind::Method        ? 0
                 : kind == TimelineKind::Instruction ? 1
                                                     : 2;
  return {row, getTimelineKindName(kind)};
}

/// The events of block `block` on the timeline, drawn in time.
static void printRun(const Timeline &timeline, unsigned block,
                     raw_ostream &os) {
  std::vector<const TimelineEvent *> events;
  for (const TimelineEvent &event : timeline.events)
    if (event.block == block)
      events.push_back(&event);
  if (events.empty())
    return;
  uint64_t start = UINT64_MAX, end = 0;
  for (const TimelineEvent *event : events) {
    start = std::min(start, event->start);
    end = std::max(end, event->end);
  }
  size_t all = events.size();
  if (all > kMaxPictureBoxes) {
    std::stable_sort(events.begin(), events.end(), [](auto *a, auto *b) {
      return a->end - a->start > b->end - b->start;
    });
    events.resize(kMaxPictureBoxes);
  }
  uint64_t span = std::max<uint64_t>(end - start, 1);
  os << "<h3>Block " << block << ", " << formatNs(end - start) << "</h3>\n"
     << "<svg class=\"run\" data-block=\"" << block << "\" viewBox=\"0 0 "
     << span << " 3\" preserveAspectRatio=\"none\">\n";
  for (const TimelineEvent *event : events) {
    auto [row, kind] = getRow(timeline, *event);
    uint64_t duration =
        event->end > event->start ? event->end - event->start : 0;
    os << "<rect class=\"" << kind << "\" x=\"" << event->start - start
       << "\" y=\"" << row << "\" width=\"" << std::max<uint64_t>(duration, 1)
       << "\" height=\"0.9\" vector-effect=\"non-scaling-stroke\"><title>"
       << escapeHTML(timeline.names[event->name]) << ": " << formatNs(duration);
    if (event->chain >= 0)
      os << " (instruction " << event->chain << ":" << event->instruction
         << ")";
    os << "</title></rect>\n";
  }
  os << "</svg>\n<div class=\"axis\"><span>0</span><span>time &rarr; "
        "(execution; calls; kernels and delegates' own events)";
  if (all > kMaxPictureBoxes)
    os << "; the " << kMaxPictureBoxes << " longest of " << all << " events";
  os << "</span><span>" << formatNs(end - start) << "</span></div>\n";
}

static void printInstructions(const MethodProfile &method, raw_ostream &os) {
  std::vector<const InstructionProfile *> top;
  for (const InstructionProfile &entry : method.instructions)
    top.push_back(&entry);
  std::stable_sort(top.begin(), top.end(), [](auto *a, auto *b) {
    return a->time.total > b->time.total;
  });
  os << "<h3>Top instructions (of " << method.instructions.size() << ")</h3>\n";
  printTableStart(os,
                  {numberColumn("share"),
                   numberColumn("total"),
                   numberColumn("p50"),
                   numberColumn("p90"),
                   numberColumn("calls"),
                   {"instruction"},
                   {"kind"},
                   {"name"},
                   {"operands"},
                   {"logged (last run)"}},
                  "class=\"instructions\"");
  for (const InstructionProfile *entry : ArrayRef(top).take_front(kTopCount)) {
    os << "<tr><td class=\"num\">" << formatPercent(entry->share * 100)
       << "</td><td class=\"num\">" << formatNs(entry->time.total)
       << "</td><td class=\"num\">" << formatNs(entry->time.p50)
       << "</td><td class=\"num\">" << formatNs(entry->time.p90)
       << "</td><td class=\"num\">" << entry->time.count << "</td><td>"
       << entry->chain << ":" << entry->instruction << "</td><td>"
       << getInstructionKindName(entry->info.kind) << "</td><td>"
       << escapeHTML(entry->info.name);
    if (entry->info.kind == InstructionKind::Delegate)
      os << " (" << humanBytes(entry->info.payloadBytes) << " payload)";
    os << "</td><td class=\"operands\">";
    for (auto [index, operand] : llvm::enumerate(entry->info.operands))
      os << (index ? ", " : "") << escapeHTML(formatOperand(operand));
    os << "</td><td class=\"operands\">";
    for (auto [index, value] : llvm::enumerate(entry->outputs))
      os << (index ? "; " : "") << escapeHTML(formatLogged(value));
    os << "</td></tr>\n";
  }
  printTableEnd(os);
}

static void printGroups(StringRef title, ArrayRef<GroupProfile> groups,
                        raw_ostream &os) {
  if (groups.empty())
    return;
  os << "<h3>By " << title << "</h3>\n";
  printTableStart(os,
                  {numberColumn("share"),
                   numberColumn("total"),
                   numberColumn("calls"),
                   numberColumn("instructions"),
                   {title}},
                  ("class=\"by-" + title + "\"").str());
  for (const GroupProfile &group : groups)
    os << "<tr><td class=\"num\">" << formatPercent(group.share * 100)
       << "</td><td class=\"num\">" << formatNs(group.totalNs)
       << "</td><td class=\"num\">" << group.calls << "</td><td class=\"num\">"
       << group.instructions << "</td><td>" << escapeHTML(group.name)
       << "</td></tr>\n";
  printTableEnd(os);
}

static void printMethod(const ProfileReport &report,
                        const MethodProfile &method, raw_ostream &os) {
  os << "<section class=\"method-detail\" data-name=\""
     << escapeHTML(method.name) << "\"><h2>" << escapeHTML(method.name)
     << "</h2>\n<p class=\"muted\">" << method.runs
     << (method.runs == 1 ? " run" : " runs") << ", blocks";
  for (const BlockMatch &block : method.blocks)
    os << " " << block.block << " (" << getBlockRoleName(block.role) << ")";
  os << "</p>\n";
  auto run = llvm::find_if(method.blocks, [](const BlockMatch &block) {
    return block.role == BlockRole::Execute;
  });
  if (run != method.blocks.end())
    printRun(report.timeline, run->block, os);
  if (!method.instructions.empty())
    printInstructions(method, os);
  printGroups("operator", method.byOperator, os);
  printGroups("backend", method.byBackend, os);
  os << "</section>\n";
}

static void printUnmatched(const ProfileReport &report, raw_ostream &os) {
  if (report.unmatched.empty())
    return;
  printSectionStart(os, "unmatched", "Blocks no method explains");
  printTableStart(os, {numberColumn("block"), {"name"}, {"role"}, {"why"}});
  for (const UnmatchedBlock &block : report.unmatched)
    os << "<tr" << (block.explained ? "" : " class=\"misfit\"")
       << "><td class=\"num\">" << block.block << "</td><td>"
       << escapeHTML(block.name) << "</td><td>" << getBlockRoleName(block.role)
       << "</td><td>" << escapeHTML(block.reason) << "</td></tr>\n";
  printTableEnd(os, /*section=*/true);
}

static void printEventsByName(const ProfileReport &report, raw_ostream &os) {
  printSectionStart(os, "events", "Events by name");
  printTableStart(os, {numberColumn("total"),
                       numberColumn("p50"),
                       numberColumn("count"),
                       {"name"}});
  for (const NamedEvents &events : report.byName)
    os << "<tr><td class=\"num\">" << formatNs(events.time.total)
       << "</td><td class=\"num\">" << formatNs(events.time.p50)
       << "</td><td class=\"num\">" << events.time.count << "</td><td>"
       << escapeHTML(events.name) << "</td></tr>\n";
  printTableEnd(os);
  // The first execution, as the runtime recorded it.
  auto run = llvm::find_if(report.timeline.events, [&](auto &event) {
    return report.timeline.names[event.event] == etdp::kExecuteEvent;
  });
  if (run != report.timeline.events.end())
    printRun(report.timeline, run->block, os);
  os << "</section>\n";
}

void profile::printProfileHTML(const ProfileReport &report, raw_ostream &os) {
  printPageStart(os, "emit profile of " + escapeHTML(report.etdumpFile),
                 {kProfileStyle, kAxisStyle, kTableStyle});
  os << "<h1>" << escapeHTML(report.etdumpFile) << "</h1>\n<p class=\"lead\">";
  if (report.programFile.empty())
    os << "A run's events, with no program to join them to.";
  else
    os << "A run's time per method and instruction, joined to "
       << escapeHTML(report.programFile) << ".";
  os << "</p>\n<p class=\"muted\">ETDump version " << report.version << ", "
     << report.blocks << " blocks, " << withSeparators(report.events)
     << " profile events.</p>\n";
  for (const Finding &finding : report.findings.findings)
    printFindingHTML(finding, /*labelled=*/false, os);
  if (report.programFile.empty()) {
    printEventsByName(report, os);
  } else {
    printMethodsTable(report, os);
    for (const MethodProfile &method : report.methods)
      printMethod(report, method, os);
    printUnmatched(report, os);
  }
  printPageEnd(os);
}
