//===- Dedup.h - The parts of --dedup-delegate-blobs ------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Storing identical data once is a pipeline of passes, each with one job
// (hoist inline payloads, share blobs, share segment entries, share delegate
// entries); `dedup-delegate-blobs` runs them (DedupDelegateBlobs.cpp). The
// sharing passes plan first and then carry out the plan: the policy decides
// what may be shared (DedupPolicy.cpp) on groups of identical bytes from the
// shared content grouping (emit/Support); the rewrite carries it out
// (DedupRewrite.cpp); the result states it (DedupReport.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DIALECT_ET_TRANSFORMS_DEDUP_H
#define EMIT_LIB_DIALECT_ET_TRANSFORMS_DEDUP_H

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/DedupResult.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Support/ContentGroups.h"

#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace emit::et::dedup {

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
  /// The policy's partition; equal bytes merge only within one part. Its
  /// keys are the users' method (scope=method), their backend
  /// (same-backend) and the blob's placement, each numbered (0 where the
  /// policy does not look); a blob under min-size is its own part. Numbers,
  /// not strings: a program can have a candidate per delegate call.
  unsigned scopeKey = 0, backendKey = 0, placementKey = 0;
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

/// What the blob sharing decided for one program or data file.
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
  /// The delegate entries that name each blob (for policy and result).
  DenseMap<mlir::StringAttr, SmallVector<User, 1>> users;
  /// Payloads expanded from splats, alive as long as the plan.
  SplatStorage splats;
};

/// What the segment entry sharing decided for one program.
struct SegmentPlan {
  std::vector<SegmentEntries> segments;
  SplatStorage splats;
};

/// Decides which blobs of `container` (a program or data file) become one.
/// `needUsers` keeps the users of each blob (for a result).
Plan planBlobSharing(Operation *container, const Policy &policy, bool needUsers,
                     llvm::ThreadPoolInterface *pool);

/// Decides which entries of `program`'s constant and mutable segments are
/// stored once, and how the segments are laid out again.
SegmentPlan planSegmentSharing(ProgramOp program, const Policy &policy,
                               llvm::ThreadPoolInterface *pool);

/// States `plan` in `result`: its groups, what was kept apart, and the bytes
/// of each kind of blob.
void describeBlobSharing(const Plan &plan, ContainerResult &result);

/// States `plan` in `result`: its segments and their bytes.
void describeSegmentSharing(const SegmentPlan &plan, ContainerResult &result);

/// States `plan` as remarks on the blobs it concerns.
void emitBlobRemarks(const Plan &plan);

/// States `plan` as remarks on the segments it concerns.
void emitSegmentRemarks(const SegmentPlan &plan);

/// Carries out `plan`: merged blobs go, references name their survivors,
/// which take the lcm of the alignments and every location.
void applyBlobSharing(Plan &plan);

/// Carries out `plan`: each segment is stored with every entry once.
void applySegmentSharing(SegmentPlan &plan);

/// Within each method of `program`, makes calls of delegate entries equal
/// in backend id, compile specs and payload blob call the first such entry,
/// and erases the others.
void shareDelegateEntries(ProgramOp program, bool remarks);

/// How the pipeline runs a sharing pass: the result to fill, if any, and
/// whether the payload files were already checked.
struct Driven {
  Result *result = nullptr;
  bool payloadsChecked = false;
};

/// The sharing passes as `dedup-delegate-blobs` runs them.
std::unique_ptr<mlir::Pass> createShareBlobs(const ShareBlobsOptions &options,
                                             Driven driven);
std::unique_ptr<mlir::Pass>
createShareSegmentEntries(const ShareSegmentEntriesOptions &options,
                          Driven driven);

/// Whether a sharing pass's `scope` option is valid; if not, says so at
/// `root` as `pass` was given it.
LogicalResult checkScope(Operation *root, StringRef scope, StringRef pass);

/// What every sharing pass does first: checks its `scope` and, unless the
/// pipeline did, the payload files of `module`; returns the policy of the
/// options the sharing passes have in common.
FailureOr<Policy> startSharing(mlir::ModuleOp module, StringRef pass,
                               StringRef scope, uint64_t minSize,
                               bool forceCollisions, const Driven &driven);

/// The thread pool of `context`, or none when it runs on one thread.
llvm::ThreadPoolInterface *getThreadPool(mlir::MLIRContext *context);

} // namespace emit::et::dedup

#endif // EMIT_LIB_DIALECT_ET_TRANSFORMS_DEDUP_H
