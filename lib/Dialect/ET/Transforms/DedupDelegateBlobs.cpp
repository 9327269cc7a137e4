//===- DedupDelegateBlobs.cpp - Share identical delegate payloads -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stores each distinct delegate payload once per program while every call
// keeps its own backend id and compile specs. The merge reads every payload
// byte once to hash it and compares bytes only within a bucket of equal size
// and hash, so the cost is O(total bytes) and no collision can merge
// different payloads.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Support/MappedMemory.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <numeric>
#include <vector>
#include <xxhash.h>

namespace emit::et {
#define GEN_PASS_DEF_DEDUPDELEGATEBLOBS
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
/// Size and 128-bit content hash: the bucket key. Equal keys are only
/// candidates; bytes decide.
struct ContentKey {
  uint64_t size;
  uint64_t hashLow;
  uint64_t hashHigh;
  bool operator==(const ContentKey &other) const {
    return size == other.size && hashLow == other.hashLow &&
           hashHigh == other.hashHigh;
  }
};
} // namespace

namespace llvm {
template <>
struct DenseMapInfo<ContentKey> {
  static ContentKey getEmptyKey() { return {~0ull, 0, 0}; }
  static ContentKey getTombstoneKey() { return {~0ull - 1, 0, 0}; }
  static unsigned getHashValue(const ContentKey &key) {
    return static_cast<unsigned>(key.hashLow ^ (key.hashLow >> 32));
  }
  static bool isEqual(const ContentKey &a, const ContentKey &b) {
    return a == b;
  }
};
} // namespace llvm

namespace {
/// One blob that survives, with everything merged into it.
struct Survivor {
  BlobOp blob;
  ArrayRef<char> bytes;
  uint64_t alignment;
  SmallVector<Location> locations;
};

struct DedupDelegateBlobsPass
    : public emit::et::impl::DedupDelegateBlobsBase<DedupDelegateBlobsPass> {
  using DedupDelegateBlobsBase::DedupDelegateBlobsBase;
  void runOnOperation() override;
  void dedupProgram(ProgramOp program);
};
} // namespace

void DedupDelegateBlobsPass::dedupProgram(ProgramOp program) {
  MLIRContext *context = program.getContext();

  // Group blobs by content, in program order. The bucket map only finds
  // candidates; `survivors` owns the result in a deterministic order.
  SmallVector<Survivor> survivors;
  DenseMap<ContentKey, SmallVector<unsigned, 1>> buckets;
  // Maps a merged-away blob's name to its survivor's index.
  DenseMap<StringAttr, unsigned> replacement;
  SmallVector<char> splatStorage;
  // Expanded splats; std::vector keeps each buffer in place when moved.
  std::vector<std::vector<char>> ownedSplats;

  // Gather the bytes of every blob, then hash them in parallel: hashing is
  // the only step that reads every payload byte.
  struct Candidate {
    BlobOp blob;
    ArrayRef<char> bytes;
    ContentKey key;
  };
  SmallVector<Candidate> candidates;
  for (BlobOp blob : program.getBlobs()) {
    splatStorage.clear();
    std::optional<ArrayRef<char>> bytes =
        getPayloadBytes(blob.getData(), splatStorage);
    if (!bytes)
      continue; // Elided or released data cannot be compared: keep it.
    if (!splatStorage.empty()) {
      ownedSplats.emplace_back(splatStorage.begin(), splatStorage.end());
      bytes = ArrayRef<char>(ownedSplats.back());
    }
    candidates.push_back({blob, *bytes, {}});
  }
  bool collide = testForceHashCollisions;
  mlir::parallelForEach(context, candidates, [collide](Candidate &candidate) {
    ArrayRef<char> bytes = candidate.bytes;
    XXH128_hash_t hash = collide ? XXH128_hash_t{0, 0}
                                 : XXH3_128bits(bytes.data(), bytes.size());
    candidate.key = {bytes.size(), hash.low64, hash.high64};
    releaseMappedPages(bytes);
  });

  for (Candidate &candidate : candidates) {
    BlobOp blob = candidate.blob;
    ArrayRef<char> bytes = candidate.bytes;
    SmallVector<unsigned, 1> &bucket = buckets[candidate.key];
    auto match = llvm::find_if(bucket, [&](unsigned index) {
      // Confirm byte for byte.
      bool equal = survivors[index].bytes == bytes;
      releaseMappedPages(survivors[index].bytes);
      releaseMappedPages(bytes);
      return equal;
    });
    if (match == bucket.end()) {
      bucket.push_back(survivors.size());
      survivors.push_back({blob,
                           bytes,
                           static_cast<uint64_t>(blob.getAlignment()),
                           {blob.getLoc()}});
      continue;
    }
    Survivor &survivor = survivors[*match];
    survivor.alignment = std::lcm(survivor.alignment,
                                  static_cast<uint64_t>(blob.getAlignment()));
    survivor.locations.push_back(blob.getLoc());
    replacement[blob.getSymNameAttr()] = *match;
  }

  // Point every reference (calls and program data alike) at its survivor
  // and record which blobs are used, in one sweep over the program.
  DenseSet<StringAttr> used;
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](FlatSymbolRefAttr symbol) -> std::optional<Attribute> {
        auto it = replacement.find(symbol.getAttr());
        if (it == replacement.end()) {
          used.insert(symbol.getAttr());
          return std::nullopt;
        }
        StringAttr survivor = survivors[it->second].blob.getSymNameAttr();
        used.insert(survivor);
        return FlatSymbolRefAttr::get(survivor);
      });
  replacer.recursivelyReplaceElementsIn(program, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/false);

  for (Survivor &survivor : survivors) {
    if (survivor.alignment !=
        static_cast<uint64_t>(survivor.blob.getAlignment()))
      survivor.blob.setAlignment(survivor.alignment);
    if (survivor.locations.size() > 1)
      survivor.blob->setLoc(FusedLoc::get(context, survivor.locations));
  }
  for (BlobOp blob : llvm::make_early_inc_range(program.getBlobs()))
    if (!used.contains(blob.getSymNameAttr()))
      blob.erase();
}

void DedupDelegateBlobsPass::runOnOperation() {
  SmallVector<Operation *> programs;
  for (ProgramOp program : getOperation().getOps<ProgramOp>())
    programs.push_back(program);
  if (programs.empty())
    return;

  // Hoist inline payloads with the program canonicalization, driven only on
  // the programs themselves.
  RewritePatternSet patterns(&getContext());
  ProgramOp::getCanonicalizationPatterns(patterns, &getContext());
  GreedyRewriteConfig config;
  config.strictMode = GreedyRewriteStrictness::ExistingOps;
  // The pattern hoists every inline payload of a program in one application,
  // so the driver converges; a payload left inline would still be written
  // correctly, only unshared.
  (void)applyOpPatternsAndFold(programs, std::move(patterns), config);

  for (Operation *program : programs)
    dedupProgram(cast<ProgramOp>(program));
}
