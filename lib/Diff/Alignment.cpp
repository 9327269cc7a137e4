//===- Alignment.cpp - Two sequences of keys, aligned ---------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Ranges are worked off a stack, never by recursion: a hostile program's
// graph decides how often a range splits.
//
//===----------------------------------------------------------------------===//

#include "Alignment.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <deque>

using namespace emit::graphdiff;
using llvm::ArrayRef;

namespace {
/// [aBegin, aEnd) of `a` against [bBegin, bEnd) of `b`.
struct Range {
  uint32_t aBegin, aEnd, bBegin, bEnd;
};

/// DenseMap keeps two keys for itself; keys are moved off them.
uint64_t toMapKey(uint64_t key) { return key >= ~0ull - 1 ? key - 2 : key; }

class Aligner {
public:
  Aligner(ArrayRef<uint64_t> a, ArrayRef<uint64_t> b, std::vector<Pair> &pairs)
      : a(a), b(b), pairs(pairs) {}

  void run() {
    size_t first = pairs.size();
    std::vector<Range> stack = {{0, uint32_t(a.size()), 0, uint32_t(b.size())}};
    while (!stack.empty()) {
      Range range = stack.back();
      stack.pop_back();
      align(range, stack);
    }
    // Ranges are disjoint in both sequences: their pairs sort by either.
    std::sort(pairs.begin() + first, pairs.end());
  }

private:
  void align(Range range, std::vector<Range> &stack);
  void takeCommonEnds(Range &range);
  bool splitAtAnchors(const Range &range, std::vector<Range> &stack);
  bool alignShortest(const Range &range);
  void alignGreedily(const Range &range);

  ArrayRef<uint64_t> a, b;
  std::vector<Pair> &pairs;
};
} // namespace

void Aligner::takeCommonEnds(Range &range) {
  while (range.aBegin < range.aEnd && range.bBegin < range.bEnd &&
         a[range.aBegin] == b[range.bBegin])
    pairs.push_back({range.aBegin++, range.bBegin++});
  while (range.aBegin < range.aEnd && range.bBegin < range.bEnd &&
         a[range.aEnd - 1] == b[range.bEnd - 1])
    pairs.push_back({--range.aEnd, --range.bEnd});
}

void Aligner::align(Range range, std::vector<Range> &stack) {
  takeCommonEnds(range);
  if (range.aBegin == range.aEnd || range.bBegin == range.bEnd)
    return;
  if (splitAtAnchors(range, stack))
    return;
  if (!alignShortest(range))
    alignGreedily(range);
}

bool Aligner::splitAtAnchors(const Range &range, std::vector<Range> &stack) {
  // Each key's count and last position on each side.
  struct Seen {
    uint32_t aCount = 0, bCount = 0, aAt = 0, bAt = 0;
  };
  llvm::DenseMap<uint64_t, Seen> seen;
  for (uint32_t i = range.aBegin; i < range.aEnd; ++i) {
    Seen &entry = seen[toMapKey(a[i])];
    ++entry.aCount;
    entry.aAt = i;
  }
  for (uint32_t j = range.bBegin; j < range.bEnd; ++j) {
    auto it = seen.find(toMapKey(b[j]));
    if (it == seen.end())
      continue;
    ++it->second.bCount;
    it->second.bAt = j;
  }
  // The keys once on each side, in a's order; their longest run increasing
  // in b (patience sorting) are the anchors.
  std::vector<Pair> unique;
  for (uint32_t i = range.aBegin; i < range.aEnd; ++i) {
    const Seen &entry = seen.find(toMapKey(a[i]))->second;
    if (entry.aCount == 1 && entry.bCount == 1)
      unique.push_back({i, entry.bAt});
  }
  if (unique.empty())
    return false;
  std::vector<uint32_t> tails, previous(unique.size());
  for (uint32_t k = 0; k < unique.size(); ++k) {
    auto at = std::lower_bound(
        tails.begin(), tails.end(), unique[k].second,
        [&](uint32_t tail, uint32_t bAt) { return unique[tail].second < bAt; });
    previous[k] = at == tails.begin() ? UINT32_MAX : *(at - 1);
    if (at == tails.end())
      tails.push_back(k);
    else
      *at = k;
  }
  std::vector<Pair> anchors;
  for (uint32_t k = tails.back(); k != UINT32_MAX; k = previous[k])
    anchors.push_back(unique[k]);
  std::reverse(anchors.begin(), anchors.end());
  uint32_t aFrom = range.aBegin, bFrom = range.bBegin;
  for (const Pair &anchor : anchors) {
    pairs.push_back(anchor);
    stack.push_back({aFrom, anchor.first, bFrom, anchor.second});
    aFrom = anchor.first + 1;
    bFrom = anchor.second + 1;
  }
  stack.push_back({aFrom, range.aEnd, bFrom, range.bEnd});
  return true;
}

