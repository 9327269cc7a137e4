//===- FlatbufferAllocator.cpp - Grow a flatbuffer without copies ---------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FlatbufferAllocator.h"

#include "llvm/Support/ErrorHandling.h"

#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

using namespace emit;

/// A flatbuffer is at most 2 GiB (32-bit offsets); address space for that
/// costs nothing until used.
static constexpr size_t kRangeSize = size_t(1) << 31;

ReservedRangeAllocator::~ReservedRangeAllocator() { release(); }

void ReservedRangeAllocator::release() {
  if (rangeBegin)
    munmap(rangeBegin, rangeSize);
  rangeBegin = nullptr;
  rangeSize = 0;
}

bool ReservedRangeAllocator::inRange(const uint8_t *p, size_t size) const {
  return rangeBegin && p >= rangeBegin && size <= rangeSize &&
         p + size == rangeBegin + rangeSize;
}

uint8_t *ReservedRangeAllocator::allocate(size_t size) {
  if (!rangeBegin && size <= kRangeSize) {
    void *p = mmap(nullptr, kRangeSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      rangeBegin = static_cast<uint8_t *>(p);
      rangeSize = kRangeSize;
      // Huge pages where the kernel grants them on request, as the tools'
      // heap has them (HugePageHeap.h).
      madvise(p, kRangeSize, MADV_HUGEPAGE);
      return rangeBegin + rangeSize - size;
    }
  }
  // A second buffer at once, or no address space: the heap.
  auto *p = static_cast<uint8_t *>(std::malloc(size));
  if (!p)
    llvm::report_bad_alloc_error("cannot allocate the flatbuffer");
  return p;
}

void ReservedRangeAllocator::deallocate(uint8_t *p, size_t size) {
  if (inRange(p, size))
    release();
  else
    std::free(p);
}

uint8_t *ReservedRangeAllocator::reallocate_downward(uint8_t *oldP,
                                                     size_t oldSize,
                                                     size_t newSize,
                                                     size_t inUseBack,
                                                     size_t inUseFront) {
  if (!inRange(oldP, oldSize) || newSize > rangeSize)
    return flatbuffers::Allocator::reallocate_downward(oldP, oldSize, newSize,
                                                       inUseBack, inUseFront);
  // The back, what was built, stays where it is; the front (the builder's
  // scratch) moves down to the new start.
  uint8_t *newP = rangeBegin + rangeSize - newSize;
  std::memmove(newP, oldP, inUseFront);
  return newP;
}
