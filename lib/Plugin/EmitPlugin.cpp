//===- EmitPlugin.cpp - emit as a plugin for the stock mlir-opt -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Loaded by LLVM 19's mlir-opt with --load-dialect-plugin (the et dialect)
// and --load-pass-plugin (emit's passes). Built from the dialect's own
// object files and linked against no MLIR library: every mlir:: symbol binds
// to the host, so the process holds one MLIR. In MLIR 19 plugin passes run
// only inside --pass-pipeline (llvm/llvm-project#78020).
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "EmitDialects", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<emit::et::ETDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "EmitPasses", LLVM_VERSION_STRING,
          []() { emit::et::registerETPasses(); }};
}
