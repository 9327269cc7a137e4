//===- FileLayout.h - Segment layout shared by .pte and .ptd ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Both ExecuTorch file formats end in data segments placed after the
// flatbuffer at aligned offsets from a segment base. This is the one
// implementation of that layout for both: reading alignment back off a
// file's offsets, placing segments, writing them, and holding imported
// bytes without copying them.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_TARGET_PTE_FILELAYOUT_H
#define EMIT_LIB_TARGET_PTE_FILELAYOUT_H

#include "emit/Support/LLVM.h"
#include "emit/Support/PayloadFiles.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace emit::layout {

/// The largest power of two that divides `value`; 0 for 0.
inline uint64_t powerOfTwoDividing(uint64_t value) { return value & -value; }

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

/// Infers the alignments of segments at (offset, size) from `base`.
InferredSegments
inferSegmentAlignments(uint64_t base,
                       ArrayRef<std::pair<uint64_t, uint64_t>> segments);

/// The alignment that every one of `addresses` (absolute file offsets of
/// force-aligned byte vectors) has, at most `limit`.
uint64_t commonAlignment(ArrayRef<uint64_t> addresses, uint64_t limit);

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

/// Writes zeros from file offset `position` up to `base`, then every
/// segment at `base` + its offset with zeros between. Bytes of a mapped
/// input are streamed from the file, never through the mapping.
void writeSegments(raw_ostream &os, ArrayRef<Segment> segments,
                   uint64_t position, uint64_t base);

/// Makes the payload attributes of an import from the bytes of the file
/// being read: references to them (`#et.file`) when the file has a
/// reference, else `dense_resource`s that alias them (the file must then
/// outlive the attributes' uses). No bytes are an empty `dense`.
class FileBytes {
public:
  FileBytes(mlir::MLIRContext *context, StringRef file,
            const std::optional<FileReference> &reference)
      : context(context), file(file), reference(reference) {}

  /// `bytes`, which lie in the file, named `name` if a resource.
  mlir::ElementsAttr get(StringRef name, ArrayRef<char> bytes) const;

private:
  mlir::MLIRContext *context;
  StringRef file;
  std::optional<FileReference> reference;
};

} // namespace emit::layout

#endif // EMIT_LIB_TARGET_PTE_FILELAYOUT_H
