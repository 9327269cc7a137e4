//===- ProfilePrint.cpp - emit-profile's reports as text and JSON ---------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ProfileFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>

using namespace emit;
using namespace emit::profile;

/// How many instructions and event names the text report lists.
static constexpr size_t kTopCount = 10;

static void printStatsText(StringRef what, const TimeStats &time,
                           raw_ostream &os) {
  if (!time.count)
    return;
  os << "  " << what << ": " << formatNs(time.p50);
  if (time.count > 1)
    os << " (p50 of " << time.count << "; min " << formatNs(time.min)
       << ", max " << formatNs(time.max) << ")";
  os << "\n";
}

static void printInstructionText(const InstructionProfile &entry,
                                 raw_ostream &os) {
  os << llvm::format("    %6s %10s %10s %6llu  ",
                     formatPercent(entry.share * 100).c_str(),
                     formatNs(entry.time.total).c_str(),
                     formatNs(entry.time.p50).c_str(),
                     (unsigned long long)entry.time.count)
     << entry.chain << ":" << entry.instruction << " "
     << getInstructionKindName(entry.info.kind) << " " << entry.info.name;
  if (entry.info.kind == InstructionKind::Delegate)
    os << " (" << entry.info.payloadBytes << "-byte payload, "
       << counted(entry.info.compileSpecs.size(), "compile spec") << ")";
  for (auto [index, operand] : llvm::enumerate(entry.info.operands))
    os << (index ? ", " : " (") << formatOperand(operand);
  if (!entry.info.operands.empty())
    os << ")";
  os << "\n";
}

static void printGroupsText(StringRef what, ArrayRef<GroupProfile> groups,
                            raw_ostream &os) {
  if (groups.empty())
    return;
  os << "  by " << what << ":\n";
  for (const GroupProfile &group : groups)
    os << llvm::format(
              "    %6s %10s %6llu  ", formatPercent(group.share * 100).c_str(),
              formatNs(group.totalNs).c_str(), (unsigned long long)group.calls)
       << group.name << " (" << counted(group.instructions, "instruction")
       << ")\n";
}

/// What debug events logged: per instruction, then the method's outputs.
static void printLoggedText(const MethodProfile &method, raw_ostream &os) {
  bool any = !method.outputs.empty();
  for (const InstructionProfile &entry : method.instructions)
    any |= !entry.outputs.empty();
  if (!any)
    return;
  os << "  logged values (the last run that logged them):\n";
  for (const InstructionProfile &entry : method.instructions)
    for (const LoggedValue &value : entry.outputs)
      os << "    " << entry.chain << ":" << entry.instruction << " "
         << entry.info.name << ": " << formatLogged(value) << "\n";
  for (const LoggedValue &value : method.outputs)
    os << "    output: " << formatLogged(value) << "\n";
}

/// `indices`, in order: all of them, or past four the first two, the
/// last and how many.
static std::string formatBlockIndices(ArrayRef<unsigned> indices) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (indices.size() <= 4) {
    llvm::interleaveComma(indices, os);
    return text;
  }
  os << indices[0] << ", " << indices[1] << ", ..., " << indices.back() << " ("
     << indices.size() << " blocks)";
  return text;
}

/// The blocks that went to `method`, a line per way they were assigned.
static void printBlocksText(const MethodProfile &method, raw_ostream &os) {
  std::vector<std::pair<const BlockMatch *, SmallVector<unsigned>>> ways;
  for (const BlockMatch &block : method.blocks) {
    auto same = llvm::find_if(ways, [&](auto &way) {
      return way.first->name == block.name && way.first->role == block.role &&
             way.first->how == block.how;
    });
    auto &indices =
        same != ways.end()
            ? same->second
            : ways.emplace_back(&block, SmallVector<unsigned>()).second;
    indices.push_back(block.block);
  }
  for (auto &[block, indices] : ways)
    os << "  block" << (indices.size() > 1 ? "s " : " ")
       << formatBlockIndices(indices) << " '" << block->name << "' ("
       << getBlockRoleName(block->role) << "): " << block->how << "\n";
}

