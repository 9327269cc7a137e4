//===- CoveredBytesTest.cpp - The union of changing byte ranges -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "CoveredBytes.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <random>

using namespace emit::memory;

TEST(CoveredBytes, EmptyCoversNothing) {
  CoveredBytes none({});
  EXPECT_EQ(none.getCovered(), 0u);
  none.add(0, 16); // Ends it was not built with: ignored, not a crash.
  EXPECT_EQ(none.getCovered(), 0u);
}

TEST(CoveredBytes, DisjointRangesAdd) {
  CoveredBytes bytes({0, 16, 32, 48});
  bytes.add(0, 16);
  bytes.add(32, 48);
  EXPECT_EQ(bytes.getCovered(), 32u);
  bytes.remove(0, 16);
  EXPECT_EQ(bytes.getCovered(), 16u);
}

TEST(CoveredBytes, SharedBytesCountOnce) {
  // A tensor and a view of it on the same bytes, and a partial overlap.
  CoveredBytes bytes({0, 8, 16, 24});
  bytes.add(0, 16);
  bytes.add(0, 16);
  EXPECT_EQ(bytes.getCovered(), 16u);
  bytes.add(8, 24);
  EXPECT_EQ(bytes.getCovered(), 24u);
  bytes.remove(0, 16);
  EXPECT_EQ(bytes.getCovered(), 24u);
  bytes.remove(0, 16);
  EXPECT_EQ(bytes.getCovered(), 16u);
  bytes.remove(8, 24);
  EXPECT_EQ(bytes.getCovered(), 0u);
}

TEST(CoveredBytes, NestedRanges) {
  CoveredBytes bytes({0, 4, 12, 100});
  bytes.add(0, 100);
  bytes.add(4, 12);
  EXPECT_EQ(bytes.getCovered(), 100u);
  bytes.remove(0, 100);
  EXPECT_EQ(bytes.getCovered(), 8u);
}

TEST(CoveredBytes, EmptyRangeIsNothing) {
  CoveredBytes bytes({0, 16});
  bytes.add(16, 16);
  bytes.add(16, 0);
  EXPECT_EQ(bytes.getCovered(), 0u);
}

TEST(CoveredBytes, AgreesWithCountingEveryByte) {
  // Ranges over 64 bytes, added and removed in a fixed order, against a
  // count per byte.
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  std::vector<uint64_t> points;
  for (uint64_t begin = 0; begin < 64; begin += 7)
    for (uint64_t length : {1, 5, 13}) {
      uint64_t end = std::min<uint64_t>(begin + length, 64);
      ranges.push_back({begin, end});
      points.push_back(begin);
      points.push_back(end);
    }
  CoveredBytes bytes(points);
  std::vector<int> counts(64, 0);
  auto expected = [&] {
    uint64_t covered = 0;
    for (int count : counts)
      covered += count > 0;
    return covered;
  };
  for (size_t step = 0; step < ranges.size(); ++step) {
    auto [begin, end] = ranges[step];
    bytes.add(begin, end);
    for (uint64_t byte = begin; byte < end; ++byte)
      ++counts[byte];
    EXPECT_EQ(bytes.getCovered(), expected());
    if (step % 3 == 2) {
      auto [oldBegin, oldEnd] = ranges[step - 2];
      bytes.remove(oldBegin, oldEnd);
      for (uint64_t byte = oldBegin; byte < oldEnd; ++byte)
        --counts[byte];
      EXPECT_EQ(bytes.getCovered(), expected());
    }
  }
}

TEST(CoveredBytes, AgreesWithCountingEveryByteAtRandom) {
  // Ranges among 1 to 40 points (tree sizes that are and are not powers of
  // two), some nested, some the whole span, added and removed in random
  // order, against a count per byte.
  std::mt19937 random(55);
  for (unsigned pointCount = 1; pointCount <= 40; ++pointCount) {
    std::vector<uint64_t> points;
    for (unsigned i = 0; i < pointCount; ++i)
      points.push_back(random() % 200);
    CoveredBytes bytes(points);
    llvm::sort(points);
    std::vector<int> counts(200, 0);
    std::vector<std::pair<uint64_t, uint64_t>> live;
    auto change = [&](std::pair<uint64_t, uint64_t> range, int delta) {
      for (uint64_t byte = range.first; byte < range.second; ++byte)
        counts[byte] += delta;
    };
    for (unsigned step = 0; step < 300; ++step) {
      if (!live.empty() && random() % 3 == 0) {
        size_t which = random() % live.size();
        bytes.remove(live[which].first, live[which].second);
        change(live[which], -1);
        live.erase(live.begin() + which);
      } else {
        uint64_t a = points[random() % pointCount];
        uint64_t b = points[random() % pointCount];
        std::pair<uint64_t, uint64_t> range{std::min(a, b), std::max(a, b)};
        bytes.add(range.first, range.second);
        change(range, 1);
        live.push_back(range);
      }
      uint64_t expected = llvm::count_if(counts, [](int c) { return c > 0; });
      ASSERT_EQ(bytes.getCovered(), expected)
          << pointCount << " points, step " << step;
    }
  }
}
