//===- Diff.h - What changed between two exports ----------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-diff as a library: imports two programs (each with its data files)
// or two data files, compares what they hold, layout aside (alignments,
// inline or in a segment, the order of tables, sharing), and says what
// changed and what it costs in bytes. Payload bytes are compared only where
// sizes match, read in chunks, never whole.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIFF_DIFF_H
#define EMIT_DIFF_DIFF_H

#include "emit/Support/LLVM.h"
#include "emit/Support/Report.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace emit {

/// One side of a diff: a program (or a bundled program) with the data files
/// it loads with, or one data file.
struct DiffInput {
  std::string path;
  std::vector<std::string> dataFiles;
};

enum class DiffChange { Added, Removed, Changed };
StringRef stringifyDiffChange(DiffChange change); // "added", ...

/// Bytes of one kind on each side: "delegate", "named_data", "constant",
/// "mutable", "unused", "flatbuffer" (tables), "padding" (headers and
/// padding).
struct DiffKindBytes {
  std::string key, label;
  uint64_t oldBytes = 0, newBytes = 0;
};

struct DiffSide {
  std::string file;
  std::vector<std::string> dataFiles;
  uint64_t bytes = 0; // The file and its data files.
};

struct MethodCounts {
  unsigned instructions = 0, values = 0, delegateCalls = 0, kernelCalls = 0;
  bool operator==(const MethodCounts &other) const {
    return instructions == other.instructions && values == other.values &&
           delegateCalls == other.delegateCalls &&
           kernelCalls == other.kernelCalls;
  }
};

struct MethodDiff {
  DiffChange change;
  std::string name;
  MethodCounts oldCounts, newCounts;
  /// For a changed method: the first difference, as a reader finds it
  /// ("chain 0, instruction 12: the arguments differ").
  std::string firstDifference;
};

struct DelegateDiff {
  DiffChange change;
  std::string method;
  unsigned index = 0;
  std::string backend, oldBackend; // oldBackend only when it changed.
  uint64_t oldBytes = 0, newBytes = 0;
  bool payloadChanged = false, specsChanged = false;
};

struct NamedDataDiff {
  DiffChange change;
  std::string key;
  uint64_t oldBytes = 0, newBytes = 0;
  bool bytesChanged = false, layoutChanged = false;
};

struct OperatorDiff {
  DiffChange change;
  std::string method, name; // "aten::mul.out"
};

struct ConstantDiff {
  DiffChange change;
  /// The fully qualified name where the tensor has one, else empty and the
  /// constant is `value` of `method`.
  std::string name, method;
  unsigned value = 0;
  uint64_t oldBytes = 0, newBytes = 0;
  bool bytesChanged = false, typeChanged = false;
};

/// A bundled program's test suite, by its method's name (the first suite
/// of a name, as the runtime's reader takes it).
struct TestSuiteDiff {
  DiffChange change;
  std::string method;
  unsigned oldCases = 0, newCases = 0;
  /// For a changed suite: the first difference ("test case 3, input 1").
  std::string firstDifference;
};

/// What differs between two exports, every list largest first.
struct DiffReport : Report {
  DiffSide oldSide, newSide;
  bool dataFiles = false; // Two .ptd files: no methods.
  std::vector<DiffKindBytes> byKind;
  std::vector<MethodDiff> methods;
  std::vector<DelegateDiff> delegates;
  std::vector<NamedDataDiff> namedData;
  std::vector<ConstantDiff> constants;
  std::vector<OperatorDiff> operators;
  /// Of bundled programs (one side may be a plain .pte: no suites).
  std::vector<TestSuiteDiff> testSuites;

  /// Both hold the same program content, layout aside.
  bool sameContent() const;
  /// Method `name`, in both, has the same content in both: its
  /// instructions, delegates, operators and constants.
  bool isMethodUnchanged(StringRef name) const;
  /// Text, JSON (emit-diff-1) or HTML.
  void print(ReportFormat format, raw_ostream &os) const override;
};

/// Compares `oldInput` with `newInput`. Fails, with the diagnostics
/// reported through `context`, when a file cannot be read or imported, or
/// a program is compared with a data file.
FailureOr<DiffReport> diffFiles(const DiffInput &oldInput,
                                const DiffInput &newInput,
                                mlir::MLIRContext &context);

void printDiffText(const DiffReport &report, raw_ostream &os);
/// The report as JSON, schema `emit-diff-1`.
void printDiffJSON(const DiffReport &report, raw_ostream &os);
/// One self-contained HTML page, in the style of the summary page.
void printDiffHTML(const DiffReport &report, raw_ostream &os);

} // namespace emit

#endif // EMIT_DIFF_DIFF_H
