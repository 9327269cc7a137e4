//===- MemoryReport.h - The memory a program's methods need -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-memory as a library: from a program file alone (no payload is read),
// per method, its planned buffers and how much of each is live at once, the
// bytes loading it takes from the method allocator on each target, every
// planned tensor with its lifetime, and whether the plan is sound: two
// tensors that share bytes while both are live (`memory-overlap`), a buffer
// much larger than it needs (`memory-slack`). emit-verify runs the same
// checks (checkMemory).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_MEMORY_MEMORYREPORT_H
#define EMIT_MEMORY_MEMORYREPORT_H

#include "emit/File/DataFlow.h"
#include "emit/File/Findings.h"
#include "emit/Support/LLVM.h"
#include "emit/Support/Page.h"
#include "emit/Support/Report.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace emit {
namespace delegate {
class DelegateCalls;
} // namespace delegate
class FileBuffer;
class PayloadFiles;
class ProgramFile;
class ProgramModel;

namespace memory {

/// Instructions `first` to `last` (inclusive), numbered across a method's
/// chains in order (the file layer's data flow).
using Lifetime = emit::Lifetime;

/// A planned buffer, as the runtime's MethodMeta lists it.
struct PlannedBuffer {
  /// The id tensors name it by (allocation_info.memory_id, from 1).
  uint32_t memoryId;
  uint64_t bytes;
  std::string device;
  /// The most bytes of it live at any one instruction, and the first
  /// instruction where they are.
  uint64_t peakLiveBytes = 0;
  uint32_t peakAt = 0;
};

/// A tensor whose data is planned.
struct PlannedTensor {
  uint32_t value;
  uint32_t memoryId;
  uint64_t offset;
  uint64_t bytes;
  /// Its fully qualified name, where the file has one: in the file's
  /// bytes, which the report holds (MemoryReport::bytes). A method may
  /// plan hundreds of thousands of tensors; few have names.
  StringRef name;
  /// None when nothing names it.
  std::optional<Lifetime> lifetime;
};

/// Backends that allocate more in their own `init`.
struct BackendUse {
  std::string id;
  unsigned delegates = 0;
};

/// The memory one method needs.
/// Tensors of a method's signature that no buffer plans: the caller gives
/// their memory (Method::set_input points such an input at the caller's
/// tensor, set_output_data_ptr such an output at the caller's buffer).
struct CallerTensors {
  unsigned tensors = 0;
  /// Their bytes at the sizes the file gives (a dynamic one's upper bound).
  uint64_t bytes = 0;
};

struct MethodMemory {
  std::string name;
  unsigned index = 0;
  unsigned instructions = 0;
  unsigned kernelCalls = 0;
  unsigned delegateCalls = 0;
  std::vector<PlannedBuffer> buffers;
  /// Method allocator bytes per target, in getRuntimeTargets() order.
  SmallVector<uint64_t, 2> methodAllocatorBytes;
  std::vector<BackendUse> backends;
  /// The inputs and outputs the caller supplies.
  CallerTensors callerInputs, callerOutputs;
  std::vector<PlannedTensor> tensors;
  /// The values of each pair of tensors memory-overlap found.
  std::vector<std::pair<uint32_t, uint32_t>> overlaps;
  FindingList findings;

  uint64_t getPlannedBytes() const;
};

/// The memory a program's methods need.
struct MemoryReport : Report {
  std::string file;
  /// The bytes the report's names point into.
  std::shared_ptr<const FileBuffer> bytes;
  std::vector<MethodMemory> methods;
  /// What is wrong with the file outside its methods.
  FindingList findings;

  unsigned count(Severity severity) const;
  /// Text, JSON (emit-memory-1) or HTML.
  void print(ReportFormat format, raw_ostream &os) const override;
};

/// What to analyze, and with what.
struct MemoryOptions {
  /// The methods to report, by name; empty: every method.
  std::vector<std::string> methods;
  /// The data files the runtime is given (--data): with program named
  /// data, it merges the two, which takes memory.
  std::vector<std::string> dataFiles;
};

/// The memory report of `file`, a readable program, whose runtime is given
/// the data files of `options` (not opened here); the file layer's errors
/// go with the method they name. Fails, with the reason in `error`, when a
/// method asked for does not exist.
FailureOr<MemoryReport> analyzeMemory(const ProgramFile &file,
                                      const MemoryOptions &options,
                                      std::string &error);

/// The same, of the methods of `model` (a readable program's, which may
/// hold more) that `options` names, with what each delegate call writes as
/// `calls` (of `model`) reads it: for a view that has both already
/// (emit-graph's memory overlay), so nothing is read or decoded twice.
FailureOr<MemoryReport> analyzeMemory(const ProgramModel &model,
                                      delegate::DelegateCalls &calls,
                                      const MemoryOptions &options,
                                      std::string &error);

/// Opens `input` as a program, and the data files of `options` through the
/// job's `files`, and reports on it: emit-memory and the C API. Fails, with
/// the reason in `error`, when a file cannot be read, is not of its kind or
/// does not read (the file layer's first error), or a method asked for does
/// not exist.
FailureOr<MemoryReport> analyzeMemory(std::shared_ptr<const FileBuffer> input,
                                      PayloadFiles &files,
                                      const MemoryOptions &options,
                                      std::string &error);

/// Per method of `program`, a readable program's model, in order: its name
/// and the method allocator bytes loading it takes on each target (no data
/// files given), without the rest of the analysis.
std::vector<std::pair<std::string, std::vector<uint64_t>>>
getMethodAllocatorBytes(const ProgramModel &program);

/// Adds the memory checks' findings on every method of `program`, the model
/// of a readable program, to `findings`; what each delegate call writes as
/// `calls` (of `program`) reads its payload.
void checkMemory(const ProgramModel &program, delegate::DelegateCalls &calls,
                 FindingList &findings);

/// The report for people.
void printMemoryText(const MemoryReport &report, raw_ostream &os);
/// The report as JSON, schema `emit-memory-1`.
void printMemoryJSON(const MemoryReport &report, raw_ostream &os);
/// The report as one self-contained HTML page.
void printMemoryHTML(const MemoryReport &report, raw_ostream &os);
/// A page's method allocator columns, one per runtime target ("method
/// allocator, 64-bit", its description on hover), as emit-memory's and the
/// summary's pages head them.
ArrayRef<TableColumn> getAllocatorColumns();

} // namespace memory
} // namespace emit

#endif // EMIT_MEMORY_MEMORYREPORT_H
