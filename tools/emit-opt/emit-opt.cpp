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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

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
  return output.finish(mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "emit optimizer driver\n", registry)));
}
