//===- ProfileReport.cpp - A run's profile, joined to its program -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An instruction's time is its call event's (OPERATOR_CALL, DELEGATE_CALL,
// ...), which holds the kernel's own native_call_ event; where a dump has
// only the kernel's, that one. A delegate's own events are listed under its
// call.
//
//===----------------------------------------------------------------------===//

#include "Blocks.h"
#include "Events.h"
#include "LoggedValues.h"
#include "Timeline.h"

#include "emit/File/BundleFile.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/ETDumpFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/etdump_generated.h"
#include "emit/Support/PayloadFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>

using namespace emit;
using namespace emit::profile;

TimeStats profile::summarizeDurations(MutableArrayRef<uint64_t> durations) {
  TimeStats stats;
  if (durations.empty())
    return stats;
  stats.count = durations.size();
  for (uint64_t duration : durations)
    stats.total += duration;
  // The nearest-rank percentile: the smallest value at least p% of the
  // durations do not exceed.
  auto rank = [&](unsigned percent) {
    size_t index = (durations.size() * percent + 99) / 100;
    auto nth = durations.begin() + (index ? index - 1 : 0);
    std::nth_element(durations.begin(), nth, durations.end());
    return *nth;
  };
  stats.p50 = rank(50);
  stats.p90 = rank(90);
  auto [min, max] = std::minmax_element(durations.begin(), durations.end());
  stats.min = *min;
  stats.max = *max;
  return stats;
}

namespace {
/// Durations gathered by name, in the order names were first seen.
class DurationsByName {
public:
  std::vector<uint64_t> &operator[](StringRef name) {
    auto [it, added] = indices.try_emplace(name, entries.size());
    if (added)
      entries.push_back({name.str(), {}});
    return entries[it->second].second;
  }
  bool empty() const { return entries.empty(); }
  auto begin() { return entries.begin(); }
  auto end() { return entries.end(); }

private:
  llvm::StringMap<unsigned> indices;
  std::vector<std::pair<std::string, std::vector<uint64_t>>> entries;
};
} // namespace

/// The durations of `byName`, in order of total time.
static std::vector<NamedEvents> summarizeByName(DurationsByName &byName) {
  std::vector<NamedEvents> summary;
  for (auto &[name, durations] : byName)
    summary.push_back(
        {name, summarizeDurations(durations), uint32_t(summary.size())});
  std::stable_sort(summary.begin(), summary.end(), [](auto &a, auto &b) {
    return a.time.total > b.time.total;
  });
  return summary;
}

static void startReport(const ETDumpFile &etdump, ProfileReport &report,
                        ArrayRef<Block> blocks) {
  report.etdumpFile = etdump.getName().str();
  report.version = etdump.getETDump()->version();
  report.blocks = blocks.size();
  report.findings = etdump.getFindings();
  DurationsByName byName;
  for (const Block &block : blocks)
    for (const ProfileEvent &event : block.events) {
      byName[event.getReportName()].push_back(event.getDuration());
      ++report.events;
    }
  report.byName = summarizeByName(byName);
}

ProfileReport profile::analyzeProfile(const ETDumpFile &etdump,
                                      const ProfileOptions &options) {
  ProfileReport report;
  std::vector<Block> blocks = readBlocks(etdump);
  startReport(etdump, report, blocks);
  if (options.timeline) {
    TimelineBuilder timeline(report.timeline);
    uint32_t lane = timeline.addLane("ETDump");
    for (const Block &block : blocks)
      timeline.addBlock(block, lane, nullptr);
    timeline.finish();
  }
  return report;
}

namespace {
/// The values debug events logged in one block.
struct LoggedInBlock {
  unsigned block = UINT_MAX;
  std::vector<const etdump::Value *> values;
};

/// What one method's blocks add up to, before it is summarized.
struct MethodTimes {
  std::vector<uint64_t> loads, inits, runs;
  /// Per instruction slot: its call events' durations, its kernel's, and
  /// a delegate's own events.
  std::vector<std::vector<uint64_t>> calls, kernels;
  std::vector<DurationsByName> delegateEvents;
  std::vector<BlockMatch> blocks;
  /// Per instruction slot, and for the method's outputs (chain -1): the
  /// values debug events logged in the last block that logged any.
  std::vector<LoggedInBlock> logged;
  LoggedInBlock outputs;
};
} // namespace

