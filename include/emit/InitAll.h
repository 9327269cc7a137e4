//===- InitAll.h - Register every emit dialect, pass, translation -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_INITALL_H
#define EMIT_INITALL_H

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/DialectRegistry.h"

namespace emit {

/// Adds emit's dialects to `registry`.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<et::ETDialect>();
}

/// Registers emit's passes with the global pass registry.
inline void registerAllPasses() { et::registerETPasses(); }

/// Registers emit's translations with the global translation registry.
inline void registerAllTranslations() {
  static bool once = [] {
    registerToPTETranslation();
    registerFromPTETranslation();
    registerPTEToPTETranslation();
    registerPTESummaryTranslation();
    registerPTDTranslations();
    return true;
  }();
  (void)once;
}

} // namespace emit

#endif // EMIT_INITALL_H
