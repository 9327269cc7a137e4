//===- CheckedFile.h - An open file and what is wrong with it ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the file layer's views of both formats share (ProgramFile.h,
// DataFile.h): the open file, the findings of reading it, and where its
// segments lie. A format's view adds its header and its tables.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_CHECKEDFILE_H
#define EMIT_FILE_CHECKEDFILE_H

#include "emit/File/Findings.h"
#include "emit/Support/FileBuffer.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/Layout.h"
#include "emit/Support/PayloadFiles.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace emit {

using layout::SegmentPlacement;

/// What a file is (Program, DataFile, Bundle, ETDump), and what a file to
/// open may be: Either a program or a data file (a bundle is then opened as
/// a program, which refuses it), ProgramOrBundle, or Any of the three;
/// which one is read off its identifier. A run's profile (ETDump) is only
/// opened as one.
enum class FileKind {
  Program,
  DataFile,
  Bundle,
  ETDump,
  Either,
  ProgramOrBundle,
  Any
};

/// An open file of either format, and the findings of reading it.
class CheckedFile {
public:
  virtual ~CheckedFile() = default;
  /// Program or DataFile (for isa/dyn_cast).
  virtual FileKind getKind() const = 0;
  const std::shared_ptr<const FileBuffer> &getBuffer() const { return buffer; }
  StringRef getBytes() const { return buffer->getBytes(); }
  StringRef getName() const { return buffer->getName(); }
  const FindingList &getFindings() const { return findings; }

  /// Whether every table reads: IR can be built from the file. Findings
  /// that do not stop a reader (warnings, the dialect's invariants, fields
  /// the runtime ignores) may remain.
  bool isReadable() const { return readable; }
  /// Whether a finding is one of the dialect's invariants.
  bool breaksInvariants() const;
  /// The first finding for which the import refuses the file, if any.
  const Finding *getImportError() const;
  /// How many findings come before the tables after the segment table
  /// (where an import reports how it lays out the segments), once the
  /// segment table has read.
  std::optional<size_t> getSegmentTableEnd() const { return segmentTableEnd; }

  /// The bytes of the flatbuffer, with the header inserted in it.
  uint64_t getFlatbufferSize() const { return flatbufferSize; }
  /// Where segment data starts; 0 when the file has none.
  uint64_t getSegmentBase() const { return segmentBase; }
  /// How many entries the segment table has (none without a verified
  /// flatbuffer).
  virtual size_t getSegmentCount() const = 0;
  /// Where entry `index` of the segment table places its bytes.
  virtual SegmentPlacement getSegmentPlacement(uint32_t index) const = 0;
  /// The file offset of entry `index` of the segment table.
  virtual uint64_t getSegmentEntryOffset(uint32_t index) const = 0;
  /// Every entry's placement, for a readable file.
  SmallVector<SegmentPlacement> getSegmentPlacements() const;
  /// The bytes of segment `index` of a readable file, which lie in it.
  ArrayRef<char> getSegmentBytes(uint32_t index) const;
  /// The file offset of an object of the flatbuffer.
  uint64_t offsetOf(const void *object) const {
    return static_cast<const char *>(object) - getBytes().data();
  }

protected:
  template <typename>
  friend class FileChecker;
  explicit CheckedFile(std::shared_ptr<const FileBuffer> buffer)
      : buffer(std::move(buffer)) {}
  /// Sets `readable` from the findings, once the tables are read.
  void setReadable();

  std::shared_ptr<const FileBuffer> buffer;
  FindingList findings;
  bool readable = false;
  std::optional<size_t> segmentTableEnd;
  uint64_t flatbufferSize = 0;
  uint64_t segmentBase = 0;
};

/// Opens and checks `buffer` as a file of `kind`: a data file (DataFile), a
/// bundled program (BundleFile) or a program (ProgramFile).
std::unique_ptr<CheckedFile> openFile(std::shared_ptr<const FileBuffer> buffer,
                                      FileKind kind);

/// Opens and checks the file at `path` through a job's `files`, which map
/// each file once and hold it; null with the reason in `error` when it
/// cannot be read.
std::unique_ptr<CheckedFile> openFile(PayloadFiles &files, StringRef path,
                                      FileKind kind, std::string &error);

/// Opens and checks `buffer` as a file of `kind`: null, with the reason in
/// `error` (the file layer's first refusal, where and why), when it is not
/// one or does not read.
std::unique_ptr<CheckedFile>
openReadableFile(std::shared_ptr<const FileBuffer> buffer, FileKind kind,
                 std::string &error);

class ProgramFile;
/// The program `file` is or, for a bundle, embeds; null for a data file or
/// a bundle whose program does not read.
const ProgramFile *getProgramOf(const CheckedFile &file);

} // namespace emit

#endif // EMIT_FILE_CHECKEDFILE_H
