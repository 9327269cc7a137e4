//===- ContentGroups.cpp - Group byte strings by content --------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Size and hash decide which items may be equal; bytes decide which are.
// Large items are first hashed by a sample (head, tail, 16 windows): one
// whose size and sample no other item shares is never read whole, a pair
// that shares them is compared directly, and more are split by a whole hash
// before comparing, so that comparisons stay linear.
//
//===----------------------------------------------------------------------===//

#include "emit/Support/ContentGroups.h"
#include "emit/Support/Hex.h"
#include "emit/Support/MappedMemory.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <xxhash.h>

using namespace emit;

std::string ContentHash::toHex() const { return hex16(high) + hex16(low); }

namespace {
/// Size and hash: the bucket key. Equal keys are only candidates.
struct Key {
  uint64_t size;
  ContentHash hash;
  bool operator==(const Key &other) const {
    return size == other.size && hash.low == other.hash.low &&
           hash.high == other.hash.high;
  }
};
} // namespace

namespace llvm {
template <>
struct DenseMapInfo<Key> {
  static Key getEmptyKey() { return {~0ull, {}}; }
  static Key getTombstoneKey() { return {~0ull - 1, {}}; }
  static unsigned getHashValue(const Key &key) {
    return static_cast<unsigned>(key.hash.low ^ (key.hash.low >> 32) ^
                                 key.size);
  }
  static bool isEqual(const Key &a, const Key &b) { return a == b; }
};
} // namespace llvm

/// XXH3-128 of `pieces` of `bytes`, each read as forEachChunk reads it.
static ContentHash hashPieces(ArrayRef<char> bytes,
                              ArrayRef<std::pair<size_t, size_t>> pieces) {
  XXH3_state_t *state = XXH3_createState();
  XXH3_128bits_reset(state);
  for (auto [offset, size] : pieces)
    forEachChunk(bytes.slice(offset, size), [&](ArrayRef<char> chunk) {
      XXH3_128bits_update(state, chunk.data(), chunk.size());
    });
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return {hash.low64, hash.high64};
}

/// XXH3-128 of all of `bytes`, read once.
static ContentHash hashWhole(ArrayRef<char> bytes) {
  return hashPieces(bytes, {{0, bytes.size()}});
}

/// XXH3-128 of a sample of `bytes`: its first and last 64 KiB and 16 evenly
/// spaced 4 KiB windows. Items that differ usually differ there (a header,
/// weights, a trailer); those that do not are compared whole.
static ContentHash hashSample(ArrayRef<char> bytes) {
  constexpr size_t edge = 64 << 10, window = 4 << 10, windows = 16;
  SmallVector<std::pair<size_t, size_t>, windows + 2> pieces{{0, edge}};
  size_t stride = (bytes.size() - window) / (windows + 1);
  for (size_t i = 1; i <= windows; ++i)
    pieces.push_back({i * stride, window});
  pieces.push_back({bytes.size() - edge, edge});
  return hashPieces(bytes, pieces);
}

ContentHash emit::hashSampleOf(ArrayRef<char> bytes) {
  return bytes.size() < kSampledHashMinSize ? hashWhole(bytes)
                                            : hashSample(bytes);
}

/// Runs `body` on every index in [0, count), on `pool` when given, in tasks
/// of consecutive indices balanced by `weight` (bytes read). One task per
/// index would cost more than a small item's work.
static void parallelForWeighted(llvm::ThreadPoolInterface *pool, size_t count,
                                function_ref<uint64_t(size_t)> weight,
                                function_ref<void(size_t)> body) {
  if (!pool || pool->getMaxConcurrency() <= 1 || count < 2) {
    for (size_t index = 0; index < count; ++index)
      body(index);
    return;
  }
  // Per-index overhead, in bytes of reading, so that many tiny items are
  // split too.
  constexpr uint64_t kItemWeight = 4096;
  uint64_t total = 0;
  for (size_t index = 0; index < count; ++index)
    total += weight(index) + kItemWeight;
  // A few tasks per thread, so that uneven items still balance.
  uint64_t perTask =
      std::max<uint64_t>(1, total / (8 * pool->getMaxConcurrency()));
  llvm::ThreadPoolTaskGroup tasks(*pool);
  uint64_t taskWeight = 0;
  size_t begin = 0;
  for (size_t index = 0; index < count; ++index) {
    taskWeight += weight(index) + kItemWeight;
    if (taskWeight >= perTask || index + 1 == count) {
      tasks.async([begin, end = index + 1, body] {
        for (size_t item = begin; item < end; ++item)
          body(item);
      });
      begin = index + 1;
      taskWeight = 0;
    }
  }
  tasks.wait();
}

namespace {
/// Items whose size and hash are equal, in order of their first item.
using Buckets = SmallVector<SmallVector<unsigned, 2>>;
} // namespace

