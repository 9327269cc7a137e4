//===- ContentGroups.h - Group byte strings by content ----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one implementation of "which of these byte strings are identical",
// for every kind of data emit shares (delegate payloads, named data,
// constant and mutable tensor data, data files) and for every file at once.
// Items are bucketed by size and a 128-bit content hash, then confirmed
// byte for byte, in parallel, with a result that does not depend on hash
// values or scheduling.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_CONTENTGROUPS_H
#define EMIT_SUPPORT_CONTENTGROUPS_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace emit {

/// A 128-bit XXH3 content hash.
struct ContentHash {
  uint64_t low = 0, high = 0;
  /// 32 lower-case hex digits, high half first.
  std::string toHex() const;
};

/// How groupByContent works.
struct ContentGroupingOptions {
  /// Hash every item whole, so that `hashes` holds each item's hash (a
  /// report prints them). Otherwise items of 1 MiB or more are hashed by a
  /// sample first and read whole only when another item shares it.
  bool hashWhole = false;
  /// Testing only: give every item the same hash, so that only the byte
  /// comparison keeps different items apart.
  bool forceCollisions = false;
};

/// Items with identical bytes.
struct ContentGroups {
  /// Each group's items in increasing order; groups in order of their first
  /// item. Every item is in exactly one group.
  SmallVector<SmallVector<unsigned, 2>> groups;
  /// (first item of a group, item): equal size and hash, different bytes.
  /// Ordered by the second item.
  SmallVector<std::pair<unsigned, unsigned>> nearMisses;
  /// Each item's whole-content hash, where it was computed (always with
  /// `hashWhole`).
  SmallVector<std::optional<ContentHash>> hashes;
};

/// Payloads from this size on are first hashed by a sample.
constexpr uint64_t kSampledHashMinSize = 1 << 20;

/// A cheap identity of `bytes`: the XXH3-128 of all of them under
/// kSampledHashMinSize, of the sample groupByContent uses from there on
/// (first and last 64 KiB, 16 spaced 4 KiB windows). Reads as forEachChunk
/// reads.
ContentHash hashSampleOf(ArrayRef<char> bytes);

/// Groups `items` by content. Reads go through forEachChunk and
/// equalBytes, so bytes of a mapped file are read with pread and never
/// enter the resident set; each byte is read at most twice (a sample hash,
/// then a whole hash or a comparison), once for the common pair. Work runs
/// on `pool` when given, in tasks balanced by bytes; the result is the same
/// either way.
ContentGroups groupByContent(ArrayRef<ArrayRef<char>> items,
                             llvm::ThreadPoolInterface *pool,
                             const ContentGroupingOptions &options = {});

} // namespace emit

#endif // EMIT_SUPPORT_CONTENTGROUPS_H
