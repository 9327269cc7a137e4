//===- Passes.h - Memory planning passes ------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Re-planning memory as a pass, for emit-opt and --pte-to-pte pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_MEMORY_PASSES_H
#define EMIT_MEMORY_PASSES_H

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Memory/Replan.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace emit {
class ProgramFile;
}

namespace emit::memory {
#define GEN_PASS_DECL
#include "emit/Memory/Passes.h.inc"

/// The pass with `options`, adding a report per program it re-plans to
/// `reports` (when not null; the caller keeps it alive while it runs).
std::unique_ptr<mlir::Pass>
createReplanMemoryPass(const ReplanOptions &options,
                       std::vector<ReplanReport> *reports);

/// Re-plans every program of `module` (top level or in a bundle), adding
/// a report per program to `reports` (when not null): what the pass does.
/// `origin`, when given, is the file `module` was just imported from (one
/// program): it is modelled as it is rather than written again.
mlir::LogicalResult replanModule(mlir::ModuleOp module,
                                 const ReplanOptions &options,
                                 std::vector<ReplanReport> *reports,
                                 const ProgramFile *origin = nullptr);

#define GEN_PASS_REGISTRATION
#include "emit/Memory/Passes.h.inc"
} // namespace emit::memory

#endif // EMIT_MEMORY_PASSES_H
