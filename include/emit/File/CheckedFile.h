//===- CheckedFile.h - An open file and what is wrong with it ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the file layer's views of every format share (ProgramFile.h,
// DataFile.h, BundleFile.h, ETDumpFile.h): the open file and the findings
// of reading it; a program's and a data file's, where their segments lie
// (SegmentedFile). A format's view adds its header and its tables.
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

/// What a file is, as its identifier says.
enum class FileKind { Program, DataFile, Bundle, ETDump };

/// What a caller opens a file as: one kind, or whichever of several the
/// file's identifier says it is. ProgramOrDataFile opens a bundle as a
/// program, which refuses it; Any is a program, a data file or a bundle. A
/// run's profile (ETDump) is only opened as one.
enum class OpenAs {
  Program,
  DataFile,
  Bundle,
  ETDump,
  ProgramOrDataFile,
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

  /// The bytes of the flatbuffer, with the header inserted in it.
  uint64_t getFlatbufferSize() const { return flatbufferSize; }
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
  uint64_t flatbufferSize = 0;
};

/// A file whose flatbuffer lists segments of data after it: a program or a
/// data file (a bundle embeds a program; an ETDump has none).
class SegmentedFile : public CheckedFile {
public:
  static bool classof(const CheckedFile *file) {
    return file->getKind() == FileKind::Program ||
           file->getKind() == FileKind::DataFile;
  }

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
  /// The bytes of segment `index`, of any file: none when the table has no
  /// such entry, the file no segment data, or its bytes do not lie whole
  /// in the file.
  std::optional<ArrayRef<char>> findSegmentBytes(uint32_t index) const;
  /// How many findings come before the tables after the segment table
  /// (where an import reports how it lays out the segments), once the
  /// segment table has read.
  std::optional<size_t> getSegmentTableEnd() const { return segmentTableEnd; }

protected:
  using CheckedFile::CheckedFile;

  uint64_t segmentBase = 0;
  std::optional<size_t> segmentTableEnd;
};

/// Opens and checks `buffer` as a file of `kind`: a data file (DataFile), a
/// bundled program (BundleFile) or a program (ProgramFile).
std::unique_ptr<CheckedFile> openFile(std::shared_ptr<const FileBuffer> buffer,
                                      OpenAs kind);

/// Opens and checks the file at `path` through a job's `files`, which map
/// each file once and hold it; null with the reason in `error` when it
/// cannot be read.
std::unique_ptr<CheckedFile> openFile(PayloadFiles &files, StringRef path,
                                      OpenAs kind, std::string &error);

/// What a tool says of `file`, which does not read: `'NAME' <verb>: ` and
/// the file layer's first refusal, where and why.
std::string describeRefusal(const CheckedFile &file,
                            StringRef verb = "cannot be read");

/// Opens and checks `buffer` as a file of `kind`: null, with the reason in
/// `error` (the file layer's first refusal, where and why), when it is not
/// one or does not read.
std::unique_ptr<CheckedFile>
openReadableFile(std::shared_ptr<const FileBuffer> buffer, OpenAs kind,
                 std::string &error);

/// Opens and checks the file at `path` through a job's `files` as `kind`:
/// null, with what to say in `error` (that it cannot be read, or the file
/// layer's first refusal), when it cannot be read or does not read. How
/// every tool opens its inputs.
std::unique_ptr<CheckedFile> openReadableFile(PayloadFiles &files,
                                              StringRef path, OpenAs kind,
                                              std::string &error);

/// The data files at `paths`, each opened as openReadableFile opens it,
/// in order: what a job loads its program with. Fails at the first that
/// cannot be read or does not read, with what to say in `error`.
FailureOr<std::vector<std::unique_ptr<CheckedFile>>>
openDataFiles(PayloadFiles &files, ArrayRef<std::string> paths,
              std::string &error);

class ProgramFile;
/// The program `file` is or, for a bundle, embeds; null for a data file or
/// a bundle whose program does not read.
const ProgramFile *getProgramOf(const CheckedFile &file);

} // namespace emit

#endif // EMIT_FILE_CHECKEDFILE_H
