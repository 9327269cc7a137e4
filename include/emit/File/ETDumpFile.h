//===- ETDumpFile.h - An ETDump (.etdp), open and checked -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The file layer's view of a run's profile: what ExecuTorch's ETDumpGen
// wrote (`ED00`, schema/etdump.fbs), a flatbuffer after a 4-byte size
// prefix. The prefix and the identifier (at byte 8, after the prefix and the
// root offset) are read here, not by a generated verifier: flatcc's reads a
// size-prefixed buffer's identifier at the wrong offset. Every offset in a
// finding is one in the file.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_ETDUMPFILE_H
#define EMIT_FILE_ETDUMPFILE_H

#include "emit/File/CheckedFile.h"

#include <memory>

namespace etdump {
struct ETDump;
} // namespace etdump

namespace emit {

/// Whether `bytes` look like an ETDump: its identifier after a size prefix.
bool isETDumpBuffer(StringRef bytes);

/// A run's profile, open and checked.
class ETDumpFile : public CheckedFile {
public:
  /// Reads and checks the ETDump in `buffer`.
  static std::unique_ptr<ETDumpFile>
  open(std::shared_ptr<const FileBuffer> buffer);

  FileKind getKind() const override { return FileKind::ETDump; }
  static bool classof(const CheckedFile *file) {
    return file->getKind() == FileKind::ETDump;
  }

  /// The verified flatbuffer; null when the file does not read.
  const etdump::ETDump *getETDump() const { return etdump; }

  /// An ETDump has no segments.

private:
  friend class ETDumpChecker;
  using CheckedFile::CheckedFile;

  const etdump::ETDump *etdump = nullptr;
};

} // namespace emit

#endif // EMIT_FILE_ETDUMPFILE_H
