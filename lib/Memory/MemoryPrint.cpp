//===- MemoryPrint.cpp - emit-memory's reports as text and JSON -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/MemoryReport.h"
#include "emit/Memory/RuntimeModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::memory;

static const char *const kAllocatorNote =
    "bytes Program::load_method takes from the method allocator, a bump "
    "allocator over a 64-byte-aligned pool, with a temp allocator given";
static const char *const kBackendNote =
    "allocates more from the method allocator in its own init (not counted)";

/// `count` `noun`, with an s when it is not one.
static std::string counted(uint64_t count, StringRef noun) {
  return (Twine(count) + " " + noun + (count == 1 ? "" : "s")).str();
}

static void printMethodText(const MethodMemory &method, raw_ostream &os) {
  os << "method '" << method.name
     << "': " << counted(method.instructions, "instruction") << " ("
     << counted(method.kernelCalls, "kernel call") << ", "
     << counted(method.delegateCalls, "delegate call") << ")\n";
  os << "  planned: " << method.getPlannedBytes() << " bytes in "
     << counted(method.buffers.size(), "buffer") << "\n";
  for (const PlannedBuffer &buffer : method.buffers)
    os << "    buffer " << buffer.memoryId << " (" << buffer.device
       << "): " << buffer.bytes << " bytes, at most " << buffer.peakLiveBytes
       << " live at once\n";
  os << "  method allocator:";
  for (auto [target, bytes] :
       llvm::zip_equal(getRuntimeTargets(), method.methodAllocatorBytes))
    os << " " << bytes << " bytes (" << target.name << "-bit)";
  os << "\n";
  for (const BackendUse &backend : method.backends)
    os << "    + backend '" << backend.id << "' ("
       << counted(backend.delegates, "delegate") << "): " << kBackendNote
       << "\n";
  unsigned live = llvm::count_if(method.tensors, [](const PlannedTensor &t) {
    return t.lifetime.has_value();
  });
  os << "  tensors: " << method.tensors.size() << " planned, " << live
     << " named by an instruction or the method's signature\n";
  for (const Finding &finding : method.findings.findings)
    printFinding(finding, os);
}

void memory::printMemoryText(const MemoryReport &report, raw_ostream &os) {
  os << report.file << ": ExecuTorch runtime " << getRuntimeRevision()
     << "; method allocator: " << kAllocatorNote << "\n";
  for (const Finding &finding : report.findings.findings)
    printFinding(finding, os);
  for (const MethodMemory &method : report.methods)
    printMethodText(method, os);
  unsigned errors = report.count(Severity::Error);
  unsigned notes = report.count(Severity::Note);
  os << counted(errors, "error") << ", "
     << counted(report.count(Severity::Warning), "warning") << ", "
     << counted(notes, "note") << "\n";
}

static llvm::json::Array findingsJSON(const FindingList &list) {
  llvm::json::Array findings;
  for (const Finding &finding : list.findings)
    findings.push_back(getFindingJSON(finding));
  return findings;
}

static llvm::json::Object methodJSON(const MethodMemory &method) {
  llvm::json::Array buffers, backends, tensors;
  for (const PlannedBuffer &buffer : method.buffers)
    buffers.push_back(llvm::json::Object{
        {"memory_id", buffer.memoryId},
        {"bytes", static_cast<int64_t>(buffer.bytes)},
        {"device", buffer.device},
        {"peak_live_bytes", static_cast<int64_t>(buffer.peakLiveBytes)},
    });
  llvm::json::Object allocator;
  for (auto [target, bytes] :
       llvm::zip_equal(getRuntimeTargets(), method.methodAllocatorBytes))
    allocator[target.name] = static_cast<int64_t>(bytes);
  for (const BackendUse &backend : method.backends)
    backends.push_back(llvm::json::Object{{"id", backend.id},
                                          {"delegates", backend.delegates},
                                          {"init", kBackendNote}});
  for (const PlannedTensor &tensor : method.tensors) {
    llvm::json::Value first = nullptr, last = nullptr;
    if (tensor.lifetime) {
      first = tensor.lifetime->first;
      last = tensor.lifetime->last;
    }
    tensors.push_back(llvm::json::Object{
        {"value", tensor.value},
        {"name", tensor.name},
        {"buffer", tensor.memoryId},
        {"offset", static_cast<int64_t>(tensor.offset)},
        {"bytes", static_cast<int64_t>(tensor.bytes)},
        {"first", std::move(first)},
        {"last", std::move(last)},
    });
  }
  return llvm::json::Object{
      {"name", method.name},
      {"instructions", method.instructions},
      {"kernel_calls", method.kernelCalls},
      {"delegate_calls", method.delegateCalls},
      {"planned_bytes", static_cast<int64_t>(method.getPlannedBytes())},
      {"planned_buffers", std::move(buffers)},
      {"method_allocator_bytes", std::move(allocator)},
      {"backends", std::move(backends)},
      {"tensors", std::move(tensors)},
      {"findings", findingsJSON(method.findings)},
  };
}

void memory::printMemoryJSON(const MemoryReport &report, raw_ostream &os) {
  llvm::json::Object targets;
  for (const RuntimeTarget &target : getRuntimeTargets())
    targets[target.name] = target.description;
  llvm::json::Array methods;
  for (const MethodMemory &method : report.methods)
    methods.push_back(methodJSON(method));
  llvm::json::Object root{
      {"schema", "emit-memory-1"},
      {"file", report.file},
      {"runtime_revision", getRuntimeRevision()},
      {"method_allocator", kAllocatorNote},
      {"targets", std::move(targets)},
      {"methods", std::move(methods)},
      {"findings", findingsJSON(report.findings)},
  };
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
