//===- ReadScalars.h - Scalar vectors of an untrusted flatbuffer -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_READSCALARS_H
#define EMIT_FILE_READSCALARS_H

#include "emit/Support/LLVM.h"
#include "flatbuffers/flatbuffers.h"
#include "llvm/ADT/SmallVector.h"

#include <cstring>

namespace emit {

/// The elements of a scalar vector. The flatbuffers verifier checks the
/// alignment of a vector's length, not of 8-byte elements, so a damaged
/// file can misalign them: copy instead of reading through typed pointers.
template <typename T>
SmallVector<T> readScalars(const flatbuffers::Vector<T> *vector) {
  SmallVector<T> result;
  if (!vector)
    return result;
  result.resize_for_overwrite(vector->size());
  std::memcpy(result.data(), vector->Data(), vector->size() * sizeof(T));
  return result;
}

} // namespace emit

#endif // EMIT_FILE_READSCALARS_H
