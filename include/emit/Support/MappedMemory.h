//===- MappedMemory.h - Keep file mappings out of the resident set -*- C++ -*-//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Payloads imported from a .pte alias a read-only mapping of the file. Every
// page that is read through the mapping stays in the process's resident set,
// so hashing and writing a multi-GiB program that way would make its peak RSS
// as large as the file. It is also slow: each 4 KiB page costs a fault and a
// page walk (two-level under virtualization), while pread copies from the
// page cache through the kernel's huge-page direct map. So payloads in a
// registered mapping are read with pread into a small buffer (forEachChunk,
// equalBytes) or copied file to file by the kernel (writeBytes), and the
// mapping is only the payload's identity in the IR. Pieces of 1 MiB or more
// in a mapping nobody registered (MLIR's own, of a bytecode file whose
// resources alias it) are found in /proc/self/maps and read the same way.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_MAPPEDMEMORY_H
#define EMIT_SUPPORT_MAPPEDMEMORY_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace emit {

/// Records that `region` is a read-only mapping of a file, starting at its
/// first byte, for as long as this object lives. The file is found from the
/// mapping itself, so its bytes are read from the file that was mapped.
class ScopedFileMapping {
public:
  explicit ScopedFileMapping(ArrayRef<char> region);
  ~ScopedFileMapping();
  ScopedFileMapping(const ScopedFileMapping &) = delete;
  ScopedFileMapping &operator=(const ScopedFileMapping &) = delete;

private:
  ArrayRef<char> region;
  int fd;
};

/// Drops the whole pages of `bytes` from the resident set if they lie in a
/// registered file mapping; does nothing otherwise. Thread-safe.
void releaseMappedPages(ArrayRef<char> bytes);

/// Calls `consume` with consecutive pieces of `bytes`, in order, each at most
/// a few hundred KiB. Pieces of a registered file mapping are read from the
/// file into a per-thread buffer and never enter the resident set; other
/// memory is passed as is. Thread-safe.
void forEachChunk(ArrayRef<char> bytes,
                  llvm::function_ref<void(ArrayRef<char>)> consume);

/// Whether `a` and `b` hold the same bytes, read as forEachChunk reads them.
/// Thread-safe.
bool equalBytes(ArrayRef<char> a, ArrayRef<char> b);

/// A stream buffer size for writeBytes: large pieces, which are larger than
/// this, go past the buffer to the file without another copy.
constexpr size_t kWriteBufferSize = 128 << 10;

/// Writes `bytes` to `os`. Bytes of a mapped input never enter the
/// resident set: from 1 MiB on, and when `os` is a seekable file stream,
/// the kernel copies them file to file (copy_file_range); otherwise they
/// are streamed from the file as forEachChunk reads them.
void writeBytes(raw_ostream &os, ArrayRef<char> bytes);

/// A stream that forwards everything to `target`, except that pieces of
/// 1 MiB or more go through writeBytes. MLIR's bytecode writer writes each
/// resource in one piece from where it lies; when resources alias a mapped
/// file (an imported .pte, a bytecode input), the kernel then copies them
/// into the output file instead of every input page entering the process.
class PayloadStream : public llvm::raw_ostream {
public:
  explicit PayloadStream(llvm::raw_ostream &target)
      : llvm::raw_ostream(/*unbuffered=*/true), target(target) {}

private:
  void write_impl(const char *data, size_t size) override;
  uint64_t current_pos() const override { return target.tell(); }

  llvm::raw_ostream &target;
};

/// Whether every file whose bytes were read through a mapping (registered
/// or found) is as it was when first read: same size and modification
/// time, and every read of it complete. Otherwise returns false and names
/// the file in `error`: output built from it must not be kept. Thread-safe.
bool checkSourcesUnchanged(std::string &error);

/// How many bytes writeBytes has had the kernel copy file to file so far.
uint64_t getKernelCopiedBytes();

} // namespace emit

#endif // EMIT_SUPPORT_MAPPEDMEMORY_H
