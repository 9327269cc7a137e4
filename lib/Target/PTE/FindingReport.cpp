//===- FindingReport.cpp - How the importers report a finding --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FindingReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

using namespace emit;
using namespace emit::legacy;

FindingReport::FindingReport(FindingSink &sink, Check check, uint64_t offset,
                             const llvm::Twine &path)
    : sink(&sink) {
  const FileCheck &entry = getFileCheck(check);
  finding.severity = Severity::Error;
  finding.check = &entry;
  finding.offset = offset;
  finding.path = path.str();
  finding.runtime = entry.runtime;
  finding.import = ImportEffect::Refuses;
}

FindingReport::~FindingReport() {
  os.flush();
  sink->report(std::move(finding));
}

void FindingSink::report(Finding finding) {
  if (list) {
    finding.file = fileName.str();
    list->findings.push_back(std::move(finding));
    return;
  }
  if (finding.severity != Severity::Error &&
      finding.import != ImportEffect::Inexact)
    return;
  mlir::emitError(location) << "at byte " << finding.offset << " ("
                            << finding.path << "): " << finding.message;
}

mlir::LogicalResult
FindingSink::capture(const Place &place,
                     llvm::function_ref<mlir::LogicalResult()> body) {
  if (!list)
    return body();
  mlir::ScopedDiagnosticHandler handler(
      location.getContext(), [&](mlir::Diagnostic &diag) {
        if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::success(); // Notes and warnings add nothing here.
        FindingReport(*this, place.check, place.offset, place.path)
            << diag.str();
        return mlir::success();
      });
  return body();
}

mlir::FailureOr<StringRef> emit::legacy::checkNamedDataKey(
    FindingSink &findings, StringRef file, const void *entry,
    const flatbuffers::String *key, StringRef where, unsigned index,
    llvm::StringMap<unsigned> &keys) {
  auto offsetOf = [&](const void *object) -> uint64_t {
    return static_cast<const char *>(object) - file.data();
  };
  const Check check = Check::NamedDataKey;
  std::string path = (where + ".key").str();
  if (!key)
    return FindingReport(findings, check, offsetOf(entry), path)
           << "the key is missing";
  StringRef name = key->string_view();
  if (name.contains('\0'))
    return FindingReport(findings, check, offsetOf(key), path)
           << "the key holds a NUL byte, which the runtime's lookup cannot "
              "match";
  // The runtime merges a program's data files into one map and refuses a
  // key that is there twice, even within one file.
  if (!keys.try_emplace(name, index).second)
    return FindingReport(findings, check, offsetOf(entry), path)
           << "key '" << name << "' is also named_data[" << keys.lookup(name)
           << "]";
  return name;
}

void emit::legacy::reportUnnamedData(FindingSink &findings, StringRef table,
                                     ArrayRef<uint64_t> offsets,
                                     ArrayRef<uint64_t> sizes,
                                     const llvm::BitVector &named) {
  if (!findings.collecting())
    return;
  for (auto [index, size] : llvm::enumerate(sizes)) {
    if ((index < named.size() && named.test(index)) || size == 0)
      continue; // An empty entry costs its table row only.
    FindingReport(findings, Check::UnusedData, offsets[index],
                  table + "[" + Twine(index) + "]")
            .warning()
        << "nothing names these " << size
        << " bytes: the file carries them for nothing";
  }
}