/// What the report calls `method`: a method, methods alike, or methods
/// with no instructions.
static void printMethodTitle(const MethodProfile &method, raw_ostream &os) {
  if (method.candidates.empty()) {
    os << "method '" << method.name << "'";
    return;
  }
  auto quoted = [](StringRef name) { return ("'" + name + "'").str(); };
  if (method.noInstructions) {
    os << method.candidates.size() << " methods with no instructions ("
       << quoted(method.candidates[0]) << ", " << quoted(method.candidates[1]);
    if (method.candidates.size() > 2)
      os << " and " << method.candidates.size() - 2 << " more";
    os << "; the ETDump cannot tell them apart)";
    return;
  }
  os << "methods ";
  for (auto [index, name] : llvm::enumerate(method.candidates))
    os << (index == 0                             ? ""
           : index + 1 < method.candidates.size() ? ", "
                                                  : " or ")
       << quoted(name);
  os << " (alike: the ETDump cannot tell which ran)";
}

static void printMethodText(const MethodProfile &method, raw_ostream &os) {
  printMethodTitle(method, os);
  os << ": " << counted(method.runs, "run") << "\n";
  printBlocksText(method, os);
  printStatsText("load", method.load, os);
  printStatsText("init", method.init, os);
  printStatsText("run", method.run, os);
  if (method.instructions.empty())
    return;
  std::vector<const InstructionProfile *> top;
  for (const InstructionProfile &entry : method.instructions)
    top.push_back(&entry);
  std::stable_sort(top.begin(), top.end(), [](auto *a, auto *b) {
    return a->time.total > b->time.total;
  });
  os << "  top instructions (of " << method.instructions.size() << "):\n"
     << "     share      total        p50  calls  chain:instruction\n";
  for (const InstructionProfile *entry : ArrayRef(top).take_front(kTopCount))
    printInstructionText(*entry, os);
  printGroupsText("operator", method.byOperator, os);
  printGroupsText("backend", method.byBackend, os);
  printLoggedText(method, os);
}

/// The delegates' time over every method first: where most programs spend
/// theirs, and what a user looks for.
static void printDelegatesText(const ProfileReport &report, raw_ostream &os) {
  struct Backend {
    std::string name;
    uint64_t calls = 0, totalNs = 0;
    std::vector<std::string> methods;
  };
  std::vector<Backend> backends;
  for (const MethodProfile &method : report.methods)
    for (const GroupProfile &group : method.byBackend) {
      auto it = llvm::find_if(
          backends, [&](const Backend &b) { return b.name == group.name; });
      if (it == backends.end())
        it = backends.insert(backends.end(), {group.name});
      it->calls += group.calls;
      it->totalNs += group.totalNs;
      it->methods.push_back("'" + method.name + "'");
    }
  if (backends.empty())
    return;
  std::stable_sort(backends.begin(), backends.end(),
                   [](auto &a, auto &b) { return a.totalNs > b.totalNs; });
  os << "delegate calls:\n";
  for (const Backend &backend : backends)
    os << "  " << backend.name << ": " << formatNs(backend.totalNs) << " in "
       << counted(backend.calls, "call") << " (in "
       << llvm::join(backend.methods, ", ") << ")\n";
}

/// `change` as `1.05 us -> 300 ns (0.29x)`.
static std::string formatChange(uint64_t oldNs, uint64_t newNs) {
  std::string text = formatNs(oldNs) + " -> " + formatNs(newNs);
  if (!oldNs)
    return text + " (new)";
  if (!newNs)
    return text + " (gone)";
  return text + llvm::formatv(" ({0:F2}x)", double(newNs) / oldNs).str();
}

