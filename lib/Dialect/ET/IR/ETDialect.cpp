//===- ETDialect.cpp - ExecuTorch program dialect ---------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/IR/ETOps.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;

#include "emit/Dialect/ET/IR/ETDialect.cpp.inc"
#include "emit/Dialect/ET/IR/ETEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "emit/Dialect/ET/IR/ETTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "emit/Dialect/ET/IR/ETAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void ETDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "emit/Dialect/ET/IR/ETOps.cpp.inc"
      >();
}

void ETDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "emit/Dialect/ET/IR/ETTypes.cpp.inc"
      >();
}

void ETDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "emit/Dialect/ET/IR/ETAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Payload bytes
//===----------------------------------------------------------------------===//

bool et::isByteElementsAttr(Attribute attr) {
  if (!isa_and_nonnull<DenseElementsAttr, DenseResourceElementsAttr>(attr))
    return false;
  auto type = dyn_cast<RankedTensorType>(cast<TypedAttr>(attr).getType());
  return type && type.getRank() == 1 && type.hasStaticShape() &&
         type.getElementType().isInteger(8);
}

std::optional<ArrayRef<char>>
et::getPayloadBytes(ElementsAttr data, SmallVectorImpl<char> &storage) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(data)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  auto dense = cast<DenseElementsAttr>(data);
  ArrayRef<char> raw = dense.getRawData();
  if (!dense.isSplat())
    return raw;
  // A splat stores one element; materialize the full payload.
  storage.assign(dense.getNumElements(), raw.front());
  return ArrayRef<char>(storage);
}

/// Checks what both payload forms share: byte elements, a power-of-two
/// alignment and, when the bytes are present, a byte count that matches the
/// declared element count (MLIR 19 does not check resource sizes itself).
static LogicalResult verifyPayload(function_ref<InFlightDiagnostic()> emitError,
                                   Attribute data, uint64_t alignment) {
  if (!isByteElementsAttr(data))
    return emitError() << "payload must be a 1-D tensor of i8 or ui8 held "
                          "in `dense` or `dense_resource`, got "
                       << data;
  if (!llvm::isPowerOf2_64(alignment))
    return emitError() << "alignment " << alignment
                       << " is not a power of two";
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(data)) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob()) {
      int64_t expected = resource.getType().getNumElements();
      if (static_cast<int64_t>(blob->getData().size()) != expected)
        return emitError() << "resource '" << resource.getRawHandle().getKey()
                           << "' holds " << blob->getData().size()
                           << " bytes but its type declares " << expected;
    }
  }
  return success();
}

LogicalResult BlobAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ElementsAttr data, uint64_t alignment) {
  return verifyPayload(emitError, data, alignment);
}

LogicalResult BlobOp::verify() {
  return verifyPayload([&] { return emitOpError(); }, getData(),
                       getAlignment());
}

//===----------------------------------------------------------------------===//
// Scalar types
//===----------------------------------------------------------------------===//

unsigned et::getScalarTypeByteSize(ScalarType type) {
  switch (type) {
  case ScalarType::Byte:
  case ScalarType::Char:
  case ScalarType::Bool:
  case ScalarType::QInt8:
  case ScalarType::QUInt8:
  case ScalarType::QUInt4x2:
  case ScalarType::QUInt2x4:
  case ScalarType::Float8E5M2:
  case ScalarType::Float8E4M3FN:
  case ScalarType::Float8E5M2FNUZ:
  case ScalarType::Float8E4M3FNUZ:
    return 1;
  case ScalarType::Short:
  case ScalarType::Half:
  case ScalarType::BFloat16:
  case ScalarType::Bits16:
  case ScalarType::UInt16:
    return 2;
  case ScalarType::Int:
  case ScalarType::Float:
  case ScalarType::QInt32:
  case ScalarType::UInt32:
    return 4;
  case ScalarType::Long:
  case ScalarType::Double:
  case ScalarType::UInt64:
    return 8;
  }
  llvm_unreachable("unknown scalar type");
}
