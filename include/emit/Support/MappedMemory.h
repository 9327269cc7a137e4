//===- MappedMemory.h - Keep file mappings out of the resident set -*- C++ -*-//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Payloads imported from a .pte alias a read-only mapping of the file. Every
// page that is read stays in the process's resident set, so hashing and
// writing a multi-GiB program would make its peak RSS as large as the file.
// Once a payload has been consumed, its pages can be dropped from the
// process: they stay in the page cache and fault back in if read again.
// That is only safe for file mappings, so mappings are registered first.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_MAPPEDMEMORY_H
#define EMIT_SUPPORT_MAPPEDMEMORY_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"

namespace emit {

/// Records that `region` is a read-only mapping of the file at `path`,
/// starting at its first byte, for as long as this object lives.
class ScopedFileMapping {
public:
  ScopedFileMapping(ArrayRef<char> region, StringRef path);
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

/// Writes `bytes` to `os`. When they lie in a registered file mapping and
/// `os` is a seekable file, the kernel copies them file to file
/// (copy_file_range), without passing through this process; otherwise
/// they are written as usual.
void writeBytes(raw_ostream &os, ArrayRef<char> bytes);

} // namespace emit

#endif // EMIT_SUPPORT_MAPPEDMEMORY_H
