//===- Alignment.h - Two sequences of keys, aligned -------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The alignment under emit-diff --graph: the pairs of equal keys two
// sequences share in order, as many as an edit script allows, so that one
// inserted key is one insertion, not a shift of every pair after it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DIFF_ALIGNMENT_H
#define EMIT_LIB_DIFF_ALIGNMENT_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace emit::graphdiff {

/// A pair of positions, in `a` and in `b`.
using Pair = std::pair<uint32_t, uint32_t>;

/// The most edits the exact alignment (Myers' O((N+M)D)) searches per
/// range; past them a range is aligned greedily.
constexpr unsigned kMaxAlignmentEdits = 2048;

/// Appends to `pairs`, in increasing order on both sides, positions of `a`
/// and `b` whose keys are equal. Common ends are taken first, then keys
/// that occur once on each side (patience anchors, their longest common
/// order), then, between anchors, a shortest edit script; a range whose
/// script is longer than kMaxAlignmentEdits is paired greedily in order.
/// Positions are offset by `aBase` and `bBase`.
void alignKeys(llvm::ArrayRef<uint64_t> a, llvm::ArrayRef<uint64_t> b,
               std::vector<Pair> &pairs, uint32_t aBase = 0,
               uint32_t bBase = 0);

} // namespace emit::graphdiff

#endif // EMIT_LIB_DIFF_ALIGNMENT_H
