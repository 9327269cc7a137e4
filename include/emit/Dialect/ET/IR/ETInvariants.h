//===- ETInvariants.h - What a program's values must satisfy ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The checks of the dialect's verifiers that read only plain values (sizes,
// indices, buffer tables), so that the .pte reader can run them on a file's
// tables without building IR: one implementation for the verifier and for
// emit-verify. Each returns what is wrong, worded to follow the op's name
// ("'et.tensor' op " + problem), or std::nullopt.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETINVARIANTS_H
#define EMIT_DIALECT_ET_IR_ETINVARIANTS_H

#include "emit/Dialect/ET/IR/ETOps.h"

#include <optional>
#include <string>

namespace emit::et {

using Problem = std::optional<std::string>;

/// A tensor's shape: as many sizes as dim order entries, a dim order that
/// is a permutation, no negative size.
Problem getTensorShapeProblem(ArrayRef<int32_t> sizes,
                              ArrayRef<int32_t> dimOrder);

/// A method's planned buffer sizes: the reserved 0 first, none negative.
Problem getMethodBuffersProblem(ArrayRef<int64_t> buffers);

/// A tensor of `bytes` (std::nullopt: too many to count) planned at
/// `offset` of buffer `memoryId` of a method with `buffers`: the buffer
/// exists and holds it, as the runtime checks.
Problem getPlannedTensorProblem(int32_t memoryId, uint64_t offset,
                                std::optional<uint64_t> bytes,
                                ArrayRef<int64_t> buffers);

/// The entries of a constant or mutable data segment: their offsets, and
/// the byte count of the segment's blob when it names one.
struct SegmentEntries {
  ArrayRef<int64_t> offsets;
  std::optional<uint64_t> capacity;
};

/// The program data a tensor's data index can name.
struct TensorDataTables {
  /// The constant segment, when the program has one with entries.
  std::optional<SegmentEntries> constantSegment;
  /// The byte count of each entry of the deprecated constant buffer, when
  /// the program has one.
  std::optional<ArrayRef<uint64_t>> constantBuffer;
  ArrayRef<SegmentEntries> mutableSegments;
};

/// A tensor of `bytes` whose data is entry `index` (not 0, not external)
/// of the constant data or, when it is `planned`, of mutable data segment
/// `mutableSegment`: the entry exists and holds it.
Problem getTensorDataProblem(int64_t index, bool planned,
                             uint64_t mutableSegment,
                             std::optional<uint64_t> bytes,
                             const TensorDataTables &tables);

/// Item `index` of a list op named `listOp` (`et.int_list`,
/// `et.tensor_list`, `et.optional_tensor_list`) declared by an op named
/// `itemOp` (empty: not declared by an op).
Problem getListItemProblem(StringRef listOp, unsigned index, StringRef itemOp);

/// A jump's condition, declared by an op named `conditionOp`, of scalar
/// type `type` when it is a tensor.
Problem getJumpConditionProblem(StringRef conditionOp,
                                std::optional<ScalarType> type);

/// An operator table entry's name: not empty.
Problem getOperatorProblem(StringRef name);

/// A delegate table entry's backend id: not empty.
Problem getDelegateProblem(StringRef backendId);

} // namespace emit::et

#endif // EMIT_DIALECT_ET_IR_ETINVARIANTS_H