static void printChangesText(StringRef what, ArrayRef<TimeChange> changes,
                             raw_ostream &os) {
  if (changes.empty())
    return;
  os << "  largest changes by " << what << " (per run):\n";
  for (const TimeChange &change : changes.take_front(kTopCount)) {
    os << "    " << change.method;
    if (change.chain)
      os << " " << *change.chain << ":" << *change.instruction;
    os << " " << change.name << ": " << formatChange(change.oldNs, change.newNs)
       << "\n";
  }
}

static void printComparisonText(const ProfileComparison &comparison,
                                raw_ostream &os) {
  os << "compared with " << comparison.etdumpFile << " ("
     << comparison.programFile << "):\n";
  for (const MethodComparison &method : comparison.methods)
    os << "  method '" << method.name << "' ("
       << (method.byInstruction ? "instruction by instruction"
                                : "by operator: " + method.why)
       << "): run " << formatChange(method.oldRunNs, method.newRunNs) << "\n";
  printChangesText("instruction", comparison.instructions, os);
  printChangesText("operator and backend", comparison.operators, os);
  for (const std::string &name : comparison.onlyOld)
    os << "  method '" << name << "' ran in the baseline only\n";
  for (const std::string &name : comparison.onlyNew)
    os << "  method '" << name << "' ran in this run only\n";
}

void profile::printProfileText(const ProfileReport &report, raw_ostream &os) {
  os << report.etdumpFile << ": ETDump version " << report.version << ", "
     << counted(report.blocks, "block") << ", "
     << counted(report.events, "profile event");
  if (!report.programFile.empty())
    os << ", joined to " << report.programFile;
  os << "\n";
  for (const Finding &finding : report.findings.findings)
    printFinding(finding, os);
  printDelegatesText(report, os);
  for (const MethodProfile &method : report.methods)
    printMethodText(method, os);
  if (report.baseline)
    printComparisonText(*report.baseline, os);
  for (const UnmatchedBlock &block : report.unmatched)
    os << "unmatched: block " << block.block << " '" << block.name
       << "': " << block.reason << "\n";
  if (!report.programFile.empty())
    return;
  os << "events by name (of " << report.byName.size() << "):\n"
     << "         total        p50  count  name\n";
  for (const NamedEvents &events : report.byName)
    os << llvm::format("    %10s %10s %6llu  ",
                       formatNs(events.time.total).c_str(),
                       formatNs(events.time.p50).c_str(),
                       (unsigned long long)events.time.count)
       << events.name << "\n";
}

// The JSON is streamed, keys in a fixed order.

static void printStatsJSON(llvm::json::OStream &json, const TimeStats &time) {
  json.attribute("count", int64_t(time.count));
  json.attribute("total_ns", int64_t(time.total));
  json.attribute("min_ns", int64_t(time.min));
  json.attribute("p50_ns", int64_t(time.p50));
  json.attribute("p90_ns", int64_t(time.p90));
  json.attribute("max_ns", int64_t(time.max));
}

static void printNamedJSON(llvm::json::OStream &json, StringRef key,
                           ArrayRef<NamedEvents> events) {
  json.attributeArray(key, [&] {
    for (const NamedEvents &named : events)
      json.object([&] {
        json.attribute("name", named.name);
        printStatsJSON(json, named.time);
      });
  });
}

static void printOperandJSON(llvm::json::OStream &json,
                             const Operand &operand) {
  json.object([&] {
    json.attribute("value", int64_t(operand.value));
    json.attribute("kind", getValueKindName(operand.kind));
    if (operand.kind != ValueKind::Tensor)
      return;
    json.attribute("dtype", operand.dtype);
    json.attributeArray("shape", [&] {
      for (int64_t size : operand.shape)
        json.value(size);
    });
    json.attribute("bytes", int64_t(operand.bytes));
    if (operand.buffer) {
      json.attribute("buffer", int64_t(*operand.buffer));
      json.attribute("offset", int64_t(operand.offset));
    } else {
      json.attribute("buffer", nullptr);
    }
  });
}

