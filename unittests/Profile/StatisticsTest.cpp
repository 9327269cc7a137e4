//===- StatisticsTest.cpp - A profile's numbers ---------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LoggedValues.h"

#include "emit/Profile/ProfileReport.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace emit;
using namespace emit::profile;

namespace {

// Nearest rank: the smallest value that at least p% of the values do not
// exceed.
TEST(StatisticsTest, PercentilesAreNearestRank) {
  std::vector<uint64_t> durations = {50, 10, 40, 20, 30};
  TimeStats stats = summarizeDurations(durations);
  EXPECT_EQ(stats.count, 5u);
  EXPECT_EQ(stats.total, 150u);
  EXPECT_EQ(stats.min, 10u);
  EXPECT_EQ(stats.max, 50u);
  EXPECT_EQ(stats.p50, 30u);
  EXPECT_EQ(stats.p90, 50u);

  std::vector<uint64_t> ten;
  for (uint64_t value = 1; value <= 10; ++value)
    ten.push_back(value * 100);
  stats = summarizeDurations(ten);
  EXPECT_EQ(stats.p50, 500u);
  EXPECT_EQ(stats.p90, 900u);

  std::vector<uint64_t> one = {7};
  stats = summarizeDurations(one);
  EXPECT_EQ(stats.p50, 7u);
  EXPECT_EQ(stats.p90, 7u);

  std::vector<uint64_t> none;
  stats = summarizeDurations(none);
  EXPECT_EQ(stats.count, 0u);
  EXPECT_EQ(stats.p50, 0u);
}

TEST(StatisticsTest, HalvesDecode) {
  EXPECT_EQ(decodeHalf(0x3c00), 1.0);
  EXPECT_EQ(decodeHalf(0xc000), -2.0);
  EXPECT_EQ(decodeHalf(0x3555), 0.333251953125);
  EXPECT_EQ(decodeHalf(0x7bff), 65504.0);
  // Subnormals, zeros and the specials.
  EXPECT_EQ(decodeHalf(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(decodeHalf(0x03ff), std::ldexp(1023.0, -24));
  EXPECT_EQ(decodeHalf(0x0000), 0.0);
  EXPECT_TRUE(std::signbit(decodeHalf(0x8000)));
  EXPECT_EQ(decodeHalf(0x7c00), INFINITY);
  EXPECT_EQ(decodeHalf(0xfc00), -INFINITY);
  EXPECT_TRUE(std::isnan(decodeHalf(0x7e00)));
}

TEST(StatisticsTest, BFloat16sDecode) {
  EXPECT_EQ(decodeBFloat16(0x3f80), 1.0);
  EXPECT_EQ(decodeBFloat16(0xc040), -3.0);
  EXPECT_EQ(decodeBFloat16(0x4049), 3.140625);
  EXPECT_EQ(decodeBFloat16(0x7f80), INFINITY);
  EXPECT_TRUE(std::isnan(decodeBFloat16(0x7fc0)));
  EXPECT_EQ(decodeBFloat16(0x0001), std::ldexp(1.0, -133));
}

} // namespace
