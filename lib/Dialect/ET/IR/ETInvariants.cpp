//===- ETInvariants.cpp - What a program's values must satisfy ------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETInvariants.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/Twine.h"

using namespace emit;
using namespace emit::et;

/// Whether `order` is a permutation of [0, its size). A bit per dimension,
/// in one word for any tensor of up to 64 (checked per tensor of a large
/// program, twice: by the file layer and by the verifier).
static bool isPermutation(ArrayRef<int32_t> order) {
  size_t rank = order.size();
  auto inRange = [&](int32_t dim) {
    return dim >= 0 && static_cast<size_t>(dim) < rank;
  };
  if (rank <= 64) {
    uint64_t seen = 0;
    for (int32_t dim : order) {
      if (!inRange(dim) || (seen >> dim & 1))
        return false;
      seen |= uint64_t(1) << dim;
    }
    return true;
  }
  llvm::BitVector seen(rank);
  for (int32_t dim : order) {
    if (!inRange(dim) || seen.test(dim))
      return false;
    seen.set(dim);
  }
  return true;
}

Problem et::getTensorShapeProblem(ArrayRef<int32_t> sizes,
                                  ArrayRef<int32_t> dimOrder) {
  if (sizes.size() != dimOrder.size())
    return ("has " + Twine(sizes.size()) + " sizes but " +
            Twine(dimOrder.size()) + " dim_order entries")
        .str();
  if (!isPermutation(dimOrder))
    return ("dim_order must be a permutation of [0, " + Twine(dimOrder.size()) +
            ")")
        .str();
  for (int32_t size : sizes)
    if (size < 0)
      return ("has negative size " + Twine(size)).str();
  return std::nullopt;
}

Problem et::getMethodBuffersProblem(ArrayRef<int64_t> buffers) {
  if (buffers.empty() || buffers.front() != 0)
    return std::string("buffers must start with the reserved size 0");
  for (auto [index, size] : llvm::enumerate(buffers))
    if (size < 0)
      return ("buffer " + Twine(index) + " has negative size " + Twine(size))
          .str();
  return std::nullopt;
}

/// `bytes`, or "too many" when they overflowed.
static std::string byteCount(std::optional<uint64_t> bytes) {
  return bytes ? std::to_string(*bytes) : std::string("too many");
}

Problem et::getPlannedTensorProblem(int32_t memoryId, uint64_t offset,
                                    std::optional<uint64_t> bytes,
                                    ArrayRef<int64_t> buffers) {
  if (memoryId < 1 || static_cast<size_t>(memoryId) >= buffers.size())
    return ("memory id " + Twine(memoryId) +
            " names no planned buffer; the method has " +
            Twine(buffers.empty() ? 0 : buffers.size() - 1) + " (ids from 1)")
        .str();
  uint64_t capacity = buffers[memoryId];
  if (!bytes || offset > capacity || *bytes > capacity - offset)
    return ("needs " + byteCount(bytes) + " bytes at offset " + Twine(offset) +
            " of buffer " + Twine(memoryId) + ", which holds " +
            Twine(capacity))
        .str();
  return std::nullopt;
}

/// `data(index)`, as the problems of a tensor's data begin (spelled only
/// for a problem: the verifiers check every tensor).
static std::string dataRef(int64_t index) {
  return ("data(" + Twine(index) + ")").str();
}

/// Entry `index` of the segment `what` with `entries` holds `bytes`.
static Problem getSegmentEntryProblem(int64_t index, StringRef what,
                                      const SegmentEntries &entries,
                                      std::optional<uint64_t> bytes) {
  if (static_cast<uint64_t>(index) >= entries.offsets.size())
    return (dataRef(index) + " names no entry of the " + what + ", which has " +
            Twine(entries.offsets.size()))
        .str();
  if (!entries.capacity)
    return std::nullopt; // Its blob is checked where it is named.
  uint64_t offset = entries.offsets[index], capacity = *entries.capacity;
  if (!bytes || offset > capacity || *bytes > capacity - offset)
    return (dataRef(index) + " needs " + byteCount(bytes) +
            " bytes at offset " + Twine(offset) + " of the " + what +
            ", which holds " + Twine(capacity))
        .str();
  return std::nullopt;
}

Problem et::getTensorDataProblem(int64_t index, bool planned,
                                 uint64_t mutableSegment,
                                 std::optional<uint64_t> bytes,
                                 const TensorDataTables &tables) {
  if (planned) {
    if (mutableSegment >= tables.mutableSegments.size())
      return (dataRef(index) + " names mutable data segment " +
              Twine(mutableSegment) + ", but the program has " +
              Twine(tables.mutableSegments.size()))
          .str();
    return getSegmentEntryProblem(index, "mutable data segment",
                                  tables.mutableSegments[mutableSegment],
                                  bytes);
  }
  // The runtime reads the constant segment when it has offsets, and the
  // deprecated constant buffer otherwise.
  if (tables.constantSegment) {
    if (!tables.constantSegment->capacity)
      return dataRef(index) +
             " names constant data, but the constant segment names no blob";
    return getSegmentEntryProblem(index, "constant segment",
                                  *tables.constantSegment, bytes);
  }
  if (!tables.constantBuffer)
    return dataRef(index) + " names constant data, but the program has none";
  ArrayRef<uint64_t> entries = *tables.constantBuffer;
  if (static_cast<uint64_t>(index) >= entries.size())
    return (dataRef(index) +
            " names no entry of the constant buffer, which has " +
            Twine(entries.size()))
        .str();
  if (!bytes || *bytes > entries[index])
    return (dataRef(index) + " needs " + byteCount(bytes) +
            " bytes, but constant buffer entry " + Twine(index) + " holds " +
            Twine(entries[index]))
        .str();
  return std::nullopt;
}

Problem et::getListItemProblem(StringRef listOp, unsigned index,
                               StringRef itemOp) {
  StringRef expected;
  bool valid = false;
  if (listOp == IntListOp::getOperationName()) {
    expected = "an 'et.int'";
    valid = itemOp == IntOp::getOperationName();
  } else if (listOp == TensorListOp::getOperationName()) {
    expected = "an 'et.tensor'";
    valid = itemOp == TensorOp::getOperationName();
  } else {
    expected = "an 'et.tensor' or 'et.null'";
    valid = itemOp == TensorOp::getOperationName() ||
            itemOp == NullOp::getOperationName();
  }
  if (valid)
    return std::nullopt;
  return ("item " + Twine(index) + " must be " + expected + ", but is " +
          (itemOp.empty() ? StringRef("unknown") : itemOp))
      .str();
}

Problem et::getJumpConditionProblem(StringRef conditionOp,
                                    std::optional<ScalarType> type) {
  if (conditionOp == BoolOp::getOperationName() ||
      (conditionOp == TensorOp::getOperationName() && type == ScalarType::Bool))
    return std::nullopt;
  return std::string("condition must be an 'et.bool' or a bool tensor");
}

Problem et::getOperatorProblem(StringRef name) {
  if (name.empty())
    return std::string("needs an operator name");
  return std::nullopt;
}

Problem et::getDelegateProblem(StringRef backendId) {
  if (backendId.empty())
    return std::string("needs a backend id");
  return std::nullopt;
}
