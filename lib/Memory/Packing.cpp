//===- Packing.cpp - Placing units of memory in time and bytes ------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Packing.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <map>

using namespace emit;
using namespace emit::memory;

/// Instructions per block of the placed-unit index.
static constexpr uint32_t kBlockSize = 64;
/// The most pairs of units one packing compares: far more than a method
/// ExecuTorch plans needs (a few units are live at a time), few enough to
/// finish in seconds.
static constexpr uint64_t kMaxComparisons = uint64_t(1) << 28;
/// The most placements the exhaustive search tries in one pool.
static constexpr uint64_t kMaxSearchPlacements = 1 << 20;

Packer::Packer(ArrayRef<Unit> units, uint32_t instructions, uint64_t alignment)
    : units(units), alignment(alignment), offsets(units.size(), 0),
      blocks(instructions / kBlockSize + 1), seen(units.size(), 0) {}

uint64_t Packer::alignFor(uint32_t unit, uint64_t at) const {
  uint64_t residue = units[unit].base % alignment;
  return at + (residue + alignment - at % alignment) % alignment;
}

std::optional<uint64_t> Packer::place(uint32_t unit, Fit fit) {
  const Unit &placing = units[unit];
  uint64_t offset = alignFor(unit, 0);
  if (placing.live && placing.bytes) {
    busy.clear();
    ++query;
    uint32_t lastBlock = placing.last / kBlockSize;
    if (lastBlock >= blocks.size())
      blocks.resize(lastBlock + 1);
    for (uint32_t block = placing.first / kBlockSize; block <= lastBlock;
         ++block)
      for (uint32_t other : blocks[block]) {
        if (seen[other] == query)
          continue;
        seen[other] = query;
        if (++comparisons > kMaxComparisons)
          return std::nullopt;
        const Unit &live = units[other];
        if (live.first <= placing.last && placing.first <= live.last)
          busy.push_back({offsets[other], offsets[other] + live.bytes});
      }
    llvm::sort(busy);
    // The gaps between busy bytes, lowest first; past the last, no limit.
    uint64_t cursor = 0, bestGap = UINT64_MAX;
    std::optional<uint64_t> chosen;
    for (auto [begin, end] : busy) {
      uint64_t candidate = alignFor(unit, cursor);
      if (candidate + placing.bytes <= begin &&
          (!chosen || begin - candidate < bestGap)) {
        chosen = candidate;
        bestGap = begin - candidate;
        if (fit == Fit::First)
          break;
      }
      cursor = std::max(cursor, end);
    }
    offset = chosen ? *chosen : alignFor(unit, cursor);
    for (uint32_t block = placing.first / kBlockSize; block <= lastBlock;
         ++block)
      blocks[block].push_back(unit);
  }
  offsets[unit] = offset;
  placed.push_back(unit);
  ends.push_back(std::max(getSize(), offset + placing.bytes));
  return offset;
}

void Packer::removeLast() {
  uint32_t unit = placed.back();
  const Unit &placing = units[unit];
  if (placing.live && placing.bytes)
    for (uint32_t block = placing.first / kBlockSize;
         block <= placing.last / kBlockSize; ++block) {
      assert(blocks[block].back() == unit && "removing out of order");
      blocks[block].pop_back();
    }
  placed.pop_back();
  ends.pop_back();
}

uint64_t memory::getPeakLiveBytes(ArrayRef<Unit> units,
                                  ArrayRef<uint32_t> subset,
                                  uint32_t instructions, uint32_t *peakAt) {
  uint32_t steps = std::max(instructions, 1u);
  std::vector<uint64_t> starting(steps + 1, 0), ending(steps + 1, 0);
  for (uint32_t index : subset) {
    const Unit &unit = units[index];
    if (!unit.live)
      continue;
    starting[std::min(unit.first, steps - 1)] += unit.bytes;
    ending[std::min(unit.last, steps - 1) + 1] += unit.bytes;
  }
  uint64_t live = 0, peak = 0;
  for (uint32_t step = 0; step < steps; ++step) {
    live = live + starting[step] - ending[step];
    if (live > peak) {
      peak = live;
      if (peakAt)
        *peakAt = step;
    }
  }
  return peak;
}

bool memory::isSoundPacking(ArrayRef<Unit> units, ArrayRef<uint32_t> subset,
                            ArrayRef<uint64_t> offsets) {
  // A sweep in lifetime order: the live units' bytes are disjoint, so a
  // unit starting overlaps one of them only if it overlaps a neighbour by
  // offset.
  SmallVector<uint32_t> order;
  for (auto [position, unit] : llvm::enumerate(subset))
    if (units[unit].live && units[unit].bytes)
      order.push_back(position);
  llvm::sort(order, [&](uint32_t a, uint32_t b) {
    return units[subset[a]].first < units[subset[b]].first;
  });
  // Live units by offset: (offset, end, last instruction).
  std::map<uint64_t, std::pair<uint64_t, uint32_t>> live;
  for (uint32_t position : order) {
    const Unit &unit = units[subset[position]];
    uint64_t begin = offsets[position], end = begin + unit.bytes;
    auto next = live.lower_bound(begin);
    // Drop neighbours that died before this unit starts, then look again.
    auto dead = [&](auto it) { return it->second.second < unit.first; };
    while (next != live.end() && dead(next))
      next = live.erase(next);
    while (next != live.begin() && dead(std::prev(next)))
      live.erase(std::prev(next));
    if (next != live.end() && next->first < end)
      return false;
    if (next != live.begin() && std::prev(next)->second.first > begin)
      return false;
    live[begin] = {end, unit.last};
  }
  return true;
}

