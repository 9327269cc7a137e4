//===- CoveredBytes.cpp - The bytes a changing set of ranges covers -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CoveredBytes.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace emit::memory;

CoveredBytes::CoveredBytes(std::vector<uint64_t> ends)
    : points(std::move(ends)) {
  llvm::sort(points);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 2)
    return;
  count.assign(4 * points.size(), 0);
  length.assign(4 * points.size(), 0);
}

void CoveredBytes::update(uint64_t begin, uint64_t end, int delta) {
  if (begin >= end || points.size() < 2)
    return;
  auto index = [&](uint64_t point) {
    return static_cast<unsigned>(llvm::lower_bound(points, point) -
                                 points.begin());
  };
  update(1, 0, points.size() - 1, index(begin), index(end), delta);
}

void CoveredBytes::update(unsigned node, unsigned low, unsigned high,
                          unsigned begin, unsigned end, int delta) {
  if (end <= low || high <= begin)
    return;
  if (begin <= low && high <= end) {
    count[node] += delta;
  } else {
    unsigned middle = (low + high) / 2;
    update(2 * node, low, middle, begin, end, delta);
    update(2 * node + 1, middle, high, begin, end, delta);
  }
  if (count[node])
    length[node] = points[high] - points[low];
  else if (high - low == 1)
    length[node] = 0;
  else
    length[node] = length[2 * node] + length[2 * node + 1];
}
