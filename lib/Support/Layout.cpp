//===- Layout.cpp - Alignment and placement arithmetic ----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/Layout.h"
#include "emit/Support/FileFormat.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace emit;
using namespace emit::layout;

uint64_t layout::appendAligned(uint64_t &end, uint64_t size,
                               uint64_t alignment) {
  uint64_t start = llvm::alignTo(end, alignment);
  end = start + size;
  return start;
}

uint64_t layout::resolveSegmentAlignment(std::optional<int64_t> recorded,
                                         std::optional<uint64_t> option) {
  if (!recorded)
    return option.value_or(pte::kDefaultSegmentAlignment);
  return std::lcm(static_cast<uint64_t>(*recorded), option.value_or(1));
}

/// Whether some power-of-two alignment places a segment that follows one
/// ending at `previousEnd` at `offset`.
static bool isAlignedPlacement(uint64_t previousEnd, uint64_t offset) {
  return offset == previousEnd ||
         (offset > previousEnd &&
          llvm::alignTo(previousEnd, powerOfTwoDividing(offset)) == offset);
}

/// The smaller alignment; 0 stands for "no constraint" (a multiple of every
/// power of two).
static uint64_t minAlignment(uint64_t a, uint64_t b) {
  return !a ? b : !b ? a : std::min(a, b);
}

InferredSegments
layout::inferSegmentAlignments(uint64_t base,
                               ArrayRef<SegmentPlacement> segments) {
  InferredSegments inferred;
  uint64_t common = powerOfTwoDividing(base), previousEnd = 0;
  for (auto [offset, size] : segments) {
    if (isAlignedPlacement(previousEnd, offset))
      common = minAlignment(common, powerOfTwoDividing(offset));
    previousEnd = offset + size;
  }
  if (common)
    inferred.segmentAlignment = common;
  previousEnd = 0;
  for (auto [offset, size] : segments) {
    std::optional<uint64_t> alignment;
    if (isAlignedPlacement(previousEnd, offset)) {
      // Every power of two from the smallest that reproduces the offset up
      // to the offset's own does. Take the alignment the segment's start
      // has in the file, and at least that smallest one (the writer aligns
      // the base to it): the segment stays as aligned as it was.
      uint64_t least = common ? common : 1;
      while (llvm::alignTo(previousEnd, least) != offset)
        least <<= 1;
      uint64_t start =
          minAlignment(powerOfTwoDividing(base), powerOfTwoDividing(offset));
      alignment = std::max(least, start ? start : least);
    }
    inferred.alignments.push_back(alignment);
    previousEnd = offset + size;
  }
  return inferred;
}

uint64_t layout::commonAlignment(ArrayRef<uint64_t> addresses, uint64_t limit) {
  uint64_t common = limit;
  for (uint64_t address : addresses)
    if (address)
      common = std::min(common, powerOfTwoDividing(address));
  return common;
}

uint64_t layout::placeSegments(MutableArrayRef<Segment> segments,
                               uint64_t segmentAlignment) {
  uint64_t baseAlignment = segmentAlignment, end = 0;
  for (Segment &segment : segments) {
    uint64_t align = std::lcm(segmentAlignment, segment.alignment);
    baseAlignment = std::lcm(baseAlignment, align);
    segment.offset = appendAligned(end, segment.bytes.size(), align);
  }
  return baseAlignment;
}

uint64_t layout::segmentDataSize(ArrayRef<Segment> segments) {
  return segments.empty()
             ? 0
             : segments.back().offset + segments.back().bytes.size();
}
