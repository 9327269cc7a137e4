//===- MappedMemory.cpp - Keep file mappings out of the resident set ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/MappedMemory.h"

#include "llvm/Support/Process.h"

#include <algorithm>
#include <mutex>
#include <sys/mman.h>
#include <vector>

using namespace emit;

namespace {
struct Registry {
  std::mutex mutex;
  std::vector<ArrayRef<char>> regions;
};
} // namespace

static Registry &getRegistry() {
  static Registry registry;
  return registry;
}

ScopedFileMapping::ScopedFileMapping(ArrayRef<char> region) : region(region) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.regions.push_back(region);
}

ScopedFileMapping::~ScopedFileMapping() {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = std::find_if(
      registry.regions.begin(), registry.regions.end(), [&](ArrayRef<char> r) {
        return r.data() == region.data() && r.size() == region.size();
      });
  if (it != registry.regions.end())
    registry.regions.erase(it);
}

void emit::releaseMappedPages(ArrayRef<char> bytes) {
  if (bytes.empty())
    return;
  {
    Registry &registry = getRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    bool mapped = llvm::any_of(registry.regions, [&](ArrayRef<char> region) {
      return bytes.begin() >= region.begin() && bytes.end() <= region.end();
    });
    if (!mapped)
      return;
  }
  static const uintptr_t pageSize = llvm::sys::Process::getPageSizeEstimate();
  uintptr_t begin = reinterpret_cast<uintptr_t>(bytes.data());
  uintptr_t end = begin + bytes.size();
  begin = (begin + pageSize - 1) & ~(pageSize - 1);
  end &= ~(pageSize - 1);
  if (begin < end)
    (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}
