//===- CoveredBytes.cpp - The bytes a changing set of ranges covers -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CoveredBytes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace emit::memory;

CoveredBytes::CoveredBytes(std::vector<uint64_t> ends)
    : points(std::move(ends)) {
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 2)
    return;
  leafCount = llvm::PowerOf2Ceil(points.size() - 1);
  count.assign(2 * leafCount, 0);
  length.assign(2 * leafCount, 0);
}

inline void CoveredBytes::pull(unsigned node, unsigned level) {
  if (count[node]) {
    // The leaves under node, clamped to the intervals there are.
    size_t intervals = points.size() - 1;
    size_t low = (size_t(node) << level) - leafCount;
    size_t high = std::min(low + (size_t(1) << level), intervals);
    length[node] = points[high] - points[std::min(low, intervals)];
  } else {
    length[node] = level ? length[2 * node] + length[2 * node + 1] : 0;
  }
}

void CoveredBytes::pullAncestors(unsigned left, unsigned right) {
  // Both leaves are at the same depth: their paths meet and then are one.
  for (unsigned level = 1; left > 1; ++level) {
    left /= 2;
    right /= 2;
    pull(left, level);
    if (right != left)
      pull(right, level);
  }
}

void CoveredBytes::update(uint64_t begin, uint64_t end, int delta) {
  if (begin >= end || points.size() < 2)
    return;
  auto leaf = [&](uint64_t point) {
    return leafCount + static_cast<unsigned>(llvm::lower_bound(points, point) -
                                             points.begin());
  };
  unsigned first = leaf(begin), past = leaf(end);
  if (first >= past)
    return;
  // The nodes whose spans tile [first, past), level by level.
  unsigned level = 0;
  for (unsigned low = first, high = past; low < high;
       low /= 2, high /= 2, ++level) {
    if (low & 1) {
      count[low] += delta;
      pull(low++, level);
    }
    if (high & 1) {
      count[--high] += delta;
      pull(high, level);
    }
  }
  pullAncestors(first, past - 1);
}
