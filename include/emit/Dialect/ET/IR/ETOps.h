//===- ETOps.h - ExecuTorch program dialect ops, attributes -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETOPS_H
#define EMIT_DIALECT_ET_IR_ETOPS_H

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>
#include <vector>

#include "emit/Dialect/ET/IR/ETEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "emit/Dialect/ET/IR/ETTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "emit/Dialect/ET/IR/ETAttrs.h.inc"

namespace emit::et {
class MethodOp;
class ProgramOp;
class BlobOp;
class ChainOp;
class SignatureOp;
class OperatorOp;
class DelegateOp;

/// True if `attr` is a `dense` or `dense_resource` elements attribute of a
/// statically shaped rank-1 tensor of i8 or ui8: the form payload bytes take.
bool isByteElementsAttr(Attribute attr);

/// Byte size of one element of `type`, as ExecuTorch counts it.
unsigned getScalarTypeByteSize(ScalarType type);

/// Byte size of a tensor of `type` and `sizes`, or std::nullopt on overflow
/// or a negative size.
std::optional<uint64_t> getTensorByteSize(ScalarType type,
                                          ArrayRef<int32_t> sizes);

/// Checks what a tensor's shape needs wherever it is written (an
/// `et.tensor`, a data file's tensor layout): as many sizes as dim order
/// entries, a dim order that is a permutation, no negative size.
LogicalResult
verifyTensorShape(function_ref<mlir::InFlightDiagnostic()> emitError,
                  ArrayRef<int32_t> sizes, ArrayRef<int32_t> dimOrder);
} // namespace emit::et

#include "emit/Dialect/ET/IR/ETInterfaces.h.inc"

#define GET_OP_CLASSES
#include "emit/Dialect/ET/IR/ETOps.h.inc"

namespace emit::et {
/// Moves the inline payloads of `program`'s delegate entries that
/// `shouldHoist` accepts (all when it is null) into program-level blobs
/// placed before the method that declares them, named `payload_N` in
/// program order. Returns whether anything changed. This is the
/// `et.program` canonicalization.
bool hoistInlinePayloads(ProgramOp program, mlir::RewriterBase &rewriter,
                         function_ref<bool(DelegateOp)> shouldHoist = {});

/// The programs of `module`, in order: each top-level `et.program` and the
/// one each `et.bundle` embeds.
SmallVector<ProgramOp> getPrograms(mlir::ModuleOp module);
} // namespace emit::et

#endif // EMIT_DIALECT_ET_IR_ETOPS_H
