//===- PackingTest.cpp - Placing units of memory in time and bytes --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The packings checked by a brute-force overlap test written here (every
// pair of units), on random lifetimes and sizes: sound, never below the
// lower bound, residues kept; and the packing check against that same
// brute force, on packings with one unit moved at random.
//
//===----------------------------------------------------------------------===//

#include "Packing.h"

#include "gtest/gtest.h"

#include <numeric>
#include <random>

using namespace emit::memory;

namespace {
/// Whether two units of the subset live at once share a byte: every pair.
bool overlapsBruteForce(llvm::ArrayRef<Unit> units,
                        llvm::ArrayRef<uint32_t> subset,
                        llvm::ArrayRef<uint64_t> offsets) {
  for (size_t a = 0; a < subset.size(); ++a)
    for (size_t b = a + 1; b < subset.size(); ++b) {
      const Unit &x = units[subset[a]], &y = units[subset[b]];
      if (!x.live || !y.live || !x.bytes || !y.bytes)
        continue;
      bool together = x.first <= y.last && y.first <= x.last;
      bool shared = offsets[a] < offsets[b] + y.bytes &&
                    offsets[b] < offsets[a] + x.bytes;
      if (together && shared)
        return true;
    }
  return false;
}

std::vector<Unit> randomUnits(std::mt19937 &random, unsigned count,
                              uint32_t instructions) {
  std::vector<Unit> units(count);
  for (Unit &unit : units) {
    unit.memoryId = 1;
    unit.base = 8 * (random() % 64);
    unit.bytes = 1 + random() % 200;
    unit.live = random() % 10 != 0;
    unit.first = random() % instructions;
    unit.last =
        std::min<uint32_t>(instructions - 1, unit.first + random() % 12);
  }
  return units;
}
} // namespace

TEST(Packing, RandomPackingsAreSoundAndKeepResidues) {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    unsigned count = 1 + random() % (round % 2 ? 7 : 60);
    std::vector<Unit> units = randomUnits(random, count, 40);
    std::vector<uint32_t> subset(count);
    std::iota(subset.begin(), subset.end(), 0);
    std::optional<Packing> packing = packUnits(units, subset, 40, 16, 8);
    ASSERT_TRUE(packing);
    EXPECT_FALSE(overlapsBruteForce(units, subset, packing->offsets));
    EXPECT_GE(packing->size, getPeakLiveBytes(units, subset, 40));
    for (auto [unit, offset] : llvm::zip_equal(subset, packing->offsets))
      EXPECT_EQ(offset % 16, units[unit].base % 16);
  }
}

TEST(Packing, ExhaustiveSearchBeatsGreedyOnSomeSmallPools) {
  // Small pools of awkward sizes: the search over orders is never worse
  // than the greedy packings, and better on some.
  std::mt19937 random(3);
  unsigned better = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<Unit> units = randomUnits(random, 6, 8);
    std::vector<uint32_t> subset(units.size());
    std::iota(subset.begin(), subset.end(), 0);
    std::optional<Packing> greedy = packUnits(units, subset, 8, 16, 0);
    std::optional<Packing> searched = packUnits(units, subset, 8, 16, 8);
    ASSERT_TRUE(greedy && searched);
    EXPECT_LE(searched->size, greedy->size);
    EXPECT_FALSE(overlapsBruteForce(units, subset, searched->offsets));
    better += searched->size < greedy->size;
  }
  EXPECT_GT(better, 0u);
}

TEST(Packing, SoundnessCheckAgreesWithBruteForce) {
  std::mt19937 random(11);
  unsigned disagreements = 0, unsound = 0;
  for (int round = 0; round < 500; ++round) {
    unsigned count = 2 + random() % 30;
    std::vector<Unit> units = randomUnits(random, count, 20);
    std::vector<uint32_t> subset(count);
    std::iota(subset.begin(), subset.end(), 0);
    std::optional<Packing> packing = packUnits(units, subset, 20, 16, 0);
    ASSERT_TRUE(packing);
    std::vector<uint64_t> offsets = packing->offsets;
    offsets[random() % count] = 16 * (random() % 16);
    bool brute = overlapsBruteForce(units, subset, offsets);
    unsound += brute;
    disagreements += brute == isSoundPacking(units, subset, offsets);
  }
  EXPECT_EQ(disagreements, 0u);
  EXPECT_GT(unsound, 50u); // The mutants do test something.
}

TEST(Packing, PeakLiveBytes) {
  std::vector<Unit> units = {
      {1, 0, 10, 0, 2, true}, {1, 0, 20, 2, 3, true}, {1, 0, 99, 0, 0, false}};
  uint32_t peakAt = 0;
  EXPECT_EQ(getPeakLiveBytes(units, {0, 1, 2}, 4, &peakAt), 30u);
  EXPECT_EQ(peakAt, 2u);
}
