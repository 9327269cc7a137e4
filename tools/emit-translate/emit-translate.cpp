//===- emit-translate.cpp - emit's translation driver -----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-translate for emit: `--to-pte` and `--from-pte`.
//
//===----------------------------------------------------------------------===//

#include "emit/InitAll.h"
#include "emit/Support/AtomicOutput.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/PrettyStackTrace.h"

int main(int argc, char **argv) {
  llvm::setBugReportMsg("PLEASE submit a bug report to the emit project "
                        "and include the crash backtrace.\n");
  emit::registerAllTranslations();
  emit::registerAllPasses(); // For --pte-to-pte's pipeline.
  // A failed run never leaves a partial file or clobbers an existing one.
  emit::AtomicOutput output(argc, argv);
  if (output.failed())
    return 1;
  return output.finish(mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "emit translation driver\n")));
}