/// Adds `value`, logged in block `block`, to `logged`, which then holds
/// that block's values only.
static void addLogged(LoggedInBlock &logged, unsigned block,
                      const etdump::Value *value) {
  if (logged.block != block) {
    logged.block = block;
    logged.values.clear();
  }
  logged.values.push_back(value);
}

static void addBlock(const Block &block, const MethodModel &method,
                     MethodTimes &times) {
  if (times.calls.empty()) {
    uint64_t slots = method.getInstructions().size();
    times.calls.resize(slots);
    times.kernels.resize(slots);
    times.delegateEvents.resize(slots);
    times.logged.resize(slots);
  }
  for (const DebugEvent &event : block.debugEvents) {
    if (event.chain < 0)
      addLogged(times.outputs, block.index, event.value);
    else if (auto slot = method.getSlot(event.chain, event.instruction))
      addLogged(times.logged[*slot], block.index, event.value);
  }
  for (const ProfileEvent &event : block.events) {
    uint64_t duration = event.getDuration();
    EventKind kind = classifyEvent(event.name, event.delegate).kind;
    if (!event.isOfInstruction()) {
      if (kind == EventKind::Load)
        times.loads.push_back(duration);
      else if (kind == EventKind::Init)
        times.inits.push_back(duration);
      else if (kind == EventKind::Execute)
        times.runs.push_back(duration);
      continue;
    }
    uint32_t slot = *method.getSlot(event.chain, event.instruction);
    if (event.delegate)
      times.delegateEvents[slot][event.getReportName()].push_back(duration);
    else if (kind == EventKind::Kernel)
      times.kernels[slot].push_back(duration);
    else
      times.calls[slot].push_back(duration);
  }
}

/// Adds `profile`'s time to its group in `groups`.
static void addToGroup(std::vector<GroupProfile> &groups,
                       llvm::StringMap<unsigned> &indices,
                       const InstructionProfile &profile) {
  auto [it, added] = indices.try_emplace(profile.info.name, groups.size());
  if (added)
    groups.push_back({profile.info.name});
  GroupProfile &group = groups[it->second];
  ++group.instructions;
  group.calls += profile.time.count;
  group.totalNs += profile.time.total;
  group.share += profile.share;
}

static void sortByTime(std::vector<GroupProfile> &groups) {
  std::stable_sort(groups.begin(), groups.end(),
                   [](auto &a, auto &b) { return a.totalNs > b.totalNs; });
}

/// `profile`'s instructions by operator and by backend, most time first.
static void groupInstructions(MethodProfile &profile) {
  profile.byOperator.clear();
  profile.byBackend.clear();
  llvm::StringMap<unsigned> operators, backends;
  for (const InstructionProfile &entry : profile.instructions) {
    if (entry.info.kind == InstructionKind::Kernel)
      addToGroup(profile.byOperator, operators, entry);
    else if (entry.info.kind == InstructionKind::Delegate)
      addToGroup(profile.byBackend, backends, entry);
  }
  sortByTime(profile.byOperator);
  sortByTime(profile.byBackend);
}

static std::vector<LoggedValue> describeLogged(const LoggedInBlock &logged,
                                               StringRef debugBuffer) {
  std::vector<LoggedValue> values;
  for (const etdump::Value *value : logged.values)
    describeLoggedValue(*value, debugBuffer, values);
  return values;
}

static MethodProfile summarizeMethod(const MethodModel &method,
                                     MethodTimes &times,
                                     StringRef debugBuffer) {
  MethodProfile profile;
  profile.name = method.getName().str();
  profile.noInstructions = method.getInstructions().empty();
  profile.index = method.getIndex();
  profile.runs = times.runs.size();
  profile.load = summarizeDurations(times.loads);
  profile.init = summarizeDurations(times.inits);
  profile.run = summarizeDurations(times.runs);
  profile.blocks = std::move(times.blocks);
  profile.outputs = describeLogged(times.outputs, debugBuffer);
  uint64_t runTotal = profile.run.total;
  if (!runTotal)
    for (const auto &calls : times.calls)
      for (uint64_t duration : calls)
        runTotal += duration;
  for (uint32_t chain = 0; chain < method.getChainCount(); ++chain)
    for (uint32_t instruction = 0;
         instruction < method.getInstructionCount(chain); ++instruction) {
      uint32_t slot = *method.getSlot(chain, instruction);
      auto &durations =
          times.calls[slot].empty() ? times.kernels[slot] : times.calls[slot];
      if (durations.empty() && times.delegateEvents[slot].empty() &&
          times.logged[slot].values.empty())
        continue;
      InstructionProfile entry{chain, instruction,
                               describeInstruction(method, chain, instruction),
                               summarizeDurations(durations)};
      entry.share = runTotal ? double(entry.time.total) / runTotal : 0;
      entry.delegateEvents = summarizeByName(times.delegateEvents[slot]);
      entry.outputs = describeLogged(times.logged[slot], debugBuffer);
      profile.instructions.push_back(std::move(entry));
    }
  groupInstructions(profile);
  return profile;
}

