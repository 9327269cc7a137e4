//===- CheckedFile.cpp - An open file and what is wrong with it -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/CheckedFile.h"

#include "emit/File/DataFile.h"
#include "emit/File/ProgramFile.h"

#include "llvm/ADT/STLExtras.h"

using namespace emit;

bool CheckedFile::breaksInvariants() const {
  return llvm::any_of(findings.findings, [](const Finding &finding) {
    return finding.import == ImportEffect::Verifier;
  });
}

const Finding *CheckedFile::getImportError() const {
  for (const Finding &finding : findings.findings)
    if (finding.import == ImportEffect::Refuses ||
        finding.import == ImportEffect::Inexact)
      return &finding;
  return nullptr;
}

void CheckedFile::setReadable() {
  readable = llvm::none_of(findings.findings, [](const Finding &finding) {
    return finding.import == ImportEffect::Refuses;
  });
}

SmallVector<SegmentPlacement> CheckedFile::getSegmentPlacements() const {
  SmallVector<SegmentPlacement> placements;
  placements.reserve(getSegmentCount());
  for (size_t index = 0, count = getSegmentCount(); index < count; ++index)
    placements.push_back(getSegmentPlacement(index));
  return placements;
}

ArrayRef<char> CheckedFile::getSegmentBytes(uint32_t index) const {
  SegmentPlacement segment = getSegmentPlacement(index);
  return ArrayRef<char>(getBytes().data() + segmentBase + segment.offset,
                        segment.size);
}

std::unique_ptr<CheckedFile>
emit::openFile(std::shared_ptr<const FileBuffer> buffer, FileKind kind) {
  bool dataFile =
      kind == FileKind::DataFile ||
      (kind == FileKind::Either && isDataFileBuffer(buffer->getBytes()));
  if (dataFile)
    return DataFile::open(std::move(buffer));
  return ProgramFile::open(std::move(buffer));
}

std::unique_ptr<CheckedFile> emit::openFile(PayloadFiles &files, StringRef path,
                                            FileKind kind, std::string &error) {
  std::shared_ptr<const FileBuffer> buffer = files.open(path, error);
  if (!buffer)
    return nullptr;
  return openFile(std::move(buffer), kind);
}
