//===- DedupResult.h - What --dedup-delegate-blobs shared -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The result of storing identical data once, as C++ values: what each
// program and data file held before and after, which blobs became one, which
// segment entries were shared, and what was kept apart and why. The passes
// fill it; tools, the linker and the C API read it. JSON is one way to write
// it (docs/DedupReport.md), at the edges only.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_TRANSFORMS_DEDUPRESULT_H
#define EMIT_DIALECT_ET_TRANSFORMS_DEDUPRESULT_H

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Support/ContentGroups.h"

#include "llvm/Support/JSON.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace emit::et::dedup {

/// A delegate entry that names a blob.
struct BlobUser {
  std::string method;
  unsigned delegate = 0; // Index in the method's delegate table.
  unsigned calls = 0;    // Instructions that call the entry.
  std::string backend;
  uint64_t compileSpecsDigest = 0; // XXH3-64 of keys, values and order.
};

/// One stored blob and the blobs merged into it.
struct BlobGroup {
  std::string blob; // The survivor.
  DataKind kind = DataKind::Unnamed;
  uint64_t size = 0;
  std::optional<ContentHash> hash;
  uint64_t alignment = 1; // The lcm of every member's alignment.
  std::vector<std::string> merged;
  std::vector<BlobUser> users; // Of every member, survivor first.
  std::vector<std::string> keys;
};

/// An entry of a constant or mutable segment equal to an earlier one.
struct SharedEntry {
  unsigned entry = 0, sameAs = 0;
  uint64_t size = 0;
};

/// A constant or mutable segment whose entries were shared or compacted.
struct SegmentSharing {
  DataKind kind = DataKind::Constant;
  std::string blob;
  uint64_t bytesBefore = 0, bytesAfter = 0;
  std::vector<SharedEntry> sharedEntries;
};

/// Blobs that were not merged although their bytes may be equal.
struct KeptApart {
  std::vector<std::string> blobs;
  uint64_t size = 0;
  std::string reason;
};

/// Bytes of one kind of data before and after.
struct KindBytes {
  uint64_t before = 0, after = 0;
};

/// What was (or, in a dry run, would be) shared in one program or data
/// file.
struct ContainerResult {
  bool isProgram = true;
  std::string name;
  bool dryRun = false;
  std::array<KindBytes, kNumDataKinds> kinds{};
  std::vector<BlobGroup> groups;
  std::vector<SegmentSharing> segments;
  std::vector<KeptApart> keptApart; // Near misses, then policy decisions.

  KindBytes &bytesOf(DataKind kind) {
    return kinds[static_cast<unsigned>(kind)];
  }
  const KindBytes &bytesOf(DataKind kind) const {
    return kinds[static_cast<unsigned>(kind)];
  }
  /// Over every kind.
  KindBytes total() const;
};

/// What was shared in every program, then every data file, in module order.
struct Result {
  std::vector<ContainerResult> programs, dataFiles;

  /// The result of `container` (an `et.program` or `et.data_file`), made
  /// empty at the end of its list the first time it is asked for.
  ContainerResult &of(mlir::Operation *container);
  void clear() { programs.clear(), dataFiles.clear(); }
};

/// Writes `result` as JSON (docs/DedupReport.md, emit-dedup-report-2).
void writeReport(const Result &result, llvm::json::OStream &json);

} // namespace emit::et::dedup

#endif // EMIT_DIALECT_ET_TRANSFORMS_DEDUPRESULT_H
