//===- MLIRCompat.h - Where MLIR 19 and 22 differ ---------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit builds against Debian's MLIR 19 and MLIR 22 from one source tree.
// Every API difference between the two is bridged here, and only here.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_MLIRCOMPAT_H
#define EMIT_SUPPORT_MLIRCOMPAT_H

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Config/llvm-config.h"

namespace emit::compat {

/// Applies `patterns` greedily to `ops` and to the ops the rewrites create,
/// and to no others. (MLIR 20 renamed the driver and made the config's
/// fields private.)
inline mlir::LogicalResult
applyToExistingOps(llvm::ArrayRef<mlir::Operation *> ops,
                   const mlir::FrozenRewritePatternSet &patterns) {
  mlir::GreedyRewriteConfig config;
#if LLVM_VERSION_MAJOR >= 20
  config.setStrictness(mlir::GreedyRewriteStrictness::ExistingOps);
  return mlir::applyOpPatternsGreedily(ops, patterns, config);
#else
  config.strictMode = mlir::GreedyRewriteStrictness::ExistingOps;
  return mlir::applyOpPatternsAndFold(ops, patterns, config);
#endif
}

/// Creates an `OpTy` at `builder`'s insertion point (MLIR 22 deprecates
/// OpBuilder::create for the OpTy::create that MLIR 19 does not have).
template <typename OpTy, typename... Args>
OpTy create(mlir::OpBuilder &builder, mlir::Location location, Args &&...args) {
#if LLVM_VERSION_MAJOR >= 21
  return OpTy::create(builder, location, std::forward<Args>(args)...);
#else
  return builder.create<OpTy>(location, std::forward<Args>(args)...);
#endif
}

} // namespace emit::compat

#endif // EMIT_SUPPORT_MLIRCOMPAT_H
