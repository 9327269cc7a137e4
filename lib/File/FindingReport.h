//===- FindingReport.h - How the file layer records a finding ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A finding is streamed like a diagnostic (`return error(check, offset,
// path) << "..."`) and recorded when the statement ends. It converts to a
// failure, so that a check returns it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_FILE_FINDINGREPORT_H
#define EMIT_LIB_FILE_FINDINGREPORT_H

#include "emit/File/Findings.h"

#include "flatbuffers/flatbuffers.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace emit {

/// The findings of one file.
class FindingSink {
public:
  FindingSink(StringRef fileName, FindingList &list)
      : fileName(fileName), list(list) {}

  /// Records `finding`, of this file.
  void report(Finding finding);
  /// The execution plan the findings reported from now on are in (none:
  /// of no one method).
  void setMethod(std::optional<unsigned> index) { method = index; }
  std::optional<unsigned> getMethod() const { return method; }
  /// Where in the method they are: an instruction of a chain, or a value.
  struct Site {
    std::optional<uint32_t> chain, instruction, value;
  };
  void setSite(Site where) { site = where; }
  const Site &getSite() const { return site; }

private:
  StringRef fileName;
  FindingList &list;
  std::optional<unsigned> method;
  Site site;
};

/// One finding, recorded when the statement that streams it ends.
class FindingReport {
public:
  FindingReport(FindingSink &sink, Check check, uint64_t offset,
                const llvm::Twine &path);
  FindingReport(const FindingReport &) = delete;
  FindingReport &operator=(const FindingReport &) = delete;
  ~FindingReport();

  template <typename T>
  FindingReport &operator<<(const T &value) {
    os << value;
    return *this;
  }
  /// What the runtime makes of the defect, after the message: emit-verify
  /// reports it, the import's error does not.
  FindingReport &detail(const llvm::Twine &text) {
    finding.detail += text.str();
    return *this;
  }
  /// What the runtime does with this defect, where it is not the check's.
  FindingReport &setRuntime(RuntimeLoad load) {
    finding.runtime = load;
    return *this;
  }
  /// A field the runtime ignores, wrong: a warning, and a file the import
  /// refuses all the same (it cannot represent it exactly).
  FindingReport &ignoredByRuntime() {
    finding.severity = Severity::Warning;
    finding.runtime = RuntimeLoad::Loads;
    finding.import = ImportEffect::Inexact;
    return *this;
  }
  /// One of the dialect's invariants: the import builds the IR and its
  /// verifier reports it.
  FindingReport &invariant() {
    finding.import = ImportEffect::Verifier;
    return *this;
  }
  /// A defect worth a warning, which the import takes as it is.
  FindingReport &warning() {
    finding.severity = Severity::Warning;
    finding.import = ImportEffect::Ignores;
    return *this;
  }
  /// A defect worth a warning, which the import warns of too.
  FindingReport &importWarns() {
    finding.severity = Severity::Warning;
    finding.import = ImportEffect::Warns;
    return *this;
  }
  /// What the import does with it, where it is not what its severity says.
  FindingReport &setImport(ImportEffect effect) {
    finding.import = effect;
    return *this;
  }
  /// Something the import takes as it is.
  FindingReport &importIgnores() {
    finding.import = ImportEffect::Ignores;
    return *this;
  }

  operator mlir::LogicalResult() const { return mlir::failure(); }
  template <typename T>
  operator mlir::FailureOr<T>() const {
    return mlir::failure();
  }

private:
  FindingSink *sink;
  Finding finding;
  llvm::raw_string_ostream os{finding.message};
};

/// The key of entry `index` of a named data table, at `entry` in `file`
/// (`where` its path), checked as the runtime's lookup needs it: present,
/// without a NUL byte, and in no entry before it (`keys`, to which it is
/// added). `table` and `field` name the table and the key's field.
mlir::FailureOr<StringRef>
checkNamedDataKey(FindingSink &findings, StringRef file, const void *entry,
                  const flatbuffers::String *key, StringRef where,
                  unsigned index, llvm::StringMap<unsigned> &keys,
                  StringRef table = "named_data", StringRef field = "key");

/// Warns of each entry `i` of the blob table `table` (`segments`) that
/// nothing names (`named[i]` unset) and that holds bytes: `sizes[i]` of
/// them, its table at file offset `offsets[i]`.
void reportUnnamedData(FindingSink &findings, StringRef table,
                       ArrayRef<uint64_t> offsets, ArrayRef<uint64_t> sizes,
                       const llvm::BitVector &named);

/// What the checkers of every format share: the file they fill in, its
/// bytes, and where its findings go.
template <typename FileT>
class FileChecker {
protected:
  explicit FileChecker(FileT &file)
      : file(file), bytes(file.getBytes()),
        sink(file.getName(), file.findings) {}

  FindingReport error(Check check, uint64_t offset, const llvm::Twine &where) {
    return FindingReport(sink, check, offset, where);
  }
  uint64_t offsetOf(const void *object) const { return file.offsetOf(object); }

  FileT &file;
  StringRef bytes;
  FindingSink sink;
};

/// The detail of a finding on a field the runtime ignores.
inline constexpr llvm::StringLiteral kIgnoredByRuntime =
    "; the runtime ignores it, and emit cannot import the file";

/// Checks that `bytes` are at least `minSize` long and start with
/// identifier `expected` (`ET12`, `FT01`), as a `kind` (`.pte`) file.
mlir::LogicalResult checkIdentifier(FindingSink &findings, StringRef bytes,
                                    StringRef expected, StringRef kind,
                                    uint64_t minSize);

/// Reports that the segment data, from `base` to `end`, does not end the
/// `fileSize`-byte file, at the header's segment_base_offset (byte
/// `fieldOffset` of the header named `headerName`); `recordedSize` when the
/// header records segment_data_size.
void reportSegmentDataEnd(FindingSink &findings, uint64_t fieldOffset,
                          StringRef headerName, uint64_t base, uint64_t end,
                          uint64_t fileSize, bool recordedSize);

} // namespace emit

#endif // EMIT_LIB_FILE_FINDINGREPORT_H
