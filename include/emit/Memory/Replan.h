//===- Replan.h - A new memory plan for a shipped program -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Re-planning a program's memory from its file alone: every planned tensor
// of every method gets a new offset in its buffer such that no two tensors
// live at the same instruction share a byte, from the lifetimes the file
// layer's data flow gives (DataFlow.h: inputs live from the start, outputs
// to the end, mutable buffers throughout, loops extended).
//
// What the runtime and the file rely on is kept: tensors that share bytes
// while both are live (views, in-place operators, a delegate writing over
// its input), and a view the emitter elided with its base, move as one
// unit, each member at the same distance from the others; each unit keeps
// its offset modulo the alignment (16, ExecuTorch's planner's), so every
// tensor stays at least as aligned as it was, up to it; a pool holding
// mutable state another method shares keeps its plan. Each pool takes the
// smallest of several packings (greedy by size with best-fit offsets,
// greedy by lifetime with first-fit, an exhaustive search over orders when
// the pool has few units), or keeps the file's plan when none is smaller:
// never a larger pool.
//
// Fast memory: a new planned buffer of at most a given size takes the units
// that matter most (most accesses per byte, or the largest live at the
// method's peak), packed as above; the rest are re-planned where they were.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_MEMORY_REPLAN_H
#define EMIT_MEMORY_REPLAN_H

#include "emit/Support/LLVM.h"
#include "emit/Support/Report.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace emit {
namespace delegate {
class DelegateCalls;
} // namespace delegate
class ProgramModel;

namespace memory {

/// Which units go to fast memory first.
enum class FastMemoryOrder : uint8_t {
  /// Most instruction accesses (reads and writes) per byte.
  AccessesPerByte,
  /// The largest units live at the instruction where the method's planned
  /// bytes peak.
  PeakLive,
};

struct ReplanOptions {
  /// The alignment each unit keeps its offset modulo (a power of two).
  uint64_t alignment = 16;
  /// With a value: a fast pool of at most this many bytes per method.
  std::optional<uint64_t> fastMemoryBytes;
  /// The fast pool's memory id; none: one past each method's last buffer.
  std::optional<uint32_t> fastMemoryId;
  FastMemoryOrder fastMemoryOrder = FastMemoryOrder::AccessesPerByte;
  /// A pool of at most this many live units is searched exhaustively.
  unsigned exhaustiveUnits = 8;
};

/// Parses a `--fast-memory` value, `BYTES[,id=N][,order=accesses|peak]`,
/// into `options`; fails with the reason in `error`.
LogicalResult parseFastMemory(StringRef text, ReplanOptions &options,
                              std::string &error);

/// How one planned buffer was re-planned.
struct PoolPlan {
  uint32_t memoryId = 0;
  uint64_t bytesBefore = 0;
  uint64_t bytesAfter = 0;
  /// The most bytes of its units live at one instruction: no plan that
  /// keeps the units whole is smaller; 0 where the method kept its plan
  /// before its units were known.
  uint64_t lowerBound = 0;
  unsigned tensors = 0;
  /// The units its tensors form (tensors sharing bytes move together).
  unsigned units = 0;
  /// The packing taken: `best-fit`, `lifetime`, `exhaustive`, `file` (the
  /// file's own plan, none was smaller) or `kept` (see `keptBecause`).
  std::string algorithm;
  std::string keptBecause;
  /// A fast pool this re-planning added.
  bool fast = false;
};

/// A new offset for a planned tensor.
struct Placement {
  uint32_t value;
  uint32_t memoryId;
  uint64_t offset;
};

/// How one method was re-planned.
struct MethodPlan {
  std::string name;
  unsigned index = 0;
  unsigned instructions = 0;
  std::vector<PoolPlan> pools;
  /// The new `non_const_buffer_sizes` (element 0 reserved).
  SmallVector<int64_t> bufferSizes;
  /// The tensors whose place changed.
  std::vector<Placement> placements;
  /// With fast memory: the bytes instructions read and write (each
  /// tensor's bytes per access), and those of the fast pool.
  uint64_t trafficBytes = 0;
  uint64_t fastTrafficBytes = 0;
  /// Why the method kept its plan, when it did as a whole.
  std::string keptBecause;

  /// Whether no tensor moves and no buffer changes.
  bool isUnchanged() const;
  uint64_t getBytesBefore() const;
  uint64_t getBytesAfter() const;
  uint64_t getLowerBound() const;
};

/// A program's new memory plan, and the report on it.
struct ReplanReport : Report {
  std::string file;
  std::vector<MethodPlan> methods;

  /// Text or JSON (emit-replan-1).
  void print(ReportFormat format, raw_ostream &os) const override;
};

/// Re-plans the memory of every method of `model`, a readable program's,
/// with what each delegate call writes as `calls` (of `model`) reads it.
/// Fails, with the reason in `error`, when an option cannot hold (a fast
/// memory id a method already plans).
FailureOr<ReplanReport> replanMemory(const ProgramModel &model,
                                     delegate::DelegateCalls &calls,
                                     const ReplanOptions &options,
                                     std::string &error);

} // namespace memory
} // namespace emit

#endif // EMIT_MEMORY_REPLAN_H
