//===- Dedup.h - The parts of --dedup-delegate-blobs ------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The pass stores identical data once in each program and data file. It is
// split into the parts a reader holds one at a time: the policy decides
// what may be shared and plans the merges (DedupPolicy.cpp), on groups of
// identical bytes from the shared content grouping (emit/Support); the
// report states the plan (DedupReport.cpp); the rewrite carries it out
// (DedupRewrite.cpp). The pass itself (DedupDelegateBlobs.cpp) runs them.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DIALECT_ET_TRANSFORMS_DEDUP_H
#define EMIT_LIB_DIALECT_ET_TRANSFORMS_DEDUP_H

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Support/ContentGroups.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace emit::et::dedup {

/// The report's name of a kind of data: its keyword in the dialect.
inline StringRef getKindName(DataKind kind) { return stringifyDataKind(kind); }

/// The policy options of the pass.
struct Policy {
  bool methodScope = false; // scope=method
  bool sameBackend = false;
  uint64_t minSize = 0;
  /// Also rebuild segments that hold bytes no tensor reads.
  bool compactSegments = false;
  ContentGroupingOptions grouping;
};

/// One delegate entry that names a blob.
struct User {
  StringRef method;
  unsigned entryIndex; // In the method's delegate table.
  unsigned calls;      // Instructions that call the entry.
  StringRef backend;
  uint64_t specsDigest;
};

/// A blob that may be merged with blobs of equal bytes.
struct Candidate {
  mutable BlobOp blob; // An op handle: reading it does not change the plan.
  ArrayRef<char> bytes;
  DataKind kind;
  /// The policy's partition; equal bytes merge only within one. Its parts
  /// are the users' method (scope=method), their backend (same-backend)
  /// and the blob's placement; a blob under min-size is its own part.
  std::string scopeKey, backendKey, placementKey;
  bool belowMinSize = false;
};

/// Equal blobs that become one: the survivor and the blobs merged into it.
struct Merge {
  unsigned survivor;
  SmallVector<unsigned> merged;
  uint64_t alignment; // The least common multiple of all of theirs.
};

/// The entries of the constant segment or of one mutable data segment:
/// ranges of one blob that tensors read, with equal ones stored once.
struct SegmentEntries {
  Operation *op; // ConstantSegmentOp or MutableDataSegmentOp.
  mutable BlobOp blob;
  DataKind kind;
  /// Per entry, the bytes the tensors that read it need; 0 for none.
  SmallVector<uint64_t> sizes;
  /// The alignment every entry's offset has, kept when they move.
  uint64_t alignment = 1;
  /// Entries whose bytes an earlier entry already holds: (entry, earlier).
  SmallVector<std::pair<unsigned, unsigned>> duplicates;
  /// The new segment: each entry's offset, and the ranges of the old bytes
  /// it is made of, as (old offset, size, new offset), in order.
  SmallVector<int64_t> newOffsets;
  SmallVector<std::tuple<uint64_t, uint64_t, uint64_t>> pieces;
  /// The segment's bytes before and after storing each entry once.
  uint64_t bytesBefore = 0, bytesAfter = 0;
};

/// Everything the pass decided for one program or data file.
struct Plan {
  Operation *container; // ProgramOp or DataFileOp.
  SmallVector<Candidate> candidates;
  SmallVector<Merge> merges;
  /// (first of a group, candidate): equal size and hash, different bytes.
  SmallVector<std::pair<unsigned, unsigned>> nearMisses;
  /// Candidates kept apart from equal bytes, and which policy did it.
  SmallVector<std::pair<unsigned, std::string>> keptApart;
  /// Each candidate's whole-content hash, where computed.
  SmallVector<std::optional<ContentHash>> hashes;
  /// The delegate entries that name each blob (for policy and report).
  DenseMap<mlir::StringAttr, SmallVector<User, 1>> users;
  std::vector<SegmentEntries> segments;
  /// Payloads expanded from splats, alive as long as the plan.
  SplatStorage splats;
};

/// Decides what may be merged in `container` and how: the blobs of equal
/// bytes, and the equal entries of its constant and mutable segments.
/// `needUsers` keeps the users of each blob (for a report).
Plan planDedup(Operation *container, const Policy &policy, bool needUsers,
               llvm::ThreadPoolInterface *pool);

/// Writes `plan` as one report object (docs/DedupReport.md).
void writeReport(const Plan &plan, bool dryRun, llvm::json::OStream &json);

/// States `plan` as remarks on the blobs and segments it concerns.
void emitRemarks(const Plan &plan);

/// Carries out `plan`: merged blobs go, references name their survivors,
/// which take the lcm of the alignments and every location; each segment
/// with duplicate entries is stored with every entry once.
void applyPlan(Plan &plan);

/// Within each method of `program`, makes calls of delegate entries equal
/// in backend id, compile specs and payload blob call the first such entry,
/// and erases the others.
void shareDelegateEntries(ProgramOp program, bool remarks);

} // namespace emit::et::dedup

#endif // EMIT_LIB_DIALECT_ET_TRANSFORMS_DEDUP_H
