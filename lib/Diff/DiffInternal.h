//===- DiffInternal.h - The two sides emit-diff compares --------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the parts of emit-diff share: one imported side (a program with its
// data files, or a data file) and the comparison of data bytes between the
// sides, each pair of byte ranges read at most once.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DIFF_DIFFINTERNAL_H
#define EMIT_LIB_DIFF_DIFFINTERNAL_H

#include "emit/Diff/Diff.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Payloads.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <tuple>

namespace emit::diff {

/// One imported side: a program and the data files it loads with, or one
/// data file.
struct Side {
  et::ProgramOp program; // Null for a data file.
  et::BundleOp bundle;   // The program's bundle, if it has one.
  SmallVector<et::DataFileOp> dataFiles;

  /// The bytes of the blob `symbol` names in `container`, or std::nullopt.
  std::optional<ArrayRef<char>> blobBytes(mlir::Operation *container,
                                          StringRef symbol);
  /// The bytes of `data`, a blob's or an inline payload's.
  std::optional<ArrayRef<char>> bytesOf(mlir::ElementsAttr data);

private:
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<mlir::SymbolTable>> symbols;
  et::SplatStorage splats;
};

/// Compares bytes of the old side with bytes of the new: sizes first, then
/// the bytes in chunks (a mapped file is read with pread, never whole),
/// each pair of ranges once however many users share it.
class ByteComparator {
public:
  bool equal(ArrayRef<char> oldBytes, ArrayRef<char> newBytes);

private:
  llvm::DenseMap<std::tuple<const char *, const char *, size_t>, bool> known;
  /// Where the last bytes compared on each side ended: a side read in file
  /// order (constants one after another) reads ahead, one read for many.
  const char *oldEnd = nullptr, *newEnd = nullptr;
};

/// Fills the report's methods, delegates, constants and operators.
void compareMethods(Side &oldSide, Side &newSide, ByteComparator &bytes,
                    DiffReport &report);

/// Fills the report's test suites, of bundled programs.
void compareTestSuites(Side &oldSide, Side &newSide, ByteComparator &bytes,
                       DiffReport &report);

/// Fills the report's named data, of the programs and their data files.
void compareNamedData(Side &oldSide, Side &newSide, ByteComparator &bytes,
                      DiffReport &report);

} // namespace emit::diff

#endif // EMIT_LIB_DIFF_DIFFINTERNAL_H
