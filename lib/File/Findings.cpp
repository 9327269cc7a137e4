//===- Findings.cpp - The catalogue of the file layer's checks --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/Findings.h"

#include "emit/Support/Page.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;

static constexpr FileCheck kChecks[] = {
#define FILE_CHECK(Id, Name, Runtime, Summary)                                 \
  {Check::Id, Name, RuntimeLoad::Runtime, Summary},
#include "emit/File/Checks.def"
};

// The catalogue is indexed by the enum: each entry must sit at its id.
static constexpr bool isIndexedById() {
  for (size_t index = 0; index < std::size(kChecks); ++index)
    if (static_cast<size_t>(kChecks[index].id) != index)
      return false;
  return true;
}
static_assert(isIndexedById(), "kChecks is out of order");

StringRef emit::getRuntimeLoadName(RuntimeLoad load) {
  switch (load) {
  case RuntimeLoad::Loads:
    return "loads";
  case RuntimeLoad::Rejects:
    return "rejects";
  case RuntimeLoad::Crashes:
    return "crashes";
  }
  llvm_unreachable("unknown runtime load");
}

ArrayRef<FileCheck> emit::getFileChecks() { return kChecks; }

const FileCheck &emit::getFileCheck(Check check) {
  return kChecks[static_cast<size_t>(check)];
}

unsigned FindingList::count(Severity severity) const {
  return llvm::count_if(findings, [&](const Finding &finding) {
    return finding.severity == severity;
  });
}

StringRef emit::getSeverityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  llvm_unreachable("unknown severity");
}

llvm::json::Object emit::getFindingJSON(const Finding &finding) {
  return llvm::json::Object{
      {"severity", getSeverityName(finding.severity)},
      {"check", finding.check->name},
      {"file", finding.file},
      {"offset", static_cast<int64_t>(finding.offset)},
      {"path", finding.path},
      {"message", finding.text()},
      {"runtime_load", getRuntimeLoadName(finding.runtime)},
  };
}

void emit::printFindingHTML(const Finding &finding, bool labelled,
                            raw_ostream &os) {
  StringRef severity = getSeverityName(finding.severity);
  os << "<p class=\"finding " << severity << "\">";
  if (labelled)
    os << severity << ": ";
  os << escapeHTML(finding.text()) << " [" << finding.check->name << "]</p>\n";
}

void emit::printFinding(const Finding &finding, raw_ostream &os) {
  os << finding.file << ": at byte " << finding.offset;
  if (!finding.path.empty())
    os << " (" << finding.path << ")";
  os << ": " << getSeverityName(finding.severity) << ": " << finding.text()
     << " [" << finding.check->name << "]\n";
}
