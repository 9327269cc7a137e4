//===- PayloadLayoutTest.cpp - A payload's parts, as its header says
//-------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The layout arithmetic every decoder shares: the parts a header
// announces, sorted, the gaps between them named padding, a part past the
// payload a problem at the header field that announced it (with no
// wrap-around at the top of the range), overlapping parts a problem;
// little-endian header fields; scalar types by ExecuTorch's numbering.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace emit;
using namespace emit::delegate;

namespace {

/// The regions as "name@offset+size".
std::vector<std::string> regionsOf(const DecodedPayload &decoded) {
  std::vector<std::string> regions;
  for (const PayloadRegion &region : decoded.regions)
    regions.push_back(region.name + "@" + std::to_string(region.offset) + "+" +
                      std::to_string(region.size));
  return regions;
}

TEST(PayloadLayoutTest, PartsAreSortedAndGapsArePadding) {
  DecodedPayload decoded;
  PayloadLayout layout(100, decoded);
  EXPECT_TRUE(layout.add("constants", 64, 16, 12));
  EXPECT_TRUE(layout.add("header", 0, 24, 0));
  EXPECT_TRUE(layout.add("graph", 32, 32, 8));
  EXPECT_TRUE(layout.add("empty", 90, 0, 20)); // nothing to show
  layout.finish();
  EXPECT_EQ(
      regionsOf(decoded),
      (std::vector<std::string>{"header@0+24", "padding@24+8", "graph@32+32",
                                "constants@64+16", "padding@80+20"}));
  EXPECT_TRUE(decoded.problems.empty());
}

TEST(PayloadLayoutTest, APartPastThePayloadIsAProblemAtItsField) {
  DecodedPayload decoded;
  PayloadLayout layout(100, decoded);
  EXPECT_FALSE(layout.add("graph", 90, 11, 8));
  // An offset and size whose sum wraps around are past the payload too.
  EXPECT_FALSE(layout.add("constants", UINT64_MAX - 4, 16, 12));
  EXPECT_FALSE(layout.add("table", 101, 0, 16));
  EXPECT_TRUE(layout.add("header", 0, 100, 0)); // exactly to the end
  layout.finish();
  EXPECT_EQ(regionsOf(decoded), (std::vector<std::string>{"header@0+100"}));
  ASSERT_EQ(decoded.problems.size(), 3u);
  EXPECT_EQ(decoded.problems[0].offset, 8u);
  EXPECT_EQ(decoded.problems[0].text,
            "the graph (offset 90, 11 bytes) does not fit in the 100-byte "
            "payload");
  EXPECT_EQ(decoded.problems[1].offset, 12u);
  EXPECT_EQ(decoded.problems[2].offset, 16u);
}

TEST(PayloadLayoutTest, APaddedPartMustFitWithItsPadding) {
  DecodedPayload decoded;
  PayloadLayout layout(64, decoded);
  // 20 bytes of data that its reader steps over as 32: the 12 after it
  // are padding, and the extent, not the size, must fit.
  EXPECT_TRUE(layout.addPadded("graph", 0, 20, 32, 4));
  EXPECT_FALSE(layout.addPadded("constants", 40, 20, 32, 8));
  layout.finish();
  EXPECT_EQ(regionsOf(decoded),
            (std::vector<std::string>{"graph@0+20", "padding@20+44"}));
  ASSERT_EQ(decoded.problems.size(), 1u);
  EXPECT_EQ(decoded.problems[0].offset, 8u);
}

TEST(PayloadLayoutTest, OverlappingPartsAreAProblem) {
  DecodedPayload decoded;
  PayloadLayout layout(64, decoded);
  EXPECT_TRUE(layout.add("graph", 16, 32, 8));
  EXPECT_TRUE(layout.add("constants", 40, 8, 12));
  layout.finish();
  ASSERT_EQ(decoded.problems.size(), 1u);
  EXPECT_EQ(decoded.problems[0].offset, 40u);
  EXPECT_EQ(decoded.problems[0].text,
            "the constants (offset 40) overlaps the graph, which ends at 48");
}

TEST(PayloadLayoutTest, HeaderFieldsAreLittleEndian) {
  const char bytes[] = "\x01\x02\x03\x04\x05\x06\x07\x08\x09";
  StringRef field(bytes, 9);
  EXPECT_EQ(readField(field, 0, 2), 0x0201u);
  EXPECT_EQ(readField(field, 1, 4), 0x05040302u);
  EXPECT_EQ(readField(field, 1, 8), 0x0908070605040302u);
}

TEST(PayloadLayoutTest, ScalarTypesByExecuTorchsNumbering) {
  EXPECT_EQ(getScalarTypeName(6), "float");
  EXPECT_EQ(getScalarTypeBytes(6), 4u);
  EXPECT_EQ(getScalarTypeName(15), "bfloat16");
  EXPECT_EQ(getScalarTypeBytes(29), 8u); // uint64
  EXPECT_EQ(getScalarTypeName(30), "scalar type 30");
  EXPECT_EQ(getScalarTypeBytes(30), std::nullopt);
  EXPECT_EQ(getScalarTypeBytes(-1), std::nullopt);
}

} // namespace
