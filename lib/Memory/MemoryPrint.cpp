//===- MemoryPrint.cpp - emit-memory's reports as text and JSON -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/MemoryReport.h"
#include "emit/Memory/RuntimeModel.h"
#include "emit/Support/JSONWriter.h"
#include "emit/Support/Report.h"

#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::memory;

static const char *const kAllocatorNote =
    "bytes Program::load_method takes from the method allocator, a bump "
    "allocator over a 64-byte-aligned pool, with a temp allocator given";
static const char *const kCallerNote =
    "no buffer plans them, so the caller gives their memory "
    "(Method::set_input points such an input at the caller's tensor, "
    "set_output_data_ptr such an output at the caller's buffer)";
static const char *const kBackendNote =
    "allocates more from the method allocator in its own init (not counted)";

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
  const CallerTensors &in = method.callerInputs, &out = method.callerOutputs;
  if (in.tensors || out.tensors)
    os << "  caller supplies: " << counted(in.tensors, "input") << " ("
       << in.bytes << " bytes) and " << counted(out.tensors, "output") << " ("
       << out.bytes << " bytes), " << in.bytes + out.bytes
       << " bytes in all: " << kCallerNote << "\n";
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

// The JSON is streamed, keys in sorted order: a method of 50,000 kernel
// calls has as many tensors, which a document built in memory first would
// hold many times over.

static void printFindings(llvm::json::OStream &json, StringRef key,
                          const FindingList &list) {
  json.attributeArray(key, [&] {
    for (const Finding &finding : list.findings)
      json.value(getFindingJSON(finding));
  });
}

/// How deep the "tensors" array sits: in the root, "methods", a method.
static constexpr unsigned kTensorsDepth = 3;

/// One tensor's object as llvm::json::OStream writes it, keys sorted.
static void printTensor(JSONWriter &json, const PlannedTensor &tensor) {
  std::optional<uint64_t> first, last;
  if (tensor.lifetime) {
    first = tensor.lifetime->first;
    last = tensor.lifetime->last;
  }
  json.objectBegin();
  json.key("buffer");
  json.number(uint64_t(tensor.memoryId));
  json.key("bytes");
  json.number(tensor.bytes);
  json.key("first");
  json.number(first);
  json.key("last");
  json.number(last);
  json.key("name");
  json.string(tensor.name);
  json.key("offset");
  json.number(tensor.offset);
  json.key("value");
  json.number(uint64_t(tensor.value));
  json.objectEnd();
}

/// The tensors by hand, through one writer: a method may have hundreds of
/// thousands.
static void printTensors(llvm::json::OStream &json,
                         const MethodMemory &method) {
  json.attributeBegin("tensors");
  json.rawValue([&](raw_ostream &os) {
    JSONWriter writer(os, /*indentWidth=*/2, kTensorsDepth);
    writer.arrayBegin();
    for (const PlannedTensor &tensor : method.tensors)
      printTensor(writer, tensor);
    writer.arrayEnd();
  });
  json.attributeEnd();
}

static void printMethod(llvm::json::OStream &json, const MethodMemory &method) {
  json.object([&] {
    json.attributeArray("backends", [&] {
      for (const BackendUse &backend : method.backends)
        json.object([&] {
          json.attribute("delegates", backend.delegates);
          json.attribute("id", backend.id);
          json.attribute("init", kBackendNote);
        });
    });
    json.attributeObject("caller_supplied", [&] {
      for (auto [key, caller] : {std::pair{"inputs", &method.callerInputs},
                                 std::pair{"outputs", &method.callerOutputs}})
        json.attributeObject(key, [&, caller = caller] {
          json.attribute("bytes", caller->bytes);
          json.attribute("tensors", caller->tensors);
        });
    });
    json.attribute("delegate_calls", method.delegateCalls);
    printFindings(json, "findings", method.findings);
    json.attribute("instructions", method.instructions);
    json.attribute("kernel_calls", method.kernelCalls);
    json.attributeObject("method_allocator_bytes", [&] {
      // Sorted: "32" before "64".
      SmallVector<std::pair<StringRef, uint64_t>> bytes;
      for (auto [target, count] :
           llvm::zip_equal(getRuntimeTargets(), method.methodAllocatorBytes))
        bytes.push_back({target.name, count});
      llvm::sort(bytes);
      for (auto [name, count] : bytes)
        json.attribute(name, static_cast<int64_t>(count));
    });
    json.attribute("name", method.name);
    json.attributeArray("planned_buffers", [&] {
      for (const PlannedBuffer &buffer : method.buffers)
        json.object([&] {
          json.attribute("bytes", static_cast<int64_t>(buffer.bytes));
          json.attribute("device", buffer.device);
          json.attribute("memory_id", buffer.memoryId);
          json.attribute("peak_live_bytes",
                         static_cast<int64_t>(buffer.peakLiveBytes));
        });
    });
    json.attribute("planned_bytes",
                   static_cast<int64_t>(method.getPlannedBytes()));
    printTensors(json, method);
  });
}

void memory::printMemoryJSON(const MemoryReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("file", report.file);
    printFindings(json, "findings", report.findings);
    json.attribute("method_allocator", kAllocatorNote);
    json.attributeArray("methods", [&] {
      for (const MethodMemory &method : report.methods)
        printMethod(json, method);
    });
    json.attribute("runtime_revision", getRuntimeRevision());
    json.attribute("schema", "emit-memory-1");
    json.attributeObject("targets", [&] {
      SmallVector<std::pair<StringRef, StringRef>> targets;
      for (const RuntimeTarget &target : getRuntimeTargets())
        targets.push_back({target.name, target.description});
      llvm::sort(targets);
      for (auto [name, description] : targets)
        json.attribute(name, description);
    });
  });
  os << "\n";
}

void MemoryReport::print(ReportFormat format, raw_ostream &os) const {
  switch (format) {
  case ReportFormat::JSON:
    return printMemoryJSON(*this, os);
  case ReportFormat::HTML:
    return printMemoryHTML(*this, os);
  default:
    return printMemoryText(*this, os);
  }
}
