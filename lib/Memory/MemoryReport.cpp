//===- MemoryReport.cpp - The memory a program's methods need -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/MemoryReport.h"

#include "PlanCheck.h"
#include "emit/File/BundleFile.h"
#include "emit/File/program_generated.h"
#include "emit/Memory/MethodAllocator.h"
#include "emit/Support/PayloadFiles.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace emit;
using namespace emit::memory;
namespace fb = executorch_flatbuffer;

uint64_t MethodMemory::getPlannedBytes() const {
  uint64_t bytes = 0;
  for (const PlannedBuffer &buffer : buffers)
    bytes += buffer.bytes;
  return bytes;
}

unsigned MemoryReport::count(Severity severity) const {
  auto inList = [&](const FindingList &list) {
    return llvm::count_if(list.findings, [&](const Finding &finding) {
      return finding.severity == severity;
    });
  };
  unsigned total = inList(findings);
  for (const MethodMemory &method : methods)
    total += inList(method.findings);
  return total;
}

/// The execution plan a finding's table path names, if any:
/// `execution_plan[3]...`.
static std::optional<unsigned> getPlanIndex(StringRef path) {
  unsigned index;
  if (!path.consume_front("execution_plan[") ||
      path.consumeInteger(10, index) || !path.starts_with("]"))
    return std::nullopt;
  return index;
}

/// The backends of `plan`'s delegate entries, with how many each has.
static std::vector<BackendUse> getBackends(const fb::ExecutionPlan &plan) {
  std::vector<BackendUse> backends;
  llvm::StringMap<unsigned> indices;
  for (const fb::BackendDelegate *delegate : *plan.delegates()) {
    StringRef id = delegate->id() ? delegate->id()->string_view() : "";
    auto [it, inserted] = indices.try_emplace(id, backends.size());
    if (inserted)
      backends.push_back({id.str(), 0});
    ++backends[it->second].delegates;
  }
  return backends;
}

/// How many of `plan`'s instructions are kernel and delegate calls.
static void countInstructions(const fb::ExecutionPlan &plan,
                              MethodMemory &method) {
  for (const fb::Chain *chain : *plan.chains())
    for (const fb::Instruction *instruction : *chain->instructions()) {
      ++method.instructions;
      method.kernelCalls += instruction->instr_args_type() ==
                            fb::InstructionArguments::KernelCall;
      method.delegateCalls += instruction->instr_args_type() ==
                              fb::InstructionArguments::DelegateCall;
    }
}

/// The method allocator bytes loading `plan` takes, per target.
static std::vector<uint64_t> getBytesPerTarget(const fb::ExecutionPlan &plan,
                                               bool mergesDataMaps) {
  std::vector<uint64_t> bytes;
  for (const RuntimeTarget &target : getRuntimeTargets())
    bytes.push_back(getMethodAllocatorBytes(plan, mergesDataMaps, target));
  return bytes;
}

/// Everything about one method; its findings are the memory checks'.
static MethodMemory analyzeMethod(const ProgramFile &file,
                                  const fb::ExecutionPlan &plan,
                                  unsigned planIndex, bool mergesDataMaps) {
  MethodMemory method;
  method.name = plan.name()->str();
  method.index = planIndex;
  countInstructions(plan, method);
  llvm::append_range(method.methodAllocatorBytes,
                     getBytesPerTarget(plan, mergesDataMaps));
  method.backends = getBackends(plan);
  checkPlan(file, plan, planIndex, computeMethodUses(plan), method);
  return method;
}

FailureOr<MemoryReport> memory::analyzeMemory(const ProgramFile &file,
                                              const MemoryOptions &options,
                                              std::string &error) {
  const fb::Program *program = file.getProgram();
  assert(program && file.isReadable() && "analyzing a file that does not read");
  const auto &plans = *program->execution_plan();
  llvm::StringSet<> wanted;
  for (const std::string &name : options.methods) {
    if (!llvm::any_of(plans, [&](const fb::ExecutionPlan *plan) {
          return plan->name()->string_view() == name;
        })) {
      error = "'" + file.getName().str() + "' has no method '" + name + "'";
      return failure();
    }
    wanted.insert(name);
  }
  bool mergesDataMaps = !options.dataFiles.empty() && program->named_data();
  MemoryReport report;
  report.file = file.getName().str();
  report.bytes = file.getBuffer();
  SmallVector<int> reportedAs(plans.size(), -1);
  for (auto [index, plan] : llvm::enumerate(plans)) {
    if (!wanted.empty() && !wanted.contains(plan->name()->string_view()))
      continue;
    reportedAs[index] = report.methods.size();
    report.methods.push_back(analyzeMethod(file, *plan, index, mergesDataMaps));
  }
  // The file's errors (a tensor past its buffer, ...) go with their method;
  // emit-verify reports the rest of what the file layer found.
  for (const Finding &finding : file.getFindings().findings) {
    if (finding.severity != Severity::Error)
      continue;
    std::optional<unsigned> plan = getPlanIndex(finding.path);
    if (!plan || *plan >= plans.size())
      report.findings.findings.push_back(finding);
    else if (reportedAs[*plan] >= 0)
      report.methods[reportedAs[*plan]].findings.findings.push_back(finding);
  }
  return report;
}

/// `report`, of the program `bundle` embeds, as the bundle's: its file,
/// and its findings at their offsets in the bundle.
static void reportForBundle(const BundleFile &bundle, MemoryReport &report) {
  report.file = bundle.getName().str();
  for (Finding &finding : report.findings.findings)
    finding = bundle.toBundleFinding(std::move(finding));
  for (MethodMemory &method : report.methods)
    for (Finding &finding : method.findings.findings)
      finding = bundle.toBundleFinding(std::move(finding));
}

FailureOr<MemoryReport>
memory::analyzeMemory(std::shared_ptr<const FileBuffer> input,
                      PayloadFiles &files, const MemoryOptions &options,
                      std::string &error) {
  std::unique_ptr<CheckedFile> file =
      openReadableFile(std::move(input), FileKind::ProgramOrBundle, error);
  if (!file)
    return failure();
  for (const std::string &path : options.dataFiles) {
    std::string why;
    std::shared_ptr<const FileBuffer> data = files.open(path, why);
    if (!data) {
      error = "cannot read '" + path + "': " + why;
      return failure();
    }
    if (!openReadableFile(std::move(data), FileKind::DataFile, error))
      return failure();
  }
  FailureOr<MemoryReport> report =
      analyzeMemory(*getProgramOf(*file), options, error);
  if (succeeded(report))
    if (const auto *bundle = dyn_cast<BundleFile>(file.get()))
      reportForBundle(*bundle, *report);
  return report;
}

void memory::checkMemory(const ProgramFile &file, FindingList &findings) {
  const fb::Program *program = file.getProgram();
  assert(program && file.isReadable() && "checking a file that does not read");
  for (auto [index, plan] : llvm::enumerate(*program->execution_plan())) {
    MethodMemory method;
    method.name = plan->name()->str();
    checkPlan(file, *plan, index, computeMethodUses(*plan), method);
    llvm::append_range(findings.findings, method.findings.findings);
  }
}

std::vector<std::pair<std::string, std::vector<uint64_t>>>
memory::getMethodAllocatorBytes(const ProgramFile &file) {
  std::vector<std::pair<std::string, std::vector<uint64_t>>> methods;
  for (const fb::ExecutionPlan *plan : *file.getProgram()->execution_plan()) {
    methods.push_back({plan->name()->str(),
                       getBytesPerTarget(*plan, /*mergesDataMaps=*/false)});
  }
  return methods;
}
