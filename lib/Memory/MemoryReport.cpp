//===- MemoryReport.cpp - The memory a program's methods need -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/MemoryReport.h"

#include "emit/DelegateCalls/DelegateCalls.h"

#include "PlanCheck.h"
#include "emit/File/BundleFile.h"
#include "emit/File/DataFlow.h"
#include "emit/File/ProgramModel.h"
#include "emit/Memory/MethodAllocator.h"
#include "emit/Support/PayloadFiles.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace emit;
using namespace emit::memory;

uint64_t MethodMemory::getPlannedBytes() const {
  uint64_t bytes = 0;
  for (const PlannedBuffer &buffer : buffers)
    bytes += buffer.bytes;
  return bytes;
}

unsigned MemoryReport::count(Severity severity) const {
  unsigned total = findings.count(severity);
  for (const MethodMemory &method : methods)
    total += method.findings.count(severity);
  return total;
}

/// The backends of `method`'s delegate entries, with how many each has.
static std::vector<BackendUse> getBackends(const MethodModel &method) {
  std::vector<BackendUse> backends;
  llvm::StringMap<unsigned> indices;
  for (const DelegateModel &delegate : method.getDelegates()) {
    auto [it, inserted] =
        indices.try_emplace(delegate.backend, backends.size());
    if (inserted)
      backends.push_back({delegate.backend.str(), 0});
    ++backends[it->second].delegates;
  }
  return backends;
}

/// The method allocator bytes loading `method` takes, per target.
static std::vector<uint64_t> getBytesPerTarget(const MethodModel &method,
                                               bool mergesDataMaps) {
  return getMethodAllocatorBytes(method, mergesDataMaps, getRuntimeTargets());
}

/// The tensors of `values` (a method's inputs or outputs, lists by their
/// items) that no buffer plans and no data fills.
static CallerTensors countCallerTensors(const MethodModel &model,
                                        ArrayRef<int32_t> values) {
  CallerTensors caller;
  auto count = [&](int64_t value) {
    if (value < 0 || value >= model.getValueCount())
      return;
    std::optional<TensorModel> tensor = model.getTensor(value);
    if (!tensor || tensor->planned || tensor->isConstant())
      return;
    ++caller.tensors;
    caller.bytes += tensor->getBytes().value_or(0);
  };
  for (int32_t value : values) {
    count(value);
    if (value >= 0 && value < int64_t(model.getValueCount()))
      for (int32_t item : model.getValue(value).getItems())
        count(item);
  }
  return caller;
}

/// Everything about one method; its findings are the memory checks'.
static MethodMemory analyzeMethod(const ProgramFile &file,
                                  const MethodModel &model,
                                  delegate::DelegateCalls &calls,
                                  bool mergesDataMaps) {
  MethodMemory method;
  method.name = model.getName().str();
  method.index = model.getIndex();
  method.instructions = model.getInstructions().size();
  method.kernelCalls = model.getKernelCallCount();
  method.delegateCalls = model.getDelegateCallCount();
  llvm::append_range(method.methodAllocatorBytes,
                     getBytesPerTarget(model, mergesDataMaps));
  method.backends = getBackends(model);
  method.callerInputs = countCallerTensors(model, model.getInputs());
  method.callerOutputs = countCallerTensors(model, model.getOutputs());
  checkPlan(file, model, computeDataFlow(model, calls.getCallArguments(model)),
            method);
  return method;
}

FailureOr<MemoryReport> memory::analyzeMemory(const ProgramFile &file,
                                              const MemoryOptions &options,
                                              std::string &error) {
  assert(file.getProgram() && file.isReadable() &&
         "analyzing a file that does not read");
  llvm::StringSet<> wanted;
  for (const std::string &name : options.methods)
    wanted.insert(name);
  ProgramModel model(file, [&](StringRef name) {
    return wanted.empty() || wanted.contains(name);
  });
  // What a delegate call writes, as its payload says where it says.
  delegate::DelegateCalls calls(model, {});
  return analyzeMemory(model, calls, options, error);
}

FailureOr<MemoryReport> memory::analyzeMemory(const ProgramModel &model,
                                              delegate::DelegateCalls &calls,
                                              const MemoryOptions &options,
                                              std::string &error) {
  const ProgramFile &file = model.getFile();
  unsigned planCount = model.getFileMethodCount();
  if (failed(checkMethodsExist(model, options.methods, error)))
    return failure();
  bool mergesDataMaps =
      !options.dataFiles.empty() && model.getNamedDataKeyCount().has_value();
  MemoryReport report;
  report.file = file.getName().str();
  report.bytes = file.getBuffer();
  SmallVector<int> reportedAs(planCount, -1);
  for (const MethodModel &method : model.getMethods()) {
    if (!options.methods.empty() &&
        !llvm::is_contained(options.methods, method.getName()))
      continue;
    reportedAs[method.getIndex()] = report.methods.size();
    report.methods.push_back(
        analyzeMethod(file, method, calls, mergesDataMaps));
  }
  // The file's errors (a tensor past its buffer, ...) go with their method;
  // emit-verify reports the rest of what the file layer found.
  for (const Finding &finding : file.getFindings().findings) {
    if (finding.severity != Severity::Error)
      continue;
    if (!finding.method || *finding.method >= planCount)
      report.findings.findings.push_back(finding);
    else if (reportedAs[*finding.method] >= 0)
      report.methods[reportedAs[*finding.method]].findings.findings.push_back(
          finding);
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
      openReadableFile(std::move(input), OpenAs::ProgramOrBundle, error);
  if (!file)
    return failure();
  // Each must read, though only whether there are any matters here.
  if (failed(openDataFiles(files, options.dataFiles, error)))
    return failure();
  FailureOr<MemoryReport> report =
      analyzeMemory(*getProgramOf(*file), options, error);
  if (succeeded(report))
    if (const auto *bundle = dyn_cast<BundleFile>(file.get()))
      reportForBundle(*bundle, *report);
  return report;
}

void memory::checkMemory(const ProgramModel &program,
                         delegate::DelegateCalls &calls,
                         FindingList &findings) {
  for (const MethodModel &model : program.getMethods()) {
    MethodMemory method;
    method.name = model.getName().str();
    checkPlan(program.getFile(), model,
              computeDataFlow(model, calls.getCallArguments(model)), method);
    llvm::append_range(findings.findings, method.findings.findings);
  }
}

std::vector<std::pair<std::string, std::vector<uint64_t>>>
memory::getMethodAllocatorBytes(const ProgramModel &program) {
  std::vector<std::pair<std::string, std::vector<uint64_t>>> methods;
  for (const MethodModel &method : program.getMethods())
    methods.push_back({method.getName().str(),
                       getBytesPerTarget(method, /*mergesDataMaps=*/false)});
  return methods;
}
