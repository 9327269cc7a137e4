//===- InitAll.h - Register every emit dialect and pass ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What emit-opt registers. The translations, which emit-opt does not link,
// are in emit/Pipeline/TranslateRegistration.h (registerAllTranslations).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_INITALL_H
#define EMIT_INITALL_H

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Link/Passes.h"
#include "emit/Memory/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace emit {

/// Adds emit's dialects to `registry`.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<et::ETDialect>();
}

/// Registers emit's passes with the global pass registry.
inline void registerAllPasses() {
  et::registerETPasses();
  link::registerLinkPasses();
  memory::registerMemoryPasses();
}

} // namespace emit

#endif // EMIT_INITALL_H
