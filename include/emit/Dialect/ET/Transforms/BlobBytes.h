//===- BlobBytes.h - New blob bytes from pieces of others -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one way the passes and the linker make new payload bytes: gather
// ranges of existing blobs into a new resource, zeros between.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_TRANSFORMS_BLOBBYTES_H
#define EMIT_DIALECT_ET_TRANSFORMS_BLOBBYTES_H

#include "emit/Support/LLVM.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"

#include <cstdint>

namespace emit::et {

/// A range of existing bytes and where it goes in the new ones.
struct BytePiece {
  ArrayRef<char> bytes;
  uint64_t offset;
};

/// A `dense_resource` of `size` bytes named `name` (made unique), holding
/// `pieces` at their offsets and zeros elsewhere. Bytes of a mapped file
/// are read with pread, as everywhere else.
mlir::ElementsAttr gatherBytes(mlir::MLIRContext *context, StringRef name,
                               uint64_t size, ArrayRef<BytePiece> pieces);

} // namespace emit::et

#endif // EMIT_DIALECT_ET_TRANSFORMS_BLOBBYTES_H
