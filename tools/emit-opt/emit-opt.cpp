//===- emit-opt.cpp - emit's optimizer driver -------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-opt for emit: the `et` dialect, `builtin` and `func`, emit's passes
// and the generic cleanups users combine them with.
//
//===----------------------------------------------------------------------===//

#include "emit/InitAll.h"
#include "emit/Support/AtomicOutput.h"
#include "emit/Support/HugePageHeap.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/Version.h"

#include "emit/Dialect/ET/Utils/Payloads.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

/// Runs mlir-opt's processing of `inputFilename` into `outputFilename` as
/// `config` says (what mlir::MlirOptMain does with a file).
static mlir::LogicalResult runOnFile(llvm::StringRef inputFilename,
                                     llvm::StringRef outputFilename,
                                     mlir::DialectRegistry &registry,
                                     const mlir::MlirOptMainConfig &config) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return mlir::failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return mlir::failure();
  }
  if (failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return mlir::failure();
  output->keep();
  return mlir::success();
}

/// mlir-opt's main, with the run's payload files: every context it makes
/// resolves payload references against the IR file's directory.
static mlir::LogicalResult runOpt(int argc, char **argv,
                                  mlir::DialectRegistry &registry) {
  llvm::InitLLVM initLLVM(argc, argv);
  emit::registerPayloadFileOptions();
  emit::setVersionPrinter();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "emit optimizer driver\n", registry);
  mlir::MlirOptMainConfig stock =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (stock.shouldShowDialects())
    return mlir::MlirOptMain(argc, argv, inputFilename, outputFilename,
                             registry);
  std::string error;
  auto files = std::make_shared<emit::PayloadFiles>();
  if (!emit::applyPayloadFileOptions(*files, inputFilename, error)) {
    llvm::errs() << "error: " << error << "\n";
    return mlir::failure();
  }
  // The pass pipeline is set up in each context the run makes (one per
  // split of the input), before its passes read a payload.
  mlir::MlirOptMainConfig config = stock;
  config.setPassPipelineSetupFn([stock, files](mlir::PassManager &pm) {
    emit::et::setPayloadFiles(pm.getContext(), files);
    return stock.setupPassPipeline(pm);
  });
  return runOnFile(inputFilename, outputFilename, registry, config);
}

int main(int argc, char **argv) {
  emit::restartWithHugePageHeap(argv);
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  emit::registerAllDialects(registry);

  emit::registerAllPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();

  // A failed run never leaves a partial file or clobbers an existing one.
  emit::AtomicOutput output(argc, argv);
  if (output.failed())
    return 1;
  return output.finish(mlir::asMainReturnCode(runOpt(argc, argv, registry)));
}
