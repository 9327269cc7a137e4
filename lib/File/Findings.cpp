//===- Findings.cpp - The catalogue of the file layer's checks --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/Findings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

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

bool FindingList::hasErrors() const {
  return llvm::any_of(findings, [](const Finding &finding) {
    return finding.severity == Severity::Error;
  });
}
