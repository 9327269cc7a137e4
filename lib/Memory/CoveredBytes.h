//===- CoveredBytes.h - The bytes a changing set of ranges covers -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The size of the union of byte ranges, kept as ranges come and go: a
// segment tree over the ranges' ends, each update O(log n), walked bottom
// up without recursion (an update is two paths from leaf to root, the cost
// of a plan check over hundreds of thousands of tensors). What a planned
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
  /// Brings node's covered bytes up to date from its count and children;
  /// `level` is its height above the leaves.
  void pull(unsigned node, unsigned level);
  /// Pulls every ancestor of the leaves `left` and `right`, from the bottom.
  void pullAncestors(unsigned left, unsigned right);

  std::vector<uint64_t> points;
  /// Leaves: elementary intervals points[i] to points[i + 1], at node
  /// leafCount + i (leafCount a power of two; leaves past the last interval
  /// span nothing). Node 1 is the root.
  unsigned leafCount = 0;
  /// Per node, how many ranges cover its whole span, and the bytes of its
  /// span covered.
  std::vector<uint32_t> count;
  std::vector<uint64_t> length;
};

} // namespace emit::memory

#endif // EMIT_LIB_MEMORY_COVEREDBYTES_H
