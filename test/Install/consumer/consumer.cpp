// consumer.cpp - parses an et.program with the installed dialect and writes
// it as a .pte to stdout.
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::MLIRContext context;
  context.loadDialect<emit::et::ETDialect>();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    et.program @consumer {
      et.method @forward {
        %b = et.delegate "B" #et.blob<dense<[1, 2, 3]> : tensor<3xi8>, align 16>
        et.chain inputs() outputs() {
          et.call_delegate %b ()
        }
        et.signature inputs() outputs()
      }
    })mlir",
                                                        &context);
  if (!module)
    return 1;
  return mlir::failed(emit::translateToPTE(*module, llvm::outs()));
}
