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

SmallVector<SegmentPlacement> SegmentedFile::getSegmentPlacements() const {
  SmallVector<SegmentPlacement> placements;
  placements.reserve(getSegmentCount());
  for (size_t index = 0, count = getSegmentCount(); index < count; ++index)
    placements.push_back(getSegmentPlacement(index));
  return placements;
}

ArrayRef<char> SegmentedFile::getSegmentBytes(uint32_t index) const {
  SegmentPlacement segment = getSegmentPlacement(index);
  return ArrayRef<char>(getBytes().data() + segmentBase + segment.offset,
                        segment.size);
}

std::optional<ArrayRef<char>>
SegmentedFile::findSegmentBytes(uint32_t index) const {
  if (index >= getSegmentCount() || segmentBase == 0)
    return std::nullopt;
  SegmentPlacement segment = getSegmentPlacement(index);
  uint64_t size = getBytes().size();
  if (segmentBase > size || segment.offset > size - segmentBase ||
      segment.size > size - segmentBase - segment.offset)
    return std::nullopt;
  return getSegmentBytes(index);
}

/// What `bytes` are, as a file to open as `kind`.
static FileKind resolveKind(StringRef bytes, OpenAs kind) {
  bool data = isDataFileBuffer(bytes);
  bool bundle = getFileIdentifier(bytes) == pte::kBundledIdentifier;
  switch (kind) {
  case OpenAs::ProgramOrDataFile:
    return data ? FileKind::DataFile : FileKind::Program;
  case OpenAs::ProgramOrBundle:
    return bundle ? FileKind::Bundle : FileKind::Program;
  case OpenAs::Any:
    return data ? FileKind::DataFile
                : (bundle ? FileKind::Bundle : FileKind::Program);
  case OpenAs::Program:
    return FileKind::Program;
  case OpenAs::DataFile:
    return FileKind::DataFile;
  case OpenAs::Bundle:
    return FileKind::Bundle;
  case OpenAs::ETDump:
    return FileKind::ETDump;
  }
  llvm_unreachable("unknown way to open a file");
}

std::unique_ptr<CheckedFile>
emit::openFile(std::shared_ptr<const FileBuffer> buffer, OpenAs kind) {
  switch (resolveKind(buffer->getBytes(), kind)) {
  case FileKind::DataFile:
    return DataFile::open(std::move(buffer));
  case FileKind::Bundle:
    return BundleFile::open(std::move(buffer));
  case FileKind::ETDump:
    return ETDumpFile::open(std::move(buffer));
  case FileKind::Program:
    return ProgramFile::open(std::move(buffer));
  }
  llvm_unreachable("unknown file kind");
}

std::unique_ptr<CheckedFile> emit::openReadableFile(PayloadFiles &files,
                                                    StringRef path, OpenAs kind,
                                                    std::string &error) {
  std::string why;
  std::shared_ptr<const FileBuffer> buffer = files.open(path, why);
  if (!buffer) {
    error = cannotRead(path, why);
    return nullptr;
  }
  return openReadableFile(std::move(buffer), kind, error);
}

FailureOr<std::vector<std::unique_ptr<CheckedFile>>>
emit::openDataFiles(PayloadFiles &files, ArrayRef<std::string> paths,
                    std::string &error) {
  std::vector<std::unique_ptr<CheckedFile>> opened;
  for (const std::string &path : paths) {
    opened.push_back(openReadableFile(files, path, OpenAs::DataFile, error));
    if (!opened.back())
      return failure();
  }
  return opened;
}

const ProgramFile *emit::getProgramOf(const CheckedFile &file) {
  if (const auto *program = dyn_cast<ProgramFile>(&file))
    return program;
  if (const auto *bundle = dyn_cast<BundleFile>(&file))
    return bundle->getProgram();
  return nullptr;
}

std::unique_ptr<CheckedFile> emit::openFile(PayloadFiles &files, StringRef path,
                                            OpenAs kind, std::string &error) {
  std::shared_ptr<const FileBuffer> buffer = files.open(path, error);
  if (!buffer)
    return nullptr;
  return openFile(std::move(buffer), kind);
}

std::unique_ptr<CheckedFile>
emit::openReadableFile(std::shared_ptr<const FileBuffer> buffer, OpenAs kind,
                       std::string &error) {
  std::unique_ptr<CheckedFile> file = openFile(std::move(buffer), kind);
  if (!file->getImportError() && file->isReadable())
    return file;
  error = describeRefusal(*file);
  return nullptr;
}

std::string emit::describeRefusal(const CheckedFile &file, StringRef verb) {
  std::string text = ("'" + file.getName() + "' " + verb).str();
  if (const Finding *refusal = file.getImportError())
    text += (": " + refusal->text() + " (at byte " + Twine(refusal->offset) +
             ", " + refusal->path + ") [" + refusal->check->name + "]")
                .str();
  return text;
}
