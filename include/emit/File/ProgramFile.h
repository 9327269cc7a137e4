//===- ProgramFile.h - A .pte, open and checked -----------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The file layer's view of an ExecuTorch program: opening one reads its
// extended header as the runtime reads it, verifies the flatbuffer once,
// then reads every table and records what is wrong (Findings.h): the
// format's rules, the runtime's load rules and the dialect's invariants on
// plain values (ETInvariants.h). Nothing here builds IR: the importer
// builds it from a file that reads (isReadable), emit-verify reports the
// findings.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_PROGRAMFILE_H
#define EMIT_FILE_PROGRAMFILE_H

#include "emit/File/CheckedFile.h"

#include <memory>
#include <optional>

namespace executorch_flatbuffer {
struct Program;
} // namespace executorch_flatbuffer

namespace emit {

/// A program file, open and checked.
class ProgramFile : public SegmentedFile {
public:
  /// Reads and checks the program in `buffer`: what is wrong with it is a
  /// finding.
  static std::unique_ptr<ProgramFile>
  open(std::shared_ptr<const FileBuffer> buffer);

  FileKind getKind() const override { return FileKind::Program; }
  static bool classof(const CheckedFile *file) {
    return file->getKind() == FileKind::Program;
  }

  /// The extended header, as the runtime reads it; none when absent.
  const std::optional<pte::ReadHeader> &getHeader() const { return header; }
  /// The flatbuffer region's size: program_size, or the whole file.
  uint64_t getProgramSize() const { return programSize; }
  /// The verified flatbuffer; null when the header or verification failed.
  const executorch_flatbuffer::Program *getProgram() const { return program; }

  size_t getSegmentCount() const override;
  SegmentPlacement getSegmentPlacement(uint32_t index) const override;
  uint64_t getSegmentEntryOffset(uint32_t index) const override;

  /// The alignment every inline payload has in the file.
  uint64_t getInlineDataAlignment() const { return inlineAlignment; }
  /// The alignment every constant buffer has in the file, if any has
  /// bytes.
  std::optional<uint64_t> getConstantBufferAlignment() const {
    return constantBufferAlignment;
  }

private:
  friend class ProgramChecker;
  using SegmentedFile::SegmentedFile;

  std::optional<pte::ReadHeader> header;
  uint64_t programSize = 0;
  const executorch_flatbuffer::Program *program = nullptr;
  uint64_t inlineAlignment = 1;
  std::optional<uint64_t> constantBufferAlignment;
};

} // namespace emit

#endif // EMIT_FILE_PROGRAMFILE_H
