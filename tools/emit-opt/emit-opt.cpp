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

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "emit optimizer driver\n", registry));
}
