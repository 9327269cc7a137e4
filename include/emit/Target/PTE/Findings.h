//===- Findings.h - What is wrong with a .pte or .ptd file ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The importers check every header field, table and index of a file as
// they read it. Each check has a stable name and what ExecuTorch's runtime
// does with a file that fails it. An import either stops at the first
// finding (as a diagnostic) or, given a FindingList, records every finding
// and reads on past the bad entry: emit-verify is that second mode.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_TARGET_PTE_FINDINGS_H
#define EMIT_TARGET_PTE_FINDINGS_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace emit {

/// What ExecuTorch's runtime does, at load, with a file that fails a check:
/// `Program::load` with InternalConsistency verification, then `load_method`
/// of every method.
enum class RuntimeLoad {
  /// Loads it; the defect may still fail or read out of bounds when a
  /// method runs (the finding's message says so).
  Loads,
  /// Refuses it with an error.
  Rejects,
  /// Reads out of bounds or dereferences null while loading it.
  Crashes,
};

/// The name of `load` as emit-verify prints it.
StringRef getRuntimeLoadName(RuntimeLoad load);

/// One kind of defect a file can have.
struct FileCheck {
  /// Stable, kebab-case: `value-index`, `segment-range`, ...
  const char *name;
  /// What the runtime does with a file that fails it.
  RuntimeLoad runtime;
  /// One line for the docs and SARIF rules.
  const char *summary;
};

/// Every check the importers make, in the order of the docs.
ArrayRef<FileCheck> getFileChecks();
/// The check named `name`; every caller names one of getFileChecks().
const FileCheck &getFileCheck(StringRef name);

enum class Severity { Error, Warning };

/// One defect of one file.
struct Finding {
  Severity severity;
  const FileCheck *check;
  /// The file as the user named it.
  std::string file;
  /// Byte offset of the table or field in the file.
  uint64_t offset;
  /// Where in the file's tables: `execution_plan[1].delegates[2].processed`.
  std::string path;
  std::string message;
  /// What the runtime does with this defect, when it differs from the
  /// check's (an operator index the runtime only sometimes checks).
  RuntimeLoad runtime;
};

/// The findings of one or more imports, in the order found.
struct FindingList {
  std::vector<Finding> findings;

  /// Whether any finding is an error.
  bool hasErrors() const;
};

} // namespace emit

#endif // EMIT_TARGET_PTE_FINDINGS_H
