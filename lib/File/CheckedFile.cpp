//===- CheckedFile.cpp - An open file and what is wrong with it -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/CheckedFile.h"

#include "emit/File/BundleFile.h"
#include "emit/File/DataFile.h"
#include "emit/File/ETDumpFile.h"
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

/// What `bytes` are, as a file to open as `kind`.
static FileKind resolveKind(StringRef bytes, FileKind kind) {
  bool data = isDataFileBuffer(bytes);
  bool bundle = getFileIdentifier(bytes) == pte::kBundledIdentifier;
  switch (kind) {
  case FileKind::Either:
    return data ? FileKind::DataFile : FileKind::Program;
  case FileKind::ProgramOrBundle:
    return bundle ? FileKind::Bundle : FileKind::Program;
  case FileKind::Any:
    return data ? FileKind::DataFile
                : (bundle ? FileKind::Bundle : FileKind::Program);
  default:
    return kind;
  }
}

std::unique_ptr<CheckedFile>
emit::openFile(std::shared_ptr<const FileBuffer> buffer, FileKind kind) {
  switch (resolveKind(buffer->getBytes(), kind)) {
  case FileKind::DataFile:
    return DataFile::open(std::move(buffer));
  case FileKind::Bundle:
    return BundleFile::open(std::move(buffer));
  case FileKind::ETDump:
    return ETDumpFile::open(std::move(buffer));
  default:
    return ProgramFile::open(std::move(buffer));
  }
}

const ProgramFile *emit::getProgramOf(const CheckedFile &file) {
  if (const auto *program = dyn_cast<ProgramFile>(&file))
    return program;
  if (const auto *bundle = dyn_cast<BundleFile>(&file))
    return bundle->getProgram();
  return nullptr;
}

std::unique_ptr<CheckedFile> emit::openFile(PayloadFiles &files, StringRef path,
                                            FileKind kind, std::string &error) {
  std::shared_ptr<const FileBuffer> buffer = files.open(path, error);
  if (!buffer)
    return nullptr;
  return openFile(std::move(buffer), kind);
}

std::unique_ptr<CheckedFile>
emit::openReadableFile(std::shared_ptr<const FileBuffer> buffer, FileKind kind,
                       std::string &error) {
  std::unique_ptr<CheckedFile> file = openFile(std::move(buffer), kind);
  const Finding *refusal = file->getImportError();
  if (!refusal && file->isReadable())
    return file;
  error = ("'" + file->getName() + "' cannot be read").str();
  if (refusal)
    error += (": " + refusal->text() + " (at byte " + Twine(refusal->offset) +
              ", " + refusal->path + ") [" + refusal->check->name + "]")
                 .str();
  return nullptr;
}
