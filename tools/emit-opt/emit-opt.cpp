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
#include "emit/Support/MappedMemory.h"
#include "emit/Support/PayloadFiles.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

/// mlir-opt's main, but writing through emit::PayloadStream, so that
/// bytecode output has the kernel copy payloads that alias a mapped input.
static mlir::LogicalResult runOpt(int argc, char **argv,
                                  mlir::DialectRegistry &registry) {
  llvm::InitLLVM initLLVM(argc, argv);
  emit::registerPayloadFileOptions();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "emit optimizer driver\n", registry);
  std::string errorMessage;
  // Payload references resolve against the input's directory.
  if (!emit::applyPayloadFileOptions(inputFilename, errorMessage)) {
    llvm::errs() << "error: " << errorMessage << "\n";
    return mlir::failure();
  }
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // A mode that prints what is registered instead of processing a file.
  if (config.shouldShowDialects())
    return mlir::MlirOptMain(argc, argv, inputFilename, outputFilename,
                             registry);
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  {
    emit::PayloadStream stream(output->os());
    if (mlir::failed(
            mlir::MlirOptMain(stream, std::move(input), registry, config)))
      return mlir::failure();
  }
  output->keep();
  return mlir::success();
}

int main(int argc, char **argv) {
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
