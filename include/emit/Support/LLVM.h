//===- LLVM.h - Import common LLVM and MLIR names into emit -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Brings the LLVM and MLIR names emit uses everywhere into the `emit`
// namespace, so that code in `emit::*` does not qualify them.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_LLVM_H
#define EMIT_SUPPORT_LLVM_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir {
class Attribute;
class Location;
class MLIRContext;
class ModuleOp;
class Operation;
class Type;
class Value;
} // namespace mlir

namespace emit {
// LLVM names, as MLIR imports them into `mlir`.
using mlir::ArrayRef;
using mlir::cast;
using mlir::DenseMap;
using mlir::DenseSet;
using mlir::dyn_cast;
using mlir::dyn_cast_or_null;
using mlir::FailureOr;
using mlir::function_ref;
using mlir::isa;
using mlir::MutableArrayRef;
using mlir::raw_ostream;
using mlir::SmallVector;
using mlir::SmallVectorImpl;
using mlir::StringRef;
using mlir::Twine;

// MLIR names.
using mlir::Attribute;
using mlir::failed;
using mlir::failure;
using mlir::Location;
using mlir::LogicalResult;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::Operation;
using mlir::succeeded;
using mlir::success;
using mlir::Type;
using mlir::Value;
} // namespace emit

#endif // EMIT_SUPPORT_LLVM_H
