//===- FlatbufferAllocatorTest.cpp - Flatbuffers grown in place -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FlatbufferAllocator.h"

#include "flatbuffers/flatbuffers.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace emit;

namespace {

/// Builds the same flatbuffer however it is allocated: `count` tables of a
/// string and an int, in a vector (whose offsets the builder keeps in its
/// scratch), so that the buffer grows many times with scratch in use.
std::vector<uint8_t> buildTables(flatbuffers::FlatBufferBuilder &builder,
                                 int count) {
  std::vector<flatbuffers::Offset<flatbuffers::Table>> tables;
  for (int i = 0; i < count; ++i) {
    auto name = builder.CreateString("table " + std::to_string(i));
    flatbuffers::uoffset_t start = builder.StartTable();
    builder.AddOffset(4, name);
    builder.AddElement<int64_t>(6, int64_t(i) * 7919, 0);
    tables.push_back(builder.EndTable(start));
  }
  builder.Finish(builder.CreateVector(tables));
  return {builder.GetBufferPointer(),
          builder.GetBufferPointer() + builder.GetSize()};
}

TEST(FlatbufferAllocatorTest, BuildsWhatTheDefaultAllocatorBuilds) {
  flatbuffers::FlatBufferBuilder plain;
  std::vector<uint8_t> expected = buildTables(plain, 20000);

  ReservedRangeAllocator allocator;
  flatbuffers::FlatBufferBuilder builder(1024, &allocator);
  EXPECT_EQ(buildTables(builder, 20000), expected);
}

TEST(FlatbufferAllocatorTest, BuildersEachWithItsOwnRange) {
  flatbuffers::FlatBufferBuilder plain;
  std::vector<uint8_t> expected = buildTables(plain, 3000);

  ReservedRangeAllocator first, second;
  flatbuffers::FlatBufferBuilder a(1024, &first), b(1024, &second);
  EXPECT_EQ(buildTables(a, 3000), expected);
  EXPECT_EQ(buildTables(b, 3000), expected);
}

TEST(FlatbufferAllocatorTest, ASecondBufferComesFromTheHeap) {
  ReservedRangeAllocator allocator;
  uint8_t *inRange = allocator.allocate(4096);
  uint8_t *onHeap = allocator.allocate(4096);
  ASSERT_NE(inRange, nullptr);
  ASSERT_NE(onHeap, nullptr);
  // Both writable, neither in the other.
  std::fill(inRange, inRange + 4096, 1);
  std::fill(onHeap, onHeap + 4096, 2);
  EXPECT_EQ(inRange[4095], 1);
  EXPECT_EQ(onHeap[0], 2);
  // Growing the heap buffer copies it; growing the range's does not move
  // what was built.
  onHeap = allocator.reallocate_downward(onHeap, 4096, 8192, 4096, 0);
  EXPECT_EQ(onHeap[8191], 2);
  uint8_t *grown = allocator.reallocate_downward(inRange, 4096, 8192, 100, 0);
  EXPECT_EQ(grown + 8192, inRange + 4096);
  EXPECT_EQ(grown[8191], 1);
  allocator.deallocate(onHeap, 8192);
  allocator.deallocate(grown, 8192);
  // A range again for the next buffer: it grows without moving.
  uint8_t *again = allocator.allocate(1024);
  again[1023] = 3;
  uint8_t *regrown = allocator.reallocate_downward(again, 1024, 2048, 1, 0);
  EXPECT_EQ(regrown + 2048, again + 1024);
  EXPECT_EQ(regrown[2047], 3);
  allocator.deallocate(regrown, 2048);
}

} // namespace
