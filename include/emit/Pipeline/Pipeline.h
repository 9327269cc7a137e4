//===- Pipeline.h - File translations wired to pass pipelines ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What sits above the file formats, the passes and the summary: a program
// imported with its data files and checked against them, and `--pte-to-pte`
// (import, passes, export) as one function that every front end shares.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_PIPELINE_PIPELINE_H
#define EMIT_PIPELINE_PIPELINE_H

#include "emit/Target/PTE/PTE.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace emit {
class CheckedFile;

/// Imports the data files at `paths` a program loads with into `module`,
/// after its program (their payloads referred to, or embedded with
/// `embed`), and checks that they fit it as the runtime requires
/// (et-verify-data). Each is opened through the context's payload files,
/// which hold it as long as the IR may refer to it; with `opened`, the
/// files, checked, are added to it in order.
LogicalResult
importDataFiles(ModuleOp module, ArrayRef<std::string> paths, bool embed,
                std::vector<std::unique_ptr<CheckedFile>> *opened = nullptr);

/// The time each stage of transformProgramFile took, in seconds.
/// What transformProgramFile does to a bundled program after its passes.
struct BundleRewrite {
  /// Write the program a bundle embeds as a .pte, without its test suites.
  bool unwrap = false;
  /// Give the program the test suites of this bundle (.bpte), refusing
  /// suites that do not fit its methods: a .pte is wrapped, a bundle's
  /// suites are replaced.
  std::string suitesFrom;
};

struct PTEStageTimes {
  double import = 0, passes = 0, export_ = 0;
};

/// `--pte-to-pte` as a function: imports the `.pte` or `.ptd` `input` as
/// `read` says, and beside a program the data files at `dataFiles`
/// (referred to, or embedded when `read` embeds); runs `passes` (on the
/// module), after `afterImport` (given the module just imported and the
/// file it is of); verifies the result once and writes it to `os` as `write`
/// says. Errors are reported to `context`'s diagnostic handlers.
LogicalResult transformProgramFile(
    const CheckedFile &input, const ImportOptions &read,
    ArrayRef<std::string> dataFiles, const mlir::OpPassManager &passes,
    const PTEWriteOptions &write, raw_ostream &os, MLIRContext *context,
    PTEStageTimes *times = nullptr, const BundleRewrite &bundle = {},
    llvm::function_ref<LogicalResult(mlir::ModuleOp, const CheckedFile &)>
        afterImport = {});

/// Adds to `passes` the rewrites that make `input` (a program loaded with
/// the data files at `dataFiles`, or a data file) load on the runtime
/// release `release` (a position in getReleaseNames()) with the same
/// meaning; an error naming each feature of it that release does not load
/// and no rewrite removes.
LogicalResult addTargetRuntimePasses(const CheckedFile &input,
                                     ArrayRef<std::string> dataFiles,
                                     unsigned release,
                                     mlir::OpPassManager &passes,
                                     MLIRContext *context);

} // namespace emit

#endif // EMIT_PIPELINE_PIPELINE_H
