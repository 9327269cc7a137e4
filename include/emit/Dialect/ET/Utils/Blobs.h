//===- Blobs.h - Who names a blob, and its bytes -------------- -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What every pass, writer, summary and the linker share to work on blobs:
// which ops name a blob and as what kind of data (through the dialect's
// BlobUserOpInterface, never a list of ops), the one way to make new bytes
// from ranges of existing blobs, and the one way to point references at
// other blobs.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_UTILS_BLOBS_H
#define EMIT_DIALECT_ET_UTILS_BLOBS_H

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Support/LLVM.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace emit::et {

/// The number of data kinds, `Unnamed` included: the size of a table by
/// kind.
inline constexpr unsigned kNumDataKinds =
    static_cast<unsigned>(DataKind::Unnamed) + 1;

/// Calls `fn` on every op of `container` (a program or a data file) that
/// names a blob, in program order: its program-level data ops and its
/// methods' delegate entries.
void forEachBlobUser(mlir::Operation *container,
                     function_ref<void(BlobUserOpInterface)> fn);

/// The kind of every blob something in `container` names: the first, in
/// DataKind order, of the kinds it is named as. A blob that nothing names
/// is absent (its kind is `Unnamed`).
llvm::DenseMap<mlir::StringAttr, DataKind>
classifyBlobs(mlir::Operation *container);

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

/// The `size` bytes at `offset` of `data` (a blob's bytes, which hold
/// them): a range of the same file when they lie in one, so nothing is
/// copied; else gatherBytes of them, named `name`. Null when `data`'s bytes
/// are not available.
mlir::ElementsAttr sliceBytes(mlir::ElementsAttr data, uint64_t offset,
                              uint64_t size, StringRef name,
                              SplatStorage &splats);

/// Points every reference to a blob in `container` that `renames` maps at
/// the blob it maps to, in one sweep over the ops: blob users' own
/// references in place, any other attribute that could hold one through
/// the general rewrite.
void replaceBlobReferences(
    mlir::Operation *container,
    const llvm::DenseMap<mlir::StringAttr, mlir::StringAttr> &renames);

} // namespace emit::et

#endif // EMIT_DIALECT_ET_UTILS_BLOBS_H
