//===- Passes.h - ExecuTorch program dialect passes -------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_TRANSFORMS_PASSES_H
#define EMIT_DIALECT_ET_TRANSFORMS_PASSES_H

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace emit::et {
#define GEN_PASS_DECL
#include "emit/Dialect/ET/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

#endif // EMIT_DIALECT_ET_TRANSFORMS_PASSES_H
