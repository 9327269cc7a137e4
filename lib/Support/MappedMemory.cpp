//===- MappedMemory.cpp - Keep file mappings out of the resident set ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/MappedMemory.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace emit;

namespace {
struct Mapping {
  ArrayRef<char> region;
  int fd; // Read-only descriptor of the mapped file, or -1.
};
struct Registry {
  std::mutex mutex;
  std::vector<Mapping> regions;
};
} // namespace

static Registry &getRegistry() {
  static Registry registry;
  return registry;
}

ScopedFileMapping::ScopedFileMapping(ArrayRef<char> region, StringRef path)
    : region(region), fd(open(path.str().c_str(), O_RDONLY | O_CLOEXEC)) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.regions.push_back({region, fd});
}

ScopedFileMapping::~ScopedFileMapping() {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = std::find_if(registry.regions.begin(), registry.regions.end(),
                         [&](const Mapping &mapping) {
                           return mapping.region.data() == region.data() &&
                                  mapping.region.size() == region.size();
                         });
  if (it != registry.regions.end())
    registry.regions.erase(it);
  if (fd >= 0)
    close(fd);
}

/// The registered mapping holding all of `bytes`, if any.
static std::optional<Mapping> findMapping(ArrayRef<char> bytes) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const Mapping &mapping : registry.regions)
    if (bytes.begin() >= mapping.region.begin() &&
        bytes.end() <= mapping.region.end())
      return mapping;
  return std::nullopt;
}

namespace {
/// Reads a raw_fd_ostream's descriptor, which LLVM 19 keeps protected.
struct FileDescriptorOf : llvm::raw_fd_ostream {
  static int get(const llvm::raw_fd_ostream &stream) {
    return (stream.*(&FileDescriptorOf::get_fd))();
  }
};
} // namespace

void emit::releaseMappedPages(ArrayRef<char> bytes) {
  if (bytes.empty() || !findMapping(bytes))
    return;
  static const uintptr_t pageSize = llvm::sys::Process::getPageSizeEstimate();
  uintptr_t begin = reinterpret_cast<uintptr_t>(bytes.data());
  uintptr_t end = begin + bytes.size();
  begin = (begin + pageSize - 1) & ~(pageSize - 1);
  end &= ~(pageSize - 1);
  if (begin < end)
    (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

void emit::writeBytes(raw_ostream &os, ArrayRef<char> bytes) {
  auto *file = os.get_kind() == raw_ostream::OStreamKind::OK_FDStream
                   ? static_cast<llvm::raw_fd_ostream *>(&os)
                   : nullptr;
  std::optional<Mapping> mapping =
      bytes.size() >= (1 << 20) ? findMapping(bytes) : std::nullopt;
  if (!file || !file->supportsSeeking() || !mapping || mapping->fd < 0) {
    os.write(bytes.data(), bytes.size());
    return;
  }
  file->flush();
  loff_t in = bytes.data() - mapping->region.data();
  loff_t out = file->tell();
  size_t left = bytes.size();
  while (left) {
    ssize_t copied = copy_file_range(
        mapping->fd, &in, FileDescriptorOf::get(*file), &out, left, 0);
    if (copied <= 0)
      break; // Not supported here (or an error): write the rest instead.
    left -= copied;
  }
  file->seek(out);
  if (left)
    os.write(bytes.end() - left, left);
}