/// `value` as JSON: a number, or "inf", "-inf" or "nan", which JSON has
/// no number for.
static llvm::json::Value getNumberJSON(double value) {
  if (std::isfinite(value))
    return value;
  return std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
}

static void printLoggedJSON(llvm::json::OStream &json, StringRef key,
                            ArrayRef<LoggedValue> values) {
  json.attributeArray(key, [&] {
    for (const LoggedValue &value : values)
      json.object([&] {
        json.attribute("kind", value.kind);
        if (value.scalar)
          json.attribute("value", getNumberJSON(*value.scalar));
        if (value.kind != "tensor")
          return;
        json.attribute("dtype", value.dtype);
        json.attributeArray("shape", [&] {
          for (int64_t size : value.shape)
            json.value(size);
        });
        if (!value.stats) {
          json.attribute("stats", nullptr);
          json.attribute("no_stats", value.noStats);
          return;
        }
        json.attributeObject("stats", [&] {
          json.attribute("min", getNumberJSON(value.stats->min));
          json.attribute("max", getNumberJSON(value.stats->max));
          json.attribute("mean", getNumberJSON(value.stats->mean));
          json.attribute("nan", int64_t(value.stats->nan));
          json.attribute("inf", int64_t(value.stats->inf));
        });
      });
  });
}

static void printInstructionJSON(llvm::json::OStream &json,
                                 const InstructionProfile &entry) {
  json.object([&] {
    json.attribute("chain", int64_t(entry.chain));
    json.attribute("instruction", int64_t(entry.instruction));
    json.attribute("kind", getInstructionKindName(entry.info.kind));
    json.attribute("name", entry.info.name);
    printStatsJSON(json, entry.time);
    json.attribute("share", entry.share);
    json.attributeArray("operands", [&] {
      for (const Operand &operand : entry.info.operands)
        printOperandJSON(json, operand);
    });
    if (!entry.outputs.empty())
      printLoggedJSON(json, "outputs", entry.outputs);
    if (entry.info.kind != InstructionKind::Delegate)
      return;
    json.attribute("backend", entry.info.name);
    json.attribute("payload_bytes", int64_t(entry.info.payloadBytes));
    json.attributeArray("compile_specs", [&] {
      for (const std::string &key : entry.info.compileSpecs)
        json.value(key);
    });
    printNamedJSON(json, "delegate_events", entry.delegateEvents);
  });
}

static void printGroupsJSON(llvm::json::OStream &json, StringRef key,
                            ArrayRef<GroupProfile> groups) {
  json.attributeArray(key, [&] {
    for (const GroupProfile &group : groups)
      json.object([&] {
        json.attribute("name", group.name);
        json.attribute("instructions", int64_t(group.instructions));
        json.attribute("calls", int64_t(group.calls));
        json.attribute("total_ns", int64_t(group.totalNs));
        json.attribute("share", group.share);
      });
  });
}

static void printMethodJSON(llvm::json::OStream &json,
                            const MethodProfile &method) {
  json.object([&] {
    json.attribute("name", method.name);
    json.attributeArray("candidates", [&] {
      for (const std::string &name : method.candidates)
        json.value(name);
    });
    json.attribute("no_instructions", method.noInstructions);
    json.attribute("index", int64_t(method.index));
    json.attribute("runs", int64_t(method.runs));
    json.attribute("load_ns", int64_t(method.load.p50));
    json.attribute("init_ns", int64_t(method.init.p50));
    json.attributeObject("run", [&] { printStatsJSON(json, method.run); });
    json.attributeArray("blocks", [&] {
      for (const BlockMatch &block : method.blocks)
        json.object([&] {
          json.attribute("block", int64_t(block.block));
          json.attribute("name", block.name);
          json.attribute("role", getBlockRoleName(block.role));
          json.attribute("how", block.how);
        });
    });
    json.attributeArray("instructions", [&] {
      for (const InstructionProfile &entry : method.instructions)
        printInstructionJSON(json, entry);
    });
    printGroupsJSON(json, "by_operator", method.byOperator);
    printGroupsJSON(json, "by_backend", method.byBackend);
    printLoggedJSON(json, "outputs", method.outputs);
  });
}

