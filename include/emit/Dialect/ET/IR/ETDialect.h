//===- ETDialect.h - ExecuTorch program dialect -----------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETDIALECT_H
#define EMIT_DIALECT_ET_IR_ETDIALECT_H

#include "emit/Support/LLVM.h"
#include "emit/Support/PayloadFiles.h"
#include "mlir/IR/Dialect.h"

#include <memory>

#include "emit/Dialect/ET/IR/ETDialect.h.inc"

#endif // EMIT_DIALECT_ET_IR_ETDIALECT_H
