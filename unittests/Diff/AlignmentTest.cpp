//===- AlignmentTest.cpp - Two sequences of keys, aligned -----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every alignment is checked as an alignment (pairs in increasing order on
// both sides, equal keys) and, where the exact search runs, against the
// length of a longest common subsequence computed by the textbook dynamic
// program, independently of the alignment's own ways.
//
//===----------------------------------------------------------------------===//

#include "Alignment.h"

#include "gtest/gtest.h"

#include <map>
#include <random>

using namespace emit::graphdiff;

namespace {
std::vector<Pair> align(const std::vector<uint64_t> &a,
                        const std::vector<uint64_t> &b) {
  std::vector<Pair> pairs;
  alignKeys(a, b, pairs);
  return pairs;
}

/// Pairs increase on both sides and pair equal keys.
void expectAlignment(const std::vector<uint64_t> &a,
                     const std::vector<uint64_t> &b,
                     const std::vector<Pair> &pairs) {
  for (size_t k = 0; k < pairs.size(); ++k) {
    ASSERT_LT(pairs[k].first, a.size());
    ASSERT_LT(pairs[k].second, b.size());
    EXPECT_EQ(a[pairs[k].first], b[pairs[k].second]);
    if (k) {
      EXPECT_LT(pairs[k - 1].first, pairs[k].first);
      EXPECT_LT(pairs[k - 1].second, pairs[k].second);
    }
  }
}

size_t longestCommonSubsequence(const std::vector<uint64_t> &a,
                                const std::vector<uint64_t> &b) {
  std::vector<std::vector<size_t>> table(a.size() + 1,
                                         std::vector<size_t>(b.size() + 1));
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j)
      table[i][j] = a[i - 1] == b[j - 1]
                        ? table[i - 1][j - 1] + 1
                        : std::max(table[i - 1][j], table[i][j - 1]);
  return table[a.size()][b.size()];
}

TEST(AlignmentTest, IdenticalSequencesPairEveryPosition) {
  std::vector<uint64_t> a = {5, 5, 5, 7, 5};
  std::vector<Pair> pairs = align(a, a);
  ASSERT_EQ(pairs.size(), a.size());
  for (uint32_t k = 0; k < a.size(); ++k)
    EXPECT_EQ(pairs[k], Pair(k, k));
}

TEST(AlignmentTest, AnInsertionAmongEqualKeysShiftsNothingElse) {
  // 1000 equal keys, one other inserted in the middle: every old key still
  // pairs, the inserted one alone is left.
  std::vector<uint64_t> a(1000, 3), b(1000, 3);
  b.insert(b.begin() + 500, 9);
  std::vector<Pair> pairs = align(a, b);
  expectAlignment(a, b, pairs);
  EXPECT_EQ(pairs.size(), 1000u);
  for (const Pair &pair : pairs)
    EXPECT_NE(pair.second, 500u);
}

TEST(AlignmentTest, UniqueKeysAnchorAcrossAMove) {
  std::vector<uint64_t> a = {1, 2, 3, 4, 5, 6};
  std::vector<uint64_t> b = {1, 5, 2, 3, 4, 6};
  std::vector<Pair> pairs = align(a, b);
  expectAlignment(a, b, pairs);
  EXPECT_EQ(pairs.size(), longestCommonSubsequence(a, b));
}

TEST(AlignmentTest, NothingInCommonPairsNothing) {
  EXPECT_TRUE(align({1, 2, 3}, {4, 5}).empty());
  EXPECT_TRUE(align({}, {4, 5}).empty());
  EXPECT_TRUE(align({1}, {}).empty());
}

TEST(AlignmentTest, RandomSequencesAlignAsLongAsTheirCommonSubsequence) {
  std::mt19937 random(59);
  for (int round = 0; round < 300; ++round) {
    // Few distinct keys: repeats everywhere, few anchors.
    std::uniform_int_distribution<int> length(0, 40), key(0, round % 5 + 1);
    std::vector<uint64_t> a(length(random)), b(length(random));
    for (uint64_t &k : a)
      k = key(random);
    for (uint64_t &k : b)
      k = key(random);
    std::vector<Pair> pairs = align(a, b);
    expectAlignment(a, b, pairs);
    // Patience anchors may cost pairs against the longest; with no key
    // unique on both sides, the exact search finds the longest.
    size_t longest = longestCommonSubsequence(a, b);
    EXPECT_LE(pairs.size(), longest);
    std::map<uint64_t, std::pair<int, int>> counts;
    for (uint64_t k : a)
      ++counts[k].first;
    for (uint64_t k : b)
      ++counts[k].second;
    bool anchors = false;
    for (auto &[k, count] : counts)
      anchors |= count.first == 1 && count.second == 1;
    if (!anchors) {
      EXPECT_EQ(pairs.size(), longest) << "round " << round;
    }
  }
}

TEST(AlignmentTest, PastTheEditLimitPairsGreedilyInOrder) {
  // Two keys alternating against the other order, long: more edits than
  // the exact search takes, no unique key. The greedy pairing still aligns.
  std::vector<uint64_t> a, b;
  for (int k = 0; k < 6000; ++k) {
    a.push_back(k % 3 == 0 ? 1 : 2);
    b.push_back(k % 5 == 0 ? 2 : 1);
  }
  std::vector<Pair> pairs = align(a, b);
  expectAlignment(a, b, pairs);
  EXPECT_GT(pairs.size(), 0u);
}

TEST(AlignmentTest, PositionsAreOffsetByTheBases) {
  std::vector<Pair> pairs;
  alignKeys({1, 2}, {2}, pairs, 10, 20);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], Pair(11, 20));
}

TEST(AlignmentTest, KeysDenseMapReservesStillAlign) {
  std::vector<uint64_t> a = {~0ull, ~0ull - 1, 4}, b = {4, ~0ull, ~0ull - 1};
  std::vector<Pair> pairs = align(a, b);
  expectAlignment(a, b, pairs);
  EXPECT_EQ(pairs.size(), 2u);
}
} // namespace