namespace {
/// The exhaustive search over the orders the live units of a small pool are
/// placed in (first-fit each), pruned by the smallest size found so far.
class OrderSearch {
public:
  OrderSearch(Packer &packer, ArrayRef<uint32_t> live, uint64_t bound,
              uint64_t bestSize)
      : packer(packer), live(live), used(live.size(), false), bound(bound),
        bestSize(bestSize) {}
  /// The offsets of `live`'s units in the best packing found, when it is
  /// smaller than the size given.
  std::optional<std::vector<uint64_t>> run() {
    search(0);
    return std::move(best);
  }

private:
  void search(unsigned depth) {
    if (depth == live.size()) {
      bestSize = packer.getSize();
      best.emplace();
      for (uint32_t unit : live)
        best->push_back(packer.getOffset(unit));
      return;
    }
    for (unsigned index = 0; index < live.size(); ++index) {
      if (used[index] || bestSize <= bound || placements > kMaxSearchPlacements)
        continue;
      ++placements;
      used[index] = true;
      if (packer.place(live[index], Fit::First) && packer.getSize() < bestSize)
        search(depth + 1);
      packer.removeLast();
      used[index] = false;
    }
  }

  Packer &packer;
  ArrayRef<uint32_t> live;
  std::vector<bool> used;
  uint64_t bound;
  uint64_t bestSize;
  uint64_t placements = 0;
  std::optional<std::vector<uint64_t>> best;
};
} // namespace

/// Packs `order` as `fit` says.
static std::optional<Packing>
packInOrder(ArrayRef<Unit> units, ArrayRef<uint32_t> subset,
            ArrayRef<uint32_t> order, uint32_t instructions, uint64_t alignment,
            Fit fit, StringRef algorithm) {
  Packer packer(units, instructions, alignment);
  for (uint32_t unit : order)
    if (!packer.place(unit, fit))
      return std::nullopt;
  Packing packing;
  packing.algorithm = algorithm.str();
  packing.size = packer.getSize();
  packing.offsets.reserve(subset.size());
  for (uint32_t unit : subset)
    packing.offsets.push_back(packer.getOffset(unit));
  return packing;
}

/// The exhaustive search's packing of `subset`, when it beats `best`.
static std::optional<Packing>
searchOrders(ArrayRef<Unit> units, ArrayRef<uint32_t> subset,
             uint32_t instructions, uint64_t alignment, const Packing &best) {
  SmallVector<uint32_t> live;
  Packer packer(units, instructions, alignment);
  for (uint32_t unit : subset) {
    if (units[unit].live && units[unit].bytes)
      live.push_back(unit);
    else
      packer.place(unit, Fit::First);
  }
  uint64_t bound = getPeakLiveBytes(units, subset, instructions);
  std::optional<std::vector<uint64_t>> offsets =
      OrderSearch(packer, live, bound, best.size).run();
  if (!offsets)
    return std::nullopt;
  Packing packing;
  packing.algorithm = "exhaustive";
  // The search leaves the live units unplaced: the offsets it found.
  llvm::DenseMap<uint32_t, uint64_t> found;
  for (auto [unit, offset] : llvm::zip_equal(live, *offsets))
    found[unit] = offset;
  for (uint32_t unit : subset) {
    auto it = found.find(unit);
    uint64_t offset = it != found.end() ? it->second : packer.getOffset(unit);
    packing.offsets.push_back(offset);
    packing.size = std::max(packing.size, offset + units[unit].bytes);
  }
  return packing;
}

std::optional<Packing> memory::packUnits(ArrayRef<Unit> units,
                                         ArrayRef<uint32_t> subset,
                                         uint32_t instructions,
                                         uint64_t alignment,
                                         unsigned exhaustiveUnits) {
  std::vector<uint32_t> bySize(subset.begin(), subset.end());
  llvm::stable_sort(bySize, [&](uint32_t a, uint32_t b) {
    if (units[a].bytes != units[b].bytes)
      return units[a].bytes > units[b].bytes;
    return units[a].first < units[b].first;
  });
  std::vector<uint32_t> byLifetime(subset.begin(), subset.end());
  llvm::stable_sort(byLifetime, [&](uint32_t a, uint32_t b) {
    if (units[a].first != units[b].first)
      return units[a].first < units[b].first;
    return units[a].bytes > units[b].bytes;
  });
  std::optional<Packing> best;
  // Every packing is checked before it is taken: a defect in a packer
  // keeps the file's plan rather than writing one that computes wrong.
  auto consider = [&](std::optional<Packing> packing) {
    if (packing && (!best || packing->size < best->size) &&
        isSoundPacking(units, subset, packing->offsets))
      best = std::move(packing);
  };
  consider(packInOrder(units, subset, bySize, instructions, alignment,
                       Fit::Best, "best-fit"));
  consider(packInOrder(units, subset, byLifetime, instructions, alignment,
                       Fit::First, "lifetime"));
  unsigned live = llvm::count_if(subset, [&](uint32_t unit) {
    return units[unit].live && units[unit].bytes;
  });
  if (best && live > 1 && live <= exhaustiveUnits)
    consider(searchOrders(units, subset, instructions, alignment, *best));
  return best;
}