StringRef profile::getBlockRoleName(BlockRole role) {
  switch (role) {
  case BlockRole::Load:
    return "load";
  case BlockRole::Execute:
    return "execute";
  case BlockRole::Unknown:
    break;
  }
  return "unknown";
}

/// The methods of `program` named in `only` (every one without), or why
/// not.
static std::optional<ProgramModel> selectMethods(const ProgramFile &program,
                                                 ArrayRef<std::string> only,
                                                 std::string &error) {
  ProgramModel model(program, [&](StringRef name) {
    return only.empty() || llvm::is_contained(only, name);
  });
  if (failed(checkMethodsExist(model, only, error)))
    return std::nullopt;
  return model;
}

/// `block`, which `assignment` matches to no method, as reported.
static UnmatchedBlock getUnmatched(const Block &block,
                                   const BlockAssignment &assignment) {
  UnmatchedBlock unmatched{block.index, block.name, block.role, assignment.how};
  unmatched.explained = block.role != BlockRole::Execute;
  return unmatched;
}

/// The name of methods alike: theirs, joined; past three, the first two
/// and how many.
static std::string getAlikeName(ArrayRef<std::string> names) {
  if (names.size() <= 3)
    return llvm::join(names, " | ");
  return (names[0] + " | " + names[1] + " | ... (" + Twine(names.size()) +
          " methods)")
      .str();
}

/// The runs of `candidates`, methods alike (indices into `methods`), whose
/// blocks `times` holds: as one method's, under their names. An
/// instruction that calls something else in each says all it calls.
static MethodProfile summarizeAlike(ArrayRef<MethodModel> methods,
                                    ArrayRef<unsigned> candidates,
                                    MethodTimes &times, StringRef debugBuffer) {
  MethodProfile profile =
      summarizeMethod(methods[candidates.front()], times, debugBuffer);
  for (unsigned candidate : candidates) {
    profile.candidates.push_back(methods[candidate].getName().str());
    profile.noInstructions &= methods[candidate].getInstructions().empty();
  }
  profile.name = getAlikeName(profile.candidates);
  for (InstructionProfile &entry : profile.instructions) {
    std::vector<std::string> callees;
    for (unsigned candidate : candidates) {
      std::string callee = describeInstruction(methods[candidate], entry.chain,
                                               entry.instruction)
                               .name;
      if (!llvm::is_contained(callees, callee))
        callees.push_back(std::move(callee));
    }
    entry.info.name = llvm::join(callees, " or ");
  }
  groupInstructions(profile);
  return profile;
}

/// Every event of `blocks` on `timeline`: a lane per method of `methods`,
/// one per set of methods alike, and one for blocks `assigned` to none.
static void buildTimeline(ArrayRef<Block> blocks,
                          ArrayRef<BlockAssignment> assigned,
                          ArrayRef<MethodModel> methods, Timeline &timeline) {
  TimelineBuilder builder(timeline);
  for (const MethodModel &method : methods)
    builder.addLane(method.getName());
  std::map<SmallVector<unsigned, 1>, uint32_t> alikeLanes;
  std::optional<uint32_t> unmatched;
  for (auto [block, assignment] : llvm::zip_equal(blocks, assigned)) {
    if (assignment.isMatched()) {
      unsigned method = assignment.candidates.front();
      builder.addBlock(block, method, &methods[method]);
      continue;
    }
    if (assignment.candidates.empty()) {
      if (!unmatched)
        unmatched = builder.addLane("unmatched");
      builder.addBlock(block, *unmatched, nullptr);
      continue;
    }
    auto [lane, added] = alikeLanes.try_emplace(assignment.candidates, 0);
    if (added) {
      std::vector<std::string> names;
      for (unsigned candidate : assignment.candidates)
        names.push_back(methods[candidate].getName().str());
      lane->second = builder.addLane(getAlikeName(names));
    }
    builder.addBlock(block, lane->second,
                     &methods[assignment.candidates.front()]);
  }
  builder.finish();
}

