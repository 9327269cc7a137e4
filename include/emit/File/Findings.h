//===- Findings.h - What is wrong with a file emit reads --------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The file layer checks every header field, table and index of a file as
// it reads it, and records what it finds. Each check is declared once, in
// Checks.def: a name, what ExecuTorch's runtime does with a file that fails
// it, and a summary. Each finding says where (byte offset and table path),
// what, what the runtime does, and what importing the file does with it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_FINDINGS_H
#define EMIT_FILE_FINDINGS_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace emit {

/// What ExecuTorch's runtime does, at load, with a file that fails a check:
/// `Program::load` with InternalConsistency verification, then `load_method`
/// of every method.
enum class RuntimeLoad : uint8_t {
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

/// Every check, by the name code gives it (Checks.def).
enum class Check : uint8_t {
#define FILE_CHECK(Id, Name, Runtime, Summary) Id,
#include "emit/File/Checks.def"
};

/// One kind of defect a file can have.
struct FileCheck {
  Check id;
  /// Stable, kebab-case: `value-index`, `segment-range`, ...
  const char *name;
  /// What the runtime does with a file that fails it.
  RuntimeLoad runtime;
  /// One line for the docs and SARIF rules.
  const char *summary;
};

/// Every check, in the order of the docs.
ArrayRef<FileCheck> getFileChecks();
/// The catalogue's entry for `check`.
const FileCheck &getFileCheck(Check check);

/// How much a finding matters: an error fails emit-verify, a warning fails
/// it with --warnings-as-errors, a note never does (a fact worth knowing:
/// memory a plan wastes).
enum class Severity : uint8_t { Error, Warning, Note };

/// "error", "warning" or "note", as reports (and SARIF's levels) say it.
StringRef getSeverityName(Severity severity);

/// What importing the file does with a finding.
enum class ImportEffect : uint8_t {
  /// No IR can be built: the import stops with the finding as its error.
  Refuses,
  /// IR could be built, but would not hold the file exactly (a header
  /// field the runtime ignores): the import refuses the file all the same.
  Inexact,
  /// IR can be built, and the dialect's verifier refuses it: the import
  /// reports the verifier's error.
  Verifier,
  /// The import warns, and goes on.
  Warns,
  /// The import takes the file as it is.
  Ignores,
};

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
  /// What is wrong, as the import says it too.
  std::string message;
  /// What the runtime makes of it, where that needs saying: emit-verify
  /// prints it after the message.
  std::string detail;
  /// What the runtime does with this defect, when it differs from the
  /// check's (an operator index the runtime only sometimes checks).
  RuntimeLoad runtime;
  ImportEffect import;
  /// The execution plan it is in, for a finding of one method; there, the
  /// instruction (chain and index in it) or the value it is of, if one.
  std::optional<unsigned> method = std::nullopt;
  std::optional<uint32_t> chain = std::nullopt;
  std::optional<uint32_t> instruction = std::nullopt;
  std::optional<uint32_t> value = std::nullopt;

  /// The message with its detail, as emit-verify reports it.
  std::string text() const { return message + detail; }
};

/// `finding` as a JSON object: severity, check, file, offset, path,
/// message, runtime_load (the emit-verify-1 and emit-memory-1 schemas).
llvm::json::Object getFindingJSON(const Finding &finding);
/// `finding` as a line in emit's diagnostic style:
/// `FILE: at byte N (PATH): error: MESSAGE [check]`.
void printFinding(const Finding &finding, raw_ostream &os);
/// `finding` as a paragraph of a page, of class `finding SEVERITY`: its
/// text and check, after its severity when `labelled`.
void printFindingHTML(const Finding &finding, bool labelled, raw_ostream &os);

/// The findings of one or more files, in the order found.
struct FindingList {
  std::vector<Finding> findings;

  /// How many findings are of `severity`.
  unsigned count(Severity severity) const;
  /// Whether any finding is an error.
  bool hasErrors() const { return count(Severity::Error) != 0; }
};

} // namespace emit

#endif // EMIT_FILE_FINDINGS_H
