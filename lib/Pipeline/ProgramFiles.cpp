//===- ProgramFiles.cpp - Import, transform and write files -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The wiring of file translations to pass pipelines, without command-line
// flags, so that every front end (emit-translate, emit-link, the C API,
// Python) runs the very same code: a program's data files imported beside
// it and checked, and `--pte-to-pte` as one function.
//
//===----------------------------------------------------------------------===//

#include "emit/Pipeline/Pipeline.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/CheckedFile.h"
#include "emit/Pipeline/Bundles.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Support/TestingPause.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>

using namespace mlir;
using namespace emit;

LogicalResult
emit::importDataFiles(ModuleOp module, ArrayRef<std::string> paths, bool embed,
                      std::vector<std::unique_ptr<CheckedFile>> *opened) {
  MLIRContext *context = module.getContext();
  mlir::SymbolTable symbols(module);
  for (const std::string &path : paths) {
    std::string error;
    std::unique_ptr<CheckedFile> file =
        openFile(et::getPayloadFiles(context), path, OpenAs::DataFile, error);
    if (!file)
      return emitError(UnknownLoc::get(context), "cannot read data file '")
             << path << "': " << error;
    OwningOpRef<ModuleOp> data = importFile(*file, context, {embed});
    if (!data)
      return failure();
    // Named after its file; the symbol table renames a second one of the
    // same name.
    Operation *dataFile = *data->getOps<et::DataFileOp>().begin();
    dataFile->remove();
    symbols.insert(dataFile, module.getBody()->end());
    if (opened)
      opened->push_back(std::move(file));
  }
  return paths.empty() ? success() : et::verifyDataFiles(module);
}

/// Unwraps the program of `module`'s bundle, or gives it the suites of
/// another bundle, as `rewrite` says.
static LogicalResult rewriteBundle(ModuleOp module,
                                   const BundleRewrite &rewrite, bool embed) {
  if (rewrite.unwrap)
    return unwrapBundle(module);
  MLIRContext *context = module.getContext();
  std::string error;
  std::unique_ptr<CheckedFile> file = openFile(
      et::getPayloadFiles(context), rewrite.suitesFrom, OpenAs::Bundle, error);
  if (!file)
    return emitError(UnknownLoc::get(context), "cannot read bundle '")
           << rewrite.suitesFrom << "': " << error;
  OwningOpRef<ModuleOp> suites = importFile(*file, context, {embed});
  if (!suites)
    return failure();
  return wrapInBundle(module, *suites->getOps<et::BundleOp>().begin());
}

LogicalResult emit::transformProgramFile(
    const CheckedFile &input, const ImportOptions &read,
    ArrayRef<std::string> dataFiles, const OpPassManager &passes,
    const PTEWriteOptions &write, raw_ostream &os, MLIRContext *context,
    PTEStageTimes *times, const BundleRewrite &bundle,
    llvm::function_ref<LogicalResult(ModuleOp, const CheckedFile &)>
        afterImport) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  };
  Clock::time_point start = Clock::now();
  // Verified once, after the passes: the import has checked the input's
  // invariants on its tables (and reported them, if it breaks one).
  OwningOpRef<ModuleOp> module = importFile(input, context, read);
  if (!module)
    return failure();
  bool dataFile = isDataFileBuffer(input.getBytes());
  // Data files are referred to as the program is: embedded when it is.
  bool embed = read.embedPayloads || !input.getBuffer()->isFile();
  if (!dataFile && failed(importDataFiles(*module, dataFiles, embed)))
    return failure();
  Clock::time_point imported = Clock::now();
  pauseForTesting(TestingStage::InputsRead);
  if (afterImport && failed(afterImport(*module, input)))
    return failure();

  PassManager pm(context, passes.getOpAnchorName());
  static_cast<OpPassManager &>(pm) = passes;
  pm.enableVerifier(false);
  if (failed(pm.run(*module)) || failed(mlir::verify(*module)))
    return failure();
  if (bundle.unwrap || !bundle.suitesFrom.empty()) {
    if (dataFile)
      return emitError(module->getLoc(),
                       "a data file (.ptd) has no test suites to unwrap or "
                       "wrap");
    if (failed(rewriteBundle(*module, bundle, embed)))
      return failure();
  }
  Clock::time_point transformed = Clock::now();

  PTEWriteOptions options = write;
  options.verify = false;
  if (failed(dataFile ? translateToPTD(*module, os, options)
                      : translateToPTE(*module, os, options)))
    return failure();
  os.flush();
  if (times)
    *times = {seconds(start, imported), seconds(imported, transformed),
              seconds(transformed, Clock::now())};
  return success();
}
