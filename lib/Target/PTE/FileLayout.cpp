//===- FileLayout.cpp - Segment layout shared by .pte and .ptd --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Support/MappedMemory.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace emit;
using namespace emit::layout;

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

InferredSegments layout::inferSegmentAlignments(
    uint64_t base, ArrayRef<std::pair<uint64_t, uint64_t>> segments) {
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
    segment.offset = llvm::alignTo(end, align);
    end = segment.offset + segment.bytes.size();
  }
  return baseAlignment;
}

uint64_t layout::segmentDataSize(ArrayRef<Segment> segments) {
  return segments.empty()
             ? 0
             : segments.back().offset + segments.back().bytes.size();
}

void layout::writeSegments(raw_ostream &os, ArrayRef<Segment> segments,
                           uint64_t position, uint64_t base) {
  // Many small segments: gather them in a larger buffer than a file
  // stream's default (one block), instead of a system call each. Streams
  // that are unbuffered (strings, vectors) stay so.
  if (os.GetBufferSize() && os.GetBufferSize() < kWriteBufferSize)
    os.SetBufferSize(kWriteBufferSize);
  os.write_zeros(base - position);
  position = base;
  for (const Segment &segment : segments) {
    uint64_t start = base + segment.offset;
    os.write_zeros(start - position);
    // Streamed from the file (pread) where the bytes come from a mapped
    // input, so that its pages never enter the resident set.
    writeBytes(os, segment.bytes);
    releaseMappedPages(segment.bytes);
    position = start + segment.bytes.size();
  }
}

ElementsAttr layout::FileBytes::get(StringRef name,
                                    ArrayRef<char> bytes) const {
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                                    IntegerType::get(context, 8));
  if (bytes.empty())
    return DenseElementsAttr::get(type, ArrayRef<int8_t>());
  if (reference)
    return et::FileRangeAttr::get(
        context, reference->path, bytes.data() - file.data(), bytes.size(),
        reference->fingerprint.size, reference->fingerprint.sample);
  // The resource aliases the file. Its alignment is what the data pointer
  // really has, capped at 16: MLIR 19's bytecode reader can only honour
  // resource alignments up to that of its (heap) input buffer.
  uint64_t address = reinterpret_cast<uintptr_t>(bytes.data());
  uint64_t alignment = std::min<uint64_t>(powerOfTwoDividing(address), 16);
  return DenseResourceElementsAttr::get(
      type, name,
      UnmanagedAsmResourceBlob::allocateWithAlign(bytes, alignment));
}
