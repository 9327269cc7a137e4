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
// tensor layout. A file in ExecuTorch 0.6's layout (another schema under
// the same identifier and version) is told apart by its tables and read
// with that schema.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_DATAFILE_H
#define EMIT_FILE_DATAFILE_H

#include "emit/File/CheckedFile.h"

#include <memory>

namespace flat_tensor_flatbuffer {
struct FlatTensor;
} // namespace flat_tensor_flatbuffer
namespace flat_tensor_0_6_flatbuffer {
struct FlatTensor;
} // namespace flat_tensor_0_6_flatbuffer

namespace emit {

/// The FlatTensor schema a data file is written in.
enum class DataFileLayout : uint8_t {
  /// 0.7 and later: named data, each with an optional tensor layout.
  Current,
  /// 0.6: a tensor table (name, layout, segment and offset) beside named
  /// data; 0.7 and later misread it.
  Release0_6,
};

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
  /// The schema the flatbuffer verified with; valid once it has.
  DataFileLayout getLayout() const { return layout; }
  /// The verified flatbuffer of a file in the current layout; null when the
  /// header or verification failed, or the file is in 0.6's layout.
  const flat_tensor_flatbuffer::FlatTensor *getFlatTensor() const {
    return flatTensor;
  }
  /// The verified flatbuffer of a file in 0.6's layout, or null.
  const flat_tensor_0_6_flatbuffer::FlatTensor *getFlatTensor0_6() const {
    return flatTensor0_6;
  }

  size_t getSegmentCount() const override;
  SegmentPlacement getSegmentPlacement(uint32_t index) const override;
  uint64_t getSegmentEntryOffset(uint32_t index) const override;

private:
  friend class DataFileChecker;
  using SegmentedFile::SegmentedFile;

  ptd::Header header;
  DataFileLayout layout = DataFileLayout::Current;
  const flat_tensor_flatbuffer::FlatTensor *flatTensor = nullptr;
  const flat_tensor_0_6_flatbuffer::FlatTensor *flatTensor0_6 = nullptr;
};

} // namespace emit

#endif // EMIT_FILE_DATAFILE_H