bool Aligner::alignShortest(const Range &range) {
  // Myers' greedy search for the furthest reaching path of each number of
  // edits d, keeping each d's frontier to walk the path back.
  int64_t n = range.aEnd - range.aBegin, m = range.bEnd - range.bBegin;
  int64_t maxEdits = std::min<int64_t>(n + m, kMaxAlignmentEdits);
  auto equal = [&](int64_t x, int64_t y) {
    return a[range.aBegin + x] == b[range.bBegin + y];
  };
  std::vector<std::vector<int64_t>> frontiers;
  std::vector<int64_t> v(2 * maxEdits + 3, 0);
  int64_t offset = maxEdits + 1;
  int64_t found = -1;
  for (int64_t d = 0; d <= maxEdits && found < 0; ++d) {
    for (int64_t k = -d; k <= d; k += 2) {
      bool down = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]);
      int64_t x = down ? v[offset + k + 1] : v[offset + k - 1] + 1;
      int64_t y = x - k;
      while (x < n && y < m && equal(x, y))
        ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m)
        found = d;
    }
    frontiers.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
  }
  if (found < 0)
    return false;
  // Walk back from (n, m): each d's snake gives its equal pairs.
  std::vector<Pair> path;
  int64_t x = n, y = m;
  for (int64_t d = found; d > 0; --d) {
    const std::vector<int64_t> &before = frontiers[d - 1];
    auto at = [&](int64_t k) { return before[k + d - 1]; };
    int64_t k = x - y;
    bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
    int64_t previousK = down ? k + 1 : k - 1;
    int64_t startX = down ? at(previousK) : at(previousK) + 1;
    int64_t startY = startX - k;
    while (x > startX && y > startY)
      path.push_back(
          {uint32_t(range.aBegin + --x), uint32_t(range.bBegin + --y)});
    x = at(previousK);
    y = x - previousK;
  }
  while (x > 0 && y > 0)
    path.push_back(
        {uint32_t(range.aBegin + --x), uint32_t(range.bBegin + --y)});
  pairs.insert(pairs.end(), path.rbegin(), path.rend());
  return true;
}

void Aligner::alignGreedily(const Range &range) {
  // Each key's positions in b, taken in order: every pair is after the
  // last on both sides.
  llvm::DenseMap<uint64_t, std::deque<uint32_t>> positions;
  for (uint32_t j = range.bBegin; j < range.bEnd; ++j)
    positions[toMapKey(b[j])].push_back(j);
  int64_t last = int64_t(range.bBegin) - 1;
  for (uint32_t i = range.aBegin; i < range.aEnd; ++i) {
    auto it = positions.find(toMapKey(a[i]));
    if (it == positions.end())
      continue;
    std::deque<uint32_t> &queue = it->second;
    while (!queue.empty() && int64_t(queue.front()) <= last)
      queue.pop_front();
    if (queue.empty())
      continue;
    last = queue.front();
    queue.pop_front();
    pairs.push_back({i, uint32_t(last)});
  }
}

void emit::graphdiff::alignKeys(ArrayRef<uint64_t> a, ArrayRef<uint64_t> b,
                                std::vector<Pair> &pairs, uint32_t aBase,
                                uint32_t bBase) {
  size_t first = pairs.size();
  Aligner(a, b, pairs).run();
  for (size_t k = first; k < pairs.size(); ++k) {
    pairs[k].first += aBase;
    pairs[k].second += bBase;
  }
}
