//===- Layout.h - Alignment and placement arithmetic ---------- -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The arithmetic of laying bytes out in ExecuTorch files, in one place for
// the readers, the writers, the passes and the linker: the alignment an
// offset has, the alignment a set of offsets shares, placing pieces one
// after another at aligned offsets, the segment alignment rule, and reading
// the alignments a writer used back off a segment table.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_LAYOUT_H
#define EMIT_SUPPORT_LAYOUT_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace emit::layout {

/// The largest power of two that divides `value`; 0 for 0.
inline uint64_t powerOfTwoDividing(uint64_t value) { return value & -value; }

/// The largest power of two, at most `limit`, that every non-zero offset of
/// `offsets` is a multiple of (`limit` when none is non-zero).
uint64_t commonAlignment(ArrayRef<uint64_t> offsets, uint64_t limit);

/// The most alignment kept for constant or mutable data entries that move
/// (the exporter's tensor alignment is far less); more would only be
/// padding.
inline constexpr uint64_t kMaxEntryAlignment = 4096;

/// Places a piece of `size` bytes at the next multiple of `alignment` from
/// `end`, moves `end` past it, and returns where it starts.
uint64_t appendAligned(uint64_t &end, uint64_t size, uint64_t alignment);

/// The segment alignment a writer uses: the one the IR records, raised to
/// the option's (their least common multiple), else the option, else
/// ExecuTorch's default of 128.
uint64_t resolveSegmentAlignment(std::optional<int64_t> recorded,
                                 std::optional<uint64_t> option);

/// What a segment table shows of the alignment its writer used. A file does
/// not record alignment, so it is inferred from the placement: the file's
/// segment alignment is the largest power of two that the base and every
/// segment's offset are multiples of, and each segment keeps the alignment
/// its start has in the file.
struct InferredSegments {
  /// The file's segment alignment, unless no offset tells (no segment data).
  std::optional<uint64_t> segmentAlignment;
  /// Per segment: its alignment, or std::nullopt when no alignment places
  /// it where it is (it overlaps its predecessor or sits at an unaligned
  /// offset).
  SmallVector<std::optional<uint64_t>> alignments;
};

/// Where a segment's bytes lie, relative to the segment base.
struct SegmentPlacement {
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// Infers the alignments of segments placed at `segments` from `base`.
InferredSegments inferSegmentAlignments(uint64_t base,
                                        ArrayRef<SegmentPlacement> segments);

/// One segment to write.
struct Segment {
  ArrayRef<char> bytes;
  uint64_t alignment = 1;
  uint64_t offset = 0; // Relative to the segment base; set by placeSegments.
};

/// Places `segments` in order, each at the next multiple of the least
/// common multiple of `segmentAlignment` and its own alignment. Returns the
/// alignment the base needs: a multiple of every segment's, so that each
/// holds in the file.
uint64_t placeSegments(MutableArrayRef<Segment> segments,
                       uint64_t segmentAlignment);

/// The bytes from the base to the end of the last segment.
uint64_t segmentDataSize(ArrayRef<Segment> segments);

/// The importers name the blob of each entry of a file's segment table
/// `segment_<index>`, and of its inline data `inline_<index>`.
inline constexpr llvm::StringLiteral kSegmentBlobPrefix = "segment_";
inline constexpr llvm::StringLiteral kInlineBlobPrefix = "inline_";

/// `<prefix><index>`, spelled without a heap string.
inline llvm::SmallString<24> blobName(StringRef prefix, uint64_t index) {
  llvm::SmallString<24> name(prefix);
  llvm::raw_svector_ostream(name) << index;
  return name;
}

} // namespace emit::layout

#endif // EMIT_SUPPORT_LAYOUT_H
