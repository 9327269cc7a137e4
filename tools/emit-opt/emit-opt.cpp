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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"

/// mlir-opt's main, after telling PayloadFiles where the IR lives, so that
/// payload references resolve against its directory.
static mlir::LogicalResult runOpt(int argc, char **argv,
                                  mlir::DialectRegistry &registry) {
  llvm::InitLLVM initLLVM(argc, argv);
  emit::registerPayloadFileOptions();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "emit optimizer driver\n", registry);
  std::string error;
  if (!emit::applyPayloadFileOptions(inputFilename, error)) {
    llvm::errs() << "error: " << error << "\n";
    return mlir::failure();
  }
  return mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry);
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
