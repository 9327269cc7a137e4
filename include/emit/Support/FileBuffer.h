//===- FileBuffer.h - The bytes of one open file ----------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every file emit reads is opened once, as a FileBuffer, and shared by
// whatever refers to its bytes: the file layer that checks it, the IR that
// aliases or names its payloads, the job that resolves payload references.
// It lives as long as the last of them holds it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_FILEBUFFER_H
#define EMIT_SUPPORT_FILEBUFFER_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace emit {
class MappedFile;

/// The bytes of one file: a file mapped read-only and registered
/// (MappedFile: its bytes are read with pread, never through the mapping),
/// or bytes in memory (standard input, a caller's buffer).
class FileBuffer {
public:
  /// Maps the file at `path`, named `name` (by default its path), or
  /// returns null with the reason (as strerror gives it) in `error`.
  static std::shared_ptr<const FileBuffer>
  open(StringRef path, std::string &error, StringRef name = "");
  /// Holds bytes read into memory (standard input).
  static std::shared_ptr<const FileBuffer>
  hold(std::unique_ptr<llvm::MemoryBuffer> buffer);
  /// Views `bytes`, named `name` (`<bytes>`), which the caller keeps alive
  /// for as long as this lives.
  static std::shared_ptr<const FileBuffer> view(StringRef bytes,
                                                StringRef name);
  /// Bytes `offset` to `offset + size` of `whole`, which it holds, named
  /// `name` (a program embedded in a bundle).
  static std::shared_ptr<const FileBuffer>
  slice(std::shared_ptr<const FileBuffer> whole, uint64_t offset, uint64_t size,
        StringRef name);
  ~FileBuffer();

  StringRef getBytes() const { return bytes; }
  /// The file as the user named it, or `<stdin>` and the like.
  StringRef getName() const { return name; }
  /// Whether the bytes are a file's, which IR can name by its path (a
  /// slice's: the file it is of).
  bool isFile() const { return whole ? whole->isFile() : mapped != nullptr; }
  /// The buffer a slice is of (the file, for a bundle's program); this one
  /// when it is no slice.
  const FileBuffer &getFile() const { return whole ? whole->getFile() : *this; }
  /// Where these bytes start in getFile().
  uint64_t getOffsetInFile() const {
    return bytes.data() - getFile().bytes.data();
  }
  llvm::MemoryBufferRef getMemBufferRef() const {
    return llvm::MemoryBufferRef(bytes, name);
  }
  /// A buffer that views the bytes (for a SourceMgr), valid while this
  /// lives.
  std::unique_ptr<llvm::MemoryBuffer> getView() const;

private:
  FileBuffer() = default;
  std::unique_ptr<MappedFile> mapped;
  std::unique_ptr<llvm::MemoryBuffer> held;
  std::shared_ptr<const FileBuffer> whole;
  StringRef bytes;
  std::string name;
};

} // namespace emit

#endif // EMIT_SUPPORT_FILEBUFFER_H
