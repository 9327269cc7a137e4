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

#include "emit/File/Findings.h"
#include "emit/Support/FileBuffer.h"
#include "emit/Support/FileFormat.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace executorch_flatbuffer {
struct Program;
} // namespace executorch_flatbuffer

namespace emit {

/// Where a segment's bytes lie, relative to the segment base.
struct SegmentPlacement {
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// A program file, open and checked.
class ProgramFile {
public:
  /// Reads and checks the program in `buffer`. What is wrong with it is a
  /// finding; only an empty file, or none, cannot be opened at all.
  static std::unique_ptr<ProgramFile>
  open(std::shared_ptr<const FileBuffer> buffer);

  const std::shared_ptr<const FileBuffer> &getBuffer() const { return buffer; }
  StringRef getBytes() const { return buffer->getBytes(); }
  StringRef getName() const { return buffer->getName(); }
  const FindingList &getFindings() const { return findings; }

  /// Whether every table reads: IR can be built from it. Findings that do
  /// not stop a reader (warnings, the dialect's invariants, fields the
  /// runtime ignores) may remain.
  bool isReadable() const { return readable; }
  /// Whether a finding is one of the dialect's invariants.
  bool breaksInvariants() const;
  /// The first finding for which the import refuses the file, if any.
  const Finding *getImportError() const;
  /// How many findings come before the tables after the segment table
  /// (where an import reports how it lays out the segments).
  size_t getSegmentTableEnd() const { return segmentTableEnd; }

  /// The extended header, as the runtime reads it; none when absent.
  const std::optional<pte::ReadHeader> &getHeader() const { return header; }
  /// The flatbuffer region's size: program_size, or the whole file.
  uint64_t getProgramSize() const { return programSize; }
  /// Where segment data starts; 0 when the file has none.
  uint64_t getSegmentBase() const { return segmentBase; }
  /// The verified flatbuffer; null when the header or verification failed.
  const executorch_flatbuffer::Program *getProgram() const { return program; }
  /// The file offset of an object of the flatbuffer.
  uint64_t offsetOf(const void *object) const {
    return static_cast<const char *>(object) - getBytes().data();
  }

  /// Each entry of the segment table, checked against the file (a bad
  /// entry is empty). For a readable file.
  ArrayRef<SegmentPlacement> getSegmentPlacements() const { return segments; }
  /// The bytes of segment `index`, which lie in the file.
  ArrayRef<char> getSegmentBytes(uint32_t index) const;
  /// The alignment every inline payload has in the file.
  uint64_t getInlineDataAlignment() const { return inlineAlignment; }
  /// The alignment every constant buffer has in the file, if any has
  /// bytes.
  std::optional<uint64_t> getConstantBufferAlignment() const {
    return constantBufferAlignment;
  }

private:
  friend class ProgramChecker;
  explicit ProgramFile(std::shared_ptr<const FileBuffer> buffer)
      : buffer(std::move(buffer)) {}

  std::shared_ptr<const FileBuffer> buffer;
  FindingList findings;
  bool readable = false;
  size_t segmentTableEnd = 0;
  std::optional<pte::ReadHeader> header;
  uint64_t programSize = 0;
  uint64_t segmentBase = 0;
  const executorch_flatbuffer::Program *program = nullptr;
  std::vector<SegmentPlacement> segments;
  uint64_t inlineAlignment = 1;
  std::optional<uint64_t> constantBufferAlignment;
};

} // namespace emit

#endif // EMIT_FILE_PROGRAMFILE_H