/// Buckets `items` by size and hash (whole, or a sample where the options
/// allow and the bucket holds at most two), storing each whole hash in
/// `hashes`.
static Buckets
bucketByHash(ArrayRef<ArrayRef<char>> items, llvm::ThreadPoolInterface *pool,
             const ContentGroupingOptions &options,
             MutableArrayRef<std::optional<ContentHash>> hashes) {
  auto sampled = [&](size_t index) {
    return !options.hashWhole && items[index].size() >= kSampledHashMinSize;
  };
  // Every merge is confirmed byte for byte below, so a key only has to be
  // equal for equal bytes.
  SmallVector<Key> keys(items.size());
  auto fingerprint = [&](size_t index, bool whole) {
    ContentHash hash;
    if (!options.forceCollisions)
      hash = whole ? hashWhole(items[index]) : hashSample(items[index]);
    keys[index] = {items[index].size(), hash};
    if (whole)
      hashes[index] = hash;
  };
  parallelForWeighted(
      pool, items.size(), [&](size_t index) { return items[index].size(); },
      [&](size_t index) { fingerprint(index, !sampled(index)); });

  Buckets buckets;
  auto fillBuckets = [&] {
    buckets.clear();
    llvm::DenseMap<Key, unsigned> bucketOf;
    for (unsigned index = 0; index < items.size(); ++index) {
      auto [it, inserted] = bucketOf.try_emplace(keys[index], buckets.size());
      if (inserted)
        buckets.emplace_back();
      buckets[it->second].push_back(index);
    }
  };
  fillBuckets();
  // Two items with equal samples are simply compared. Among more, a whole
  // hash first splits them. Equal keys mean equal sizes, so a bucket is
  // sampled or not as a whole.
  SmallVector<unsigned> rehash;
  for (ArrayRef<unsigned> bucket : buckets)
    if (bucket.size() > 2 && sampled(bucket.front()))
      llvm::append_range(rehash, bucket);
  if (!rehash.empty()) {
    parallelForWeighted(
        pool, rehash.size(),
        [&](size_t index) { return items[rehash[index]].size(); },
        [&](size_t index) { fingerprint(rehash[index], /*whole=*/true); });
    fillBuckets();
  }
  return buckets;
}

namespace {
/// A candidate duplicate: an item and the first item of its bucket.
struct Candidate {
  unsigned first, item;
};
} // namespace

/// Whether each candidate's item equals its bucket's first item. Compared
/// in parallel, in the order of the items' bytes in memory (file order for
/// a mapped file), so that neighbours read next come from one read-ahead
/// instead of a read each.
static llvm::BitVector confirmCandidates(ArrayRef<ArrayRef<char>> items,
                                         MutableArrayRef<Candidate> candidates,
                                         llvm::ThreadPoolInterface *pool) {
  llvm::sort(candidates, [&](const Candidate &a, const Candidate &b) {
    return std::make_pair(reinterpret_cast<uintptr_t>(items[a.item].data()),
                          a.item) <
           std::make_pair(reinterpret_cast<uintptr_t>(items[b.item].data()),
                          b.item);
  });
  // Reads ahead only where the next comparison reads on from here: a
  // read-ahead that no neighbour uses would multiply the bytes read.
  auto readsOn = [&](unsigned from, unsigned next) {
    uintptr_t start = reinterpret_cast<uintptr_t>(items[from].data());
    uintptr_t nextStart = reinterpret_cast<uintptr_t>(items[next].data());
    return nextStart >= start &&
           nextStart - start + items[next].size() <= kReadAheadSize;
  };
  std::vector<char> equal(candidates.size());
  parallelForWeighted(
      pool, candidates.size(),
      [&](size_t index) { return 2 * items[candidates[index].item].size(); },
      [&](size_t index) {
        Candidate candidate = candidates[index];
        bool last = index + 1 == candidates.size();
        bool aheadFirst =
            !last && readsOn(candidate.first, candidates[index + 1].first);
        bool aheadItem =
            !last && readsOn(candidate.item, candidates[index + 1].item);
        equal[index] = equalBytes(items[candidate.first], items[candidate.item],
                                  aheadFirst, aheadItem);
      });
  llvm::BitVector unequal(items.size());
  for (auto [candidate, isEqual] : llvm::zip_equal(candidates, equal))
    if (!isEqual)
      unequal.set(candidate.item);
  return unequal;
}

/// Splits the buckets into groups of equal bytes and adds them and the near
/// misses to `result` in item order, whatever the bucketing and scheduling.
/// Every item is first compared with its bucket's first item; one that
/// differs is then compared with the first of each other group so far.
static void compareWithinBuckets(ArrayRef<ArrayRef<char>> items,
                                 const Buckets &buckets,
                                 llvm::ThreadPoolInterface *pool,
                                 ContentGroups &result) {
  std::vector<Candidate> candidates;
  for (ArrayRef<unsigned> bucket : buckets)
    for (unsigned item : bucket.drop_front())
      candidates.push_back({bucket.front(), item});
  llvm::BitVector unequal = confirmCandidates(items, candidates, pool);

  for (ArrayRef<unsigned> bucket : buckets) {
    size_t firstGroup = result.groups.size();
    result.groups.push_back({bucket.front()});
    for (unsigned item : bucket.drop_front()) {
      if (!unequal[item]) {
        result.groups[firstGroup].push_back(item);
        continue;
      }
      auto others = MutableArrayRef(result.groups).drop_front(firstGroup + 1);
      auto match = llvm::find_if(others, [&](auto &group) {
        return equalBytes(items[group.front()], items[item]);
      });
      if (match != others.end()) {
        match->push_back(item);
        continue;
      }
      result.nearMisses.push_back({bucket.front(), item});
      result.groups.push_back({item});
    }
  }
  llvm::sort(result.groups, [](const auto &a, const auto &b) {
    return a.front() < b.front();
  });
  llvm::sort(result.nearMisses, [](auto a, auto b) {
    return std::make_pair(a.second, a.first) <
           std::make_pair(b.second, b.first);
  });
}

ContentGroups emit::groupByContent(ArrayRef<ArrayRef<char>> items,
                                   llvm::ThreadPoolInterface *pool,
                                   const ContentGroupingOptions &options) {
  ContentGroups result;
  result.hashes.resize(items.size());
  Buckets buckets = bucketByHash(items, pool, options, result.hashes);
  compareWithinBuckets(items, buckets, pool, result);
  return result;
}
