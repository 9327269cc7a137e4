//===- Passes.h - The linker's passes ---------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The linker's mechanisms as passes, for pipelines that rewrite one
// program (--pte-to-pte --target-runtime).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LINK_PASSES_H
#define EMIT_LINK_PASSES_H

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace emit::link {
#define GEN_PASS_DECL
#include "emit/Link/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "emit/Link/Passes.h.inc"
} // namespace emit::link

#endif // EMIT_LINK_PASSES_H
