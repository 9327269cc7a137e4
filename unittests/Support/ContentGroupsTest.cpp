//===- ContentGroupsTest.cpp - Grouping byte strings by content -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/ContentGroups.h"

#include "llvm/Support/ThreadPool.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace emit;

namespace {

ArrayRef<char> bytesOf(const std::string &s) { return {s.data(), s.size()}; }

SmallVector<SmallVector<unsigned, 2>> groupsOf(ArrayRef<std::string> items,
                                               ContentGroupingOptions options,
                                               ContentGroups *out = nullptr) {
  std::vector<ArrayRef<char>> refs;
  for (const std::string &item : items)
    refs.push_back(bytesOf(item));
  ContentGroups groups = groupByContent(refs, nullptr, options);
  if (out)
    *out = groups;
  return groups.groups;
}

TEST(ContentGroupsTest, EqualBytesShareAGroupInFirstItemOrder) {
  std::vector<std::string> items = {"abc", "xyz", "abc", "", "xyz", ""};
  auto groups = groupsOf(items, {});
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0], (SmallVector<unsigned, 2>{0, 2}));
  EXPECT_EQ(groups[1], (SmallVector<unsigned, 2>{1, 4}));
  EXPECT_EQ(groups[2], (SmallVector<unsigned, 2>{3, 5}));
}

TEST(ContentGroupsTest, CollidingHashesAreToldApartByTheBytes) {
  std::vector<std::string> items = {"aaaa", "bbbb", "aaaa", "cc"};
  ContentGroupingOptions options;
  options.forceCollisions = true;
  ContentGroups result;
  auto groups = groupsOf(items, options, &result);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0], (SmallVector<unsigned, 2>{0, 2}));
  EXPECT_EQ(groups[1], (SmallVector<unsigned, 2>{1}));
  EXPECT_EQ(groups[2], (SmallVector<unsigned, 2>{3}));
  // Same size and hash, different bytes: a near miss, reported once.
  ASSERT_EQ(result.nearMisses.size(), 1u);
  EXPECT_EQ(result.nearMisses[0], std::make_pair(0u, 1u));
}

TEST(ContentGroupsTest, BucketOfSeveralGroupsKeepsFirstComeOrder) {
  std::vector<std::string> items = {"aaaa", "bbbb", "aaaa", "bbbb", "cccc"};
  ContentGroupingOptions options;
  options.forceCollisions = true;
  ContentGroups result;
  auto groups = groupsOf(items, options, &result);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0], (SmallVector<unsigned, 2>{0, 2}));
  EXPECT_EQ(groups[1], (SmallVector<unsigned, 2>{1, 3}));
  EXPECT_EQ(groups[2], (SmallVector<unsigned, 2>{4}));
  // Each item that starts a group is a near miss of the bucket's first.
  ASSERT_EQ(result.nearMisses.size(), 2u);
  EXPECT_EQ(result.nearMisses[0], std::make_pair(0u, 1u));
  EXPECT_EQ(result.nearMisses[1], std::make_pair(0u, 4u));
}

TEST(ContentGroupsTest, HashWholeGivesEveryHash) {
  std::vector<std::string> items = {"abc", "abd", "abc"};
  ContentGroupingOptions options;
  options.hashWhole = true;
  ContentGroups result;
  groupsOf(items, options, &result);
  ASSERT_EQ(result.hashes.size(), 3u);
  ASSERT_TRUE(result.hashes[0] && result.hashes[1] && result.hashes[2]);
  EXPECT_EQ(result.hashes[0]->toHex(), result.hashes[2]->toHex());
  EXPECT_NE(result.hashes[0]->toHex(), result.hashes[1]->toHex());
  EXPECT_EQ(result.hashes[0]->toHex().size(), 32u);
}

TEST(ContentGroupsTest, LargeItemsGroupedBySampleThenBytes) {
  // Past the sampled-hash size: equal samples, a difference in the middle.
  std::string big(kSampledHashMinSize + 4096, 'x');
  std::string other = big;
  other[other.size() / 2 + 17] = 'y';
  std::vector<std::string> items = {big, other, big};
  auto groups = groupsOf(items, {});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], (SmallVector<unsigned, 2>{0, 2}));
  EXPECT_EQ(groups[1], (SmallVector<unsigned, 2>{1}));
}

TEST(ContentGroupsTest, ThreadPoolGivesTheSameGroups) {
  std::vector<std::string> items;
  for (unsigned i = 0; i < 200; ++i)
    items.push_back(std::string(64 + i % 7, char('a' + i % 5)));
  std::vector<ArrayRef<char>> refs;
  for (const std::string &item : items)
    refs.push_back(bytesOf(item));
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(2));
  ContentGroups serial = groupByContent(refs, nullptr);
  ContentGroups parallel = groupByContent(refs, &pool);
  EXPECT_EQ(serial.groups, parallel.groups);
  EXPECT_EQ(serial.groups.size(), 35u); // 5 letters x 7 lengths.
}

} // namespace
