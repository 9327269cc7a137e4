//===- Passes.h - ExecuTorch program dialect passes -------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_TRANSFORMS_PASSES_H
#define EMIT_DIALECT_ET_TRANSFORMS_PASSES_H

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/DedupResult.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace emit::et {
#define GEN_PASS_DECL
#include "emit/Dialect/ET/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "emit/Dialect/ET/Transforms/Passes.h.inc"

/// The `dedup-delegate-blobs` pass with `options`, stating what it shared in
/// `result` (which it clears first) instead of a report file, for tools and
/// bindings that use the result. The `report` option must then be left
/// empty.
std::unique_ptr<mlir::Pass>
createDedupDelegateBlobs(const DedupDelegateBlobsOptions &options,
                         dedup::Result &result);

/// Checks that the programs and data files of `module` fit together as the
/// runtime requires when it loads a program with those data files: no key
/// in two data files, every external tensor's name in one of them, stored
/// with a layout equal to the tensor's and at least as many bytes. Warns of
/// a program key a data file shadows. Does nothing when `module` holds no
/// data file (the data may come at load time). The `et-verify-data` pass.
mlir::LogicalResult verifyDataFiles(mlir::ModuleOp module);
} // namespace emit::et

#endif // EMIT_DIALECT_ET_TRANSFORMS_PASSES_H
