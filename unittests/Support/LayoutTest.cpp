//===- LayoutTest.cpp - Alignment and placement arithmetic ----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/Layout.h"

#include "gtest/gtest.h"

#include <vector>

using namespace emit;
using namespace emit::layout;

namespace {

TEST(LayoutTest, PowerOfTwoDividing) {
  EXPECT_EQ(powerOfTwoDividing(0), 0u);
  EXPECT_EQ(powerOfTwoDividing(1), 1u);
  EXPECT_EQ(powerOfTwoDividing(96), 32u);
  EXPECT_EQ(powerOfTwoDividing(1152), 128u);
  EXPECT_EQ(powerOfTwoDividing(uint64_t(1) << 63), uint64_t(1) << 63);
}

TEST(LayoutTest, CommonAlignmentIgnoresZeroAndCaps) {
  EXPECT_EQ(commonAlignment({}, 4096), 4096u);
  EXPECT_EQ(commonAlignment({0, 0}, 4096), 4096u);
  EXPECT_EQ(commonAlignment({0, 64, 192}, 4096), 64u);
  EXPECT_EQ(commonAlignment({8192, 16384}, 4096), 4096u);
  EXPECT_EQ(commonAlignment({3}, 16), 1u);
}

TEST(LayoutTest, AppendAlignedPlacesAndAdvances) {
  uint64_t end = 0;
  EXPECT_EQ(appendAligned(end, 5, 16), 0u);
  EXPECT_EQ(end, 5u);
  EXPECT_EQ(appendAligned(end, 3, 16), 16u);
  EXPECT_EQ(end, 19u);
  // An empty piece still takes an aligned place, and moves the end there.
  EXPECT_EQ(appendAligned(end, 0, 8), 24u);
  EXPECT_EQ(end, 24u);
  EXPECT_EQ(appendAligned(end, 1, 1), 24u);
}

TEST(LayoutTest, ResolveSegmentAlignment) {
  EXPECT_EQ(resolveSegmentAlignment(std::nullopt, std::nullopt), 128u);
  EXPECT_EQ(resolveSegmentAlignment(std::nullopt, 4096), 4096u);
  EXPECT_EQ(resolveSegmentAlignment(1024, std::nullopt), 1024u);
  // The IR's alignment is kept: an option raises it, never lowers it.
  EXPECT_EQ(resolveSegmentAlignment(1024, 128), 1024u);
  EXPECT_EQ(resolveSegmentAlignment(128, 4096), 4096u);
}

TEST(LayoutTest, PlaceSegmentsAtTheLcmOfBothAlignments) {
  std::vector<char> bytes(300);
  ArrayRef<char> all(bytes);
  Segment segments[] = {{all.take_front(0), 1},
                        {all.take_front(100), 1},
                        {all.take_front(40), 256},
                        {all.take_front(3), 16}};
  uint64_t base = placeSegments(segments, 128);
  EXPECT_EQ(segments[0].offset, 0u);
  // An empty segment takes no room: the next one starts at 0 too.
  EXPECT_EQ(segments[1].offset, 0u);
  EXPECT_EQ(segments[2].offset, 256u);
  EXPECT_EQ(segments[3].offset, 384u);
  EXPECT_EQ(base, 256u);
  EXPECT_EQ(segmentDataSize(segments), 387u);
  EXPECT_EQ(segmentDataSize({}), 0u);
}

TEST(LayoutTest, InferSegmentAlignmentsOfAnExecuTorchFile) {
  // AddModel.pte: base 1152, one 4-byte constant segment.
  InferredSegments one = inferSegmentAlignments(1152, {{0, 4}});
  ASSERT_TRUE(one.segmentAlignment);
  EXPECT_EQ(*one.segmentAlignment, 128u);
  ASSERT_EQ(one.alignments.size(), 1u);
  EXPECT_EQ(one.alignments[0], 128u);

  // Segment alignment 1024, and a named blob asking for 2048.
  InferredSegments named =
      inferSegmentAlignments(4096, {{0, 16}, {1024, 16}, {2048, 768}});
  EXPECT_EQ(*named.segmentAlignment, 1024u);
  EXPECT_EQ(named.alignments[2], 2048u);
}

TEST(LayoutTest, InferSegmentAlignmentsRefusesOverlap) {
  InferredSegments overlap = inferSegmentAlignments(128, {{0, 16}, {8, 16}});
  EXPECT_TRUE(overlap.alignments[0].has_value());
  EXPECT_FALSE(overlap.alignments[1].has_value());
}

TEST(LayoutTest, InferSegmentAlignmentsWithoutData) {
  InferredSegments none = inferSegmentAlignments(0, {});
  EXPECT_FALSE(none.segmentAlignment.has_value());
  EXPECT_TRUE(none.alignments.empty());
}

} // namespace
