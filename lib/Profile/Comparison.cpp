//===- Comparison.cpp - A run compared with a baseline run ----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Times are compared per run (a total over the method's runs, divided by
// them), so that runs of different lengths compare. A method the same in
// both programs compares instruction by instruction; another, by the
// operators and backends of both (an operator a rewrite removed shows as
// gone, one it added as new). The largest absolute changes come first.
//
//===----------------------------------------------------------------------===//

#include "emit/Profile/ProfileReport.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace emit;
using namespace emit::profile;

/// `total` over `runs` runs, per run.
static uint64_t perRun(uint64_t total, unsigned runs) {
  return runs ? total / runs : total;
}

static const MethodProfile *findMethod(const ProfileReport &report,
                                       StringRef name) {
  auto found = llvm::find_if(report.methods, [&](const MethodProfile &method) {
    return method.name == name;
  });
  return found == report.methods.end() ? nullptr : &*found;
}

static void compareInstructions(const MethodProfile &oldMethod,
                                const MethodProfile &newMethod,
                                std::vector<TimeChange> &changes) {
  std::map<std::pair<uint32_t, uint32_t>, const InstructionProfile *> old;
  for (const InstructionProfile &entry : oldMethod.instructions)
    old[{entry.chain, entry.instruction}] = &entry;
  for (const InstructionProfile &entry : newMethod.instructions) {
    TimeChange change{newMethod.name, entry.chain, entry.instruction,
                      entry.info.name};
    change.newNs = perRun(entry.time.total, newMethod.runs);
    if (auto it = old.find({entry.chain, entry.instruction}); it != old.end()) {
      change.oldNs = perRun(it->second->time.total, oldMethod.runs);
      old.erase(it);
    }
    changes.push_back(std::move(change));
  }
  for (auto &[position, entry] : old)
    changes.push_back({oldMethod.name, entry->chain, entry->instruction,
                       entry->info.name,
                       perRun(entry->time.total, oldMethod.runs), 0});
}

/// Adds each group of `groups` (of `method`, run `runs` times) to
/// `changes` by name, on the old side or the new.
static void addGroups(StringRef method, ArrayRef<GroupProfile> groups,
                      unsigned runs, bool isOld,
                      llvm::StringMap<TimeChange> &changes) {
  for (const GroupProfile &group : groups) {
    TimeChange &change = changes[group.name];
    change.method = method.str();
    change.name = group.name;
    (isOld ? change.oldNs : change.newNs) += perRun(group.totalNs, runs);
  }
}

static void compareGroups(const MethodProfile &oldMethod,
                          const MethodProfile &newMethod,
                          std::vector<TimeChange> &changes) {
  llvm::StringMap<TimeChange> byName;
  addGroups(oldMethod.name, oldMethod.byOperator, oldMethod.runs, true, byName);
  addGroups(oldMethod.name, oldMethod.byBackend, oldMethod.runs, true, byName);
  addGroups(newMethod.name, newMethod.byOperator, newMethod.runs, false,
            byName);
  addGroups(newMethod.name, newMethod.byBackend, newMethod.runs, false, byName);
  for (auto &entry : byName)
    changes.push_back(std::move(entry.second));
}

static void sortByChange(std::vector<TimeChange> &changes) {
  auto size = [](const TimeChange &change) {
    return change.newNs > change.oldNs ? change.newNs - change.oldNs
                                       : change.oldNs - change.newNs;
  };
  std::stable_sort(changes.begin(), changes.end(), [&](auto &a, auto &b) {
    if (size(a) != size(b))
      return size(a) > size(b);
    return std::tie(a.method, a.name) < std::tie(b.method, b.name);
  });
}

void profile::compareWithBaseline(ProfileReport &report,
                                  const ProfileReport &baseline,
                                  ArrayRef<std::string> sameMethods) {
  ProfileComparison comparison;
  comparison.etdumpFile = baseline.etdumpFile;
  comparison.programFile = baseline.programFile;
  for (const MethodProfile &method : baseline.methods)
    if (!findMethod(report, method.name))
      comparison.onlyOld.push_back(method.name);
  for (const MethodProfile &method : report.methods) {
    const MethodProfile *old = findMethod(baseline, method.name);
    if (!old) {
      comparison.onlyNew.push_back(method.name);
      continue;
    }
    MethodComparison compared{method.name};
    compared.byInstruction = llvm::is_contained(sameMethods, method.name);
    if (!compared.byInstruction)
      compared.why = "the method differs between the programs";
    compared.oldRunNs = old->run.p50;
    compared.newRunNs = method.run.p50;
    if (compared.byInstruction)
      compareInstructions(*old, method, comparison.instructions);
    compareGroups(*old, method, comparison.operators);
    comparison.methods.push_back(std::move(compared));
  }
  sortByChange(comparison.instructions);
  sortByChange(comparison.operators);
  report.baseline = std::move(comparison);
}
