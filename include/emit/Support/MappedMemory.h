//===- MappedMemory.h - Keep file mappings out of the resident set -*- C++ -*-//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Payload bytes are views of read-only mappings of the files they come from
// (MappedFile). Every page that is read through a mapping stays in the
// process's resident set, so hashing and writing a multi-GiB program that
// way would make its peak RSS as large as the file. It is also slow: each
// 4 KiB page costs a fault and a page walk (two-level under virtualization),
// while pread copies from the page cache through the kernel's huge-page
// direct map. So bytes in a mapping opened here are read with pread into a
// small buffer (forEachChunk, equalBytes) or copied file to file by the
// kernel (writeBytes), and the mapping is only their identity in memory.
// Every such file is recorded with its size and modification time, so that
// no output is kept if it changes while the tool runs.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_MAPPEDMEMORY_H
#define EMIT_SUPPORT_MAPPEDMEMORY_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace emit {

/// A file mapped read-only (or read, when too small to map) and registered
/// for as long as this lives: its bytes are then read with pread and copied
/// by the kernel, never through the mapping, and the file is recorded as a
/// source (checkSourcesUnchanged).
class MappedFile {
public:
  /// Opens and maps `path`, or returns null with the reason (as strerror
  /// gives it) in `error`.
  static std::unique_ptr<MappedFile> open(StringRef path, std::string &error);
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  ArrayRef<char> getBytes() const;
  const llvm::MemoryBuffer &getBuffer() const { return *buffer; }
  /// A buffer that views the bytes (for a SourceMgr), valid while this
  /// lives.
  std::unique_ptr<llvm::MemoryBuffer> getView() const;

private:
  MappedFile() = default;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  int fd = -1; // Of the mapped file, when registered.
};

/// Drops the whole pages of `bytes` from the resident set if they lie in a
/// MappedFile; does nothing otherwise. Thread-safe.
void releaseMappedPages(ArrayRef<char> bytes);

/// Calls `consume` with consecutive pieces of `bytes`, in order, each at most
/// a few hundred KiB. Pieces of a MappedFile are read from the
/// file into a per-thread buffer and never enter the resident set; other
/// memory is passed as is. Thread-safe.
void forEachChunk(ArrayRef<char> bytes,
                  llvm::function_ref<void(ArrayRef<char>)> consume);

/// Copies the first `out.size()` bytes of `bytes` (which must have as many)
/// into `out`, read as forEachChunk reads them: a look at a payload's
/// header that brings none of its pages into the resident set. Thread-safe.
void copyFront(ArrayRef<char> bytes, MutableArrayRef<char> out);

/// Whether `a` and `b` hold the same bytes, read as forEachChunk reads them.
/// Thread-safe.
/// With `readAheadA` (`readAheadB`), a short read of `a` (`b`) fills its
/// per-thread buffer (kReadAheadSize bytes from its start), for a neighbour
/// in the file compared next.
bool equalBytes(ArrayRef<char> a, ArrayRef<char> b, bool readAheadA = false,
                bool readAheadB = false);

/// The most bytes one read of a file reads: large enough to amortize a
/// system call, small enough to stay in L2.
constexpr size_t kReadAheadSize = 256 << 10;

/// A stream buffer size for writeBytes: large pieces, which are larger than
/// this, go past the buffer to the file without another copy.
constexpr size_t kWriteBufferSize = 128 << 10;

/// Writes `bytes` to `os`. Bytes of a MappedFile never enter the resident
/// set: from 1 MiB on, and when `os` is a seekable file stream, the kernel
/// copies them file to file (copy_file_range); otherwise they are streamed
/// from the file as forEachChunk reads them.
void writeBytes(raw_ostream &os, ArrayRef<char> bytes);

/// Whether every MappedFile opened so far is as it was when opened (same
/// size and modification time) and every read of one was complete.
/// Otherwise returns false and names the file in `error`: output built from
/// it must not be kept. Thread-safe.
bool checkSourcesUnchanged(std::string &error);

/// How many bytes writeBytes has had the kernel copy file to file so far.
uint64_t getKernelCopiedBytes();

} // namespace emit

#endif // EMIT_SUPPORT_MAPPEDMEMORY_H