static void printChangesJSON(llvm::json::OStream &json, StringRef key,
                             ArrayRef<TimeChange> changes) {
  json.attributeArray(key, [&] {
    for (const TimeChange &change : changes)
      json.object([&] {
        json.attribute("method", change.method);
        if (change.chain) {
          json.attribute("chain", int64_t(*change.chain));
          json.attribute("instruction", int64_t(*change.instruction));
        }
        json.attribute("name", change.name);
        json.attribute("old_ns", int64_t(change.oldNs));
        json.attribute("new_ns", int64_t(change.newNs));
        if (change.oldNs)
          json.attribute("ratio", double(change.newNs) / change.oldNs);
        else
          json.attribute("ratio", nullptr);
      });
  });
}

static void printComparisonJSON(llvm::json::OStream &json,
                                const ProfileComparison &comparison) {
  json.attributeObject("baseline", [&] {
    json.attribute("etdump", comparison.etdumpFile);
    json.attribute("program", comparison.programFile);
    json.attributeArray("methods", [&] {
      for (const MethodComparison &method : comparison.methods)
        json.object([&] {
          json.attribute("name", method.name);
          json.attribute("matched_by",
                         method.byInstruction ? "instruction" : "operator");
          if (!method.byInstruction)
            json.attribute("why", method.why);
          json.attribute("old_run_ns", int64_t(method.oldRunNs));
          json.attribute("new_run_ns", int64_t(method.newRunNs));
        });
    });
    printChangesJSON(json, "instructions", comparison.instructions);
    printChangesJSON(json, "operators", comparison.operators);
    json.attributeArray("only_baseline", [&] {
      for (const std::string &name : comparison.onlyOld)
        json.value(name);
    });
    json.attributeArray("only_this_run", [&] {
      for (const std::string &name : comparison.onlyNew)
        json.value(name);
    });
  });
}

void profile::printProfileJSON(const ProfileReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("schema", "emit-profile-1");
    if (report.programFile.empty())
      json.attribute("program", nullptr);
    else
      json.attribute("program", report.programFile);
    json.attributeObject("etdump", [&] {
      json.attribute("file", report.etdumpFile);
      json.attribute("version", int64_t(report.version));
      json.attribute("blocks", int64_t(report.blocks));
      json.attribute("events", int64_t(report.events));
    });
    printNamedJSON(json, "events", report.byName);
    json.attributeArray("methods", [&] {
      for (const MethodProfile &method : report.methods)
        printMethodJSON(json, method);
    });
    json.attributeArray("unmatched", [&] {
      for (const UnmatchedBlock &block : report.unmatched)
        json.object([&] {
          json.attribute("block", int64_t(block.block));
          json.attribute("name", block.name);
          json.attribute("role", getBlockRoleName(block.role));
          json.attribute("reason", block.reason);
          json.attribute("fits", block.explained);
        });
    });
    json.attributeArray("findings", [&] {
      for (const Finding &finding : report.findings.findings)
        json.value(getFindingJSON(finding));
    });
    if (report.baseline)
      printComparisonJSON(json, *report.baseline);
    else
      json.attribute("baseline", nullptr);
  });
  os << "\n";
}

void ProfileReport::print(ReportFormat format, raw_ostream &os) const {
  switch (format) {
  case ReportFormat::JSON:
    return printProfileJSON(*this, os);
  case ReportFormat::HTML:
    return printProfileHTML(*this, os);
  case ReportFormat::ChromeTrace:
    return printChromeTrace(*this, os);
  default:
    return printProfileText(*this, os);
  }
}
