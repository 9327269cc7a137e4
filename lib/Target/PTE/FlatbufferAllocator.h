//===- FlatbufferAllocator.h - Grow a flatbuffer without copies -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A flatbuffer is built from its end down, in a buffer that grows by half
// again each time it is full. The default allocator moves what was built
// into a new buffer each time, so the builder briefly holds two: 29 MiB at
// the peak of writing a 17 MiB flatbuffer, and every byte copied a dozen
// times. This allocator reserves address space for the largest flatbuffer
// once and hands out buffers that all end where it ends: a bigger buffer
// starts lower, the bytes built so far are already in place, and only
// pages the builder touches are ever backed by memory.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_TARGET_PTE_FLATBUFFERALLOCATOR_H
#define EMIT_LIB_TARGET_PTE_FLATBUFFERALLOCATOR_H

#include "flatbuffers/allocator.h"

namespace emit {

/// Buffers for one flatbuffers::FlatBufferBuilder, ending at the end of one
/// reserved range (the builder holds one buffer at a time).
class ReservedRangeAllocator : public flatbuffers::Allocator {
public:
  ~ReservedRangeAllocator() override;

  uint8_t *allocate(size_t size) override;
  void deallocate(uint8_t *p, size_t size) override;
  uint8_t *reallocate_downward(uint8_t *oldP, size_t oldSize, size_t newSize,
                               size_t inUseBack, size_t inUseFront) override;

private:
  /// Whether [p, p + size) lies in the reserved range.
  bool inRange(const uint8_t *p, size_t size) const;
  void release();

  uint8_t *rangeBegin = nullptr;
  size_t rangeSize = 0;
};

} // namespace emit

#endif // EMIT_LIB_TARGET_PTE_FLATBUFFERALLOCATOR_H
