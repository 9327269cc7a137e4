//===- DataFile.h - A .ptd, open and checked --------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The file layer's view of an ExecuTorch data file (FlatTensor). The
// runtime verifies little of a .ptd, so a damaged one can crash it: opening
// one checks what the format notes' reader checklist asks for, stricter
// than the runtime: the header against the file, the flatbuffer with the
// verifier, every segment against the segment data, every index, key and
// tensor layout.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_DATAFILE_H
#define EMIT_FILE_DATAFILE_H

#include "emit/File/CheckedFile.h"

#include <memory>

namespace flat_tensor_flatbuffer {
struct FlatTensor;
} // namespace flat_tensor_flatbuffer

namespace emit {

/// A data file, open and checked.
class DataFile : public SegmentedFile {
public:
  /// Reads and checks the data file in `buffer`: what is wrong with it is a
  /// finding.
  static std::unique_ptr<DataFile>
  open(std::shared_ptr<const FileBuffer> buffer);

  FileKind getKind() const override { return FileKind::DataFile; }
  static bool classof(const CheckedFile *file) {
    return file->getKind() == FileKind::DataFile;
  }

  /// The header's fields; valid once the header has read.
  const ptd::Header &getHeader() const { return header; }
  /// The verified flatbuffer; null when the header or verification failed.
  const flat_tensor_flatbuffer::FlatTensor *getFlatTensor() const {
    return flatTensor;
  }

  size_t getSegmentCount() const override;
  SegmentPlacement getSegmentPlacement(uint32_t index) const override;
  uint64_t getSegmentEntryOffset(uint32_t index) const override;

private:
  friend class DataFileChecker;
  using SegmentedFile::SegmentedFile;

  ptd::Header header;
  const flat_tensor_flatbuffer::FlatTensor *flatTensor = nullptr;
};

} // namespace emit

#endif // EMIT_FILE_DATAFILE_H
