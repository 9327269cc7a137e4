//===- Packing.h - Placing units of memory in time and bytes ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The packings a re-plan chooses from: units (tensors that move together),
// each live over an interval of instructions with a size and a residue its
// offset keeps modulo the alignment, placed one after another at offsets
// that share no byte with a placed unit live at the same time. Placed units
// are kept per block of instructions, so a placement looks only at the
// units live around it, not at every unit of a long method.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_MEMORY_PACKING_H
#define EMIT_LIB_MEMORY_PACKING_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace emit::memory {

/// Tensors that share bytes, placed as one.
struct Unit {
  uint32_t memoryId = 0;
  /// Where its first byte was, and how many bytes it spans.
  uint64_t base = 0;
  uint64_t bytes = 0;
  /// Instructions `first` to `last`, when `live`.
  uint32_t first = 0;
  uint32_t last = 0;
  bool live = false;
};

/// Where a packing puts a unit among the gaps that fit it.
enum class Fit : uint8_t {
  /// The lowest offset.
  First,
  /// The smallest gap, the lowest of equal ones.
  Best,
};

/// Places units of one pool.
class Packer {
public:
  Packer(ArrayRef<Unit> units, uint32_t instructions, uint64_t alignment);

  /// Places unit `unit` as `fit` says and returns its offset; none once the
  /// comparison budget is spent (a pathological method).
  std::optional<uint64_t> place(uint32_t unit, Fit fit);
  /// Takes back the unit placed last.
  void removeLast();
  /// The pool's bytes: the end of the last byte placed.
  uint64_t getSize() const { return ends.empty() ? 0 : ends.back(); }
  uint64_t getOffset(uint32_t unit) const { return offsets[unit]; }

private:
  /// The lowest offset at or above `at` that keeps `unit`'s residue.
  uint64_t alignFor(uint32_t unit, uint64_t at) const;

  ArrayRef<Unit> units;
  uint64_t alignment;
  std::vector<uint64_t> offsets;
  /// Per block of kBlockSize instructions, the live units placed over it.
  std::vector<std::vector<uint32_t>> blocks;
  /// The units placed, in order, and the pool's size after each.
  std::vector<uint32_t> placed;
  std::vector<uint64_t> ends;
  /// Per unit, the query that saw it last.
  std::vector<uint32_t> seen;
  uint32_t query = 0;
  uint64_t comparisons = 0;
  std::vector<std::pair<uint64_t, uint64_t>> busy;
};

/// A packing of some units of a pool.
struct Packing {
  /// Per unit of the subset, in its order, its offset.
  std::vector<uint64_t> offsets;
  uint64_t size = 0;
  std::string algorithm;
};

/// The smallest packing of `subset` (indices into `units`) found by greedy
/// best-fit by size, greedy first-fit by lifetime, and, where at most
/// `exhaustiveUnits` of them are live, an exhaustive search over orders;
/// none when every packing ran out of budget.
std::optional<Packing> packUnits(ArrayRef<Unit> units,
                                 ArrayRef<uint32_t> subset,
                                 uint32_t instructions, uint64_t alignment,
                                 unsigned exhaustiveUnits);

/// Whether no two of `subset`'s units live at one instruction share a byte
/// at `offsets` (per unit of the subset, in its order).
bool isSoundPacking(ArrayRef<Unit> units, ArrayRef<uint32_t> subset,
                    ArrayRef<uint64_t> offsets);

/// The most bytes of `subset`'s units live at any one instruction.
uint64_t getPeakLiveBytes(ArrayRef<Unit> units, ArrayRef<uint32_t> subset,
                          uint32_t instructions, uint32_t *peakAt = nullptr);

} // namespace emit::memory

#endif // EMIT_LIB_MEMORY_PACKING_H