/// The methods of `methods` in the order the run executed them: as `named`
/// gives them, or the program's.
static std::vector<unsigned> getOrder(ArrayRef<MethodModel> methods,
                                      ArrayRef<std::string> named) {
  std::vector<unsigned> order;
  if (named.empty()) {
    for (unsigned index = 0; index < methods.size(); ++index)
      order.push_back(index);
    return order;
  }
  for (const std::string &name : named)
    for (auto [index, method] : llvm::enumerate(methods))
      if (method.getName() == name)
        order.push_back(index);
  return order;
}

FailureOr<ProfileReport> profile::analyzeProfile(const ETDumpFile &etdump,
                                                 const ProgramFile &programFile,
                                                 const ProfileOptions &options,
                                                 StringRef debugBuffer,
                                                 std::string &error) {
  std::optional<ProgramModel> selected =
      selectMethods(programFile, options.methods, error);
  if (!selected)
    return failure();
  return analyzeProfile(etdump, *selected, options, debugBuffer, error);
}

FailureOr<ProfileReport> profile::analyzeProfile(const ETDumpFile &etdump,
                                                 const ProgramModel &model,
                                                 const ProfileOptions &options,
                                                 StringRef debugBuffer,
                                                 std::string &error) {
  const ProgramFile &programFile = model.getFile();
  ArrayRef<MethodModel> methods = model.getMethods();
  ProfileReport report;
  std::vector<Block> blocks = readBlocks(etdump);
  startReport(etdump, report, blocks);
  report.programFile = programFile.getName().str();
  std::vector<BlockAssignment> assigned = assignBlocks(blocks, methods);
  if (options.inOrder)
    assignInOrder(blocks, methods, getOrder(methods, options.methods),
                  assigned);
  // Per method, and per set of methods alike (blocks that fit each).
  std::vector<MethodTimes> times(methods.size());
  std::map<SmallVector<unsigned, 1>, MethodTimes> alike;
  for (auto [block, assignment] : llvm::zip_equal(blocks, assigned)) {
    if (assignment.candidates.empty()) {
      report.unmatched.push_back(getUnmatched(block, assignment));
      continue;
    }
    MethodTimes &target = assignment.isMatched()
                              ? times[assignment.candidates.front()]
                              : alike[assignment.candidates];
    target.blocks.push_back(
        {block.index, block.name, block.role, assignment.how});
    addBlock(block, methods[assignment.candidates.front()], target);
  }
  for (auto [position, method] : llvm::enumerate(methods))
    if (!times[position].blocks.empty())
      report.methods.push_back(
          summarizeMethod(method, times[position], debugBuffer));
  for (auto &[candidates, groupTimes] : alike)
    report.methods.push_back(
        summarizeAlike(methods, candidates, groupTimes, debugBuffer));
  if (options.timeline)
    buildTimeline(blocks, assigned, methods, report.timeline);
  return report;
}

FailureOr<ProfileReport>
profile::analyzeProfile(std::shared_ptr<const FileBuffer> etdumpBuffer,
                        PayloadFiles &files, const ProfileOptions &options,
                        std::string &error) {
  std::unique_ptr<CheckedFile> etdump =
      openReadableFile(std::move(etdumpBuffer), OpenAs::ETDump, error);
  if (!etdump)
    return failure();
  const auto &dump = cast<ETDumpFile>(*etdump);
  if (options.program.empty())
    return analyzeProfile(dump, options);
  std::unique_ptr<CheckedFile> program =
      openReadableFile(files, options.program, OpenAs::ProgramOrBundle, error);
  if (!program)
    return failure();
  // Each must read, though the join reads none of them.
  if (failed(openDataFiles(files, options.dataFiles, error)))
    return failure();
  std::shared_ptr<const FileBuffer> debugBuffer;
  if (!options.debugBuffer.empty()) {
    std::string why;
    debugBuffer = files.open(options.debugBuffer, why);
    if (!debugBuffer) {
      error = cannotRead(options.debugBuffer, why);
      return failure();
    }
  }
  FailureOr<ProfileReport> report = analyzeProfile(
      dump, *getProgramOf(*program), options,
      debugBuffer ? debugBuffer->getBytes() : StringRef(), error);
  if (succeeded(report))
    report->programFile = program->getName().str();
  return report;
}
