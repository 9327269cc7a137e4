//===- BlobUtils.h - New blob bytes from pieces of others -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the passes and the linker share to work on blobs: the one way to
// make new bytes from ranges of existing blobs, and the one way to point
// references at other blobs.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_TRANSFORMS_BLOBUTILS_H
#define EMIT_DIALECT_ET_TRANSFORMS_BLOBUTILS_H

#include "emit/Support/LLVM.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

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

/// Points every reference to a blob in `container` that `renames` maps at
/// the blob it maps to, in one sweep over the ops: the dialect's own
/// reference attributes in place, any other attribute that could hold one
/// through the general rewrite.
void replaceBlobReferences(
    mlir::Operation *container,
    const llvm::DenseMap<mlir::StringAttr, mlir::StringAttr> &renames);

} // namespace emit::et

#endif // EMIT_DIALECT_ET_TRANSFORMS_BLOBUTILS_H
