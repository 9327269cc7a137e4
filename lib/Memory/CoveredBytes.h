//===- CoveredBytes.h - The bytes a changing set of ranges covers -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The size of the union of byte ranges, kept as ranges come and go: a
// segment tree over the ranges' ends, each update O(log n). What a planned
// buffer's peak is counted with: tensors that share bytes (views) count
// once, and a method with many tensors live at once costs no more per
// instruction than one with few.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_MEMORY_COVEREDBYTES_H
#define EMIT_LIB_MEMORY_COVEREDBYTES_H

#include <cstdint>
#include <vector>

namespace emit::memory {

class CoveredBytes {
public:
  /// For ranges whose ends are all among `points`.
  explicit CoveredBytes(std::vector<uint64_t> points);

  void add(uint64_t begin, uint64_t end) { update(begin, end, 1); }
  void remove(uint64_t begin, uint64_t end) { update(begin, end, -1); }
  /// The bytes the ranges added and not removed cover.
  uint64_t getCovered() const { return length.empty() ? 0 : length[1]; }

private:
  void update(uint64_t begin, uint64_t end, int delta);
  /// Node `node` spans points[low] to points[high].
  void update(unsigned node, unsigned low, unsigned high, unsigned begin,
              unsigned end, int delta);

  std::vector<uint64_t> points;
  /// Per node, how many ranges cover its whole span, and the bytes of its
  /// span covered.
  std::vector<uint32_t> count;
  std::vector<uint64_t> length;
};

} // namespace emit::memory

#endif // EMIT_LIB_MEMORY_COVEREDBYTES_H
