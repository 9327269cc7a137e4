//===- ETDialect.cpp - ExecuTorch program dialect ---------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/IR/ETInvariants.h"
#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Support/Hex.h"

#include "mlir/Bytecode/BytecodeImplementation.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
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
// Bytecode
//===----------------------------------------------------------------------===//

namespace {
/// Native bytecode encodings of the dialect's attributes and types. Without
/// them, attributes fall back to text inside bytecode, and a
/// `dense_resource` nested in `#et.blob` would re-parse as a new, empty
/// resource instead of the one the bytecode carries.
struct ETBytecodeInterface : public BytecodeDialectInterface {
  explicit ETBytecodeInterface(Dialect *dialect)
      : BytecodeDialectInterface(dialect) {}

  /// Codes are part of the bytecode format: append, never renumber.
  enum AttrCode : uint64_t {
    kBlobAttr = 0,
    kCompileSpecAttr = 1,
    kScalarTypeAttr = 2,
    kShapeDynamismAttr = 3,
    kDataPlacementAttr = 4,
    kTensorLayoutAttr = 5,
    kFileRangeAttr = 6,
  };
  enum TypeCode : uint64_t {
    kValueType = 0,
    kOperatorType = 1,
    kDelegateType = 2,
  };

  Attribute readAttribute(DialectBytecodeReader &reader) const override {
    uint64_t code;
    if (failed(reader.readVarInt(code)))
      return {};
    MLIRContext *context = getContext();
    switch (code) {
    case kBlobAttr:
      return readBlob(reader, context);
    case kCompileSpecAttr:
      return readCompileSpec(reader, context);
    case kScalarTypeAttr:
      return readEnum<ScalarTypeAttr>(
          reader, context, [](uint64_t v) { return symbolizeScalarType(v); },
          "scalar type");
    case kShapeDynamismAttr:
      return readEnum<ShapeDynamismAttr>(
          reader, context, [](uint64_t v) { return symbolizeShapeDynamism(v); },
          "shape dynamism");
    case kDataPlacementAttr:
      return readEnum<DataPlacementAttr>(
          reader, context, [](uint64_t v) { return symbolizeDataPlacement(v); },
          "data placement");
    case kTensorLayoutAttr:
      return readTensorLayout(reader, context);
    case kFileRangeAttr:
      return readFileRange(reader, context);
    }
    reader.emitError() << "unknown et attribute code " << code;
    return {};
  }

  static Attribute readBlob(DialectBytecodeReader &reader,
                            MLIRContext *context) {
    ElementsAttr data;
    uint64_t alignment;
    if (failed(reader.readAttribute(data)) ||
        failed(reader.readVarInt(alignment)))
      return {};
    return et::BlobAttr::getChecked([&] { return reader.emitError(); }, context,
                                    data, alignment);
  }

  static Attribute readCompileSpec(DialectBytecodeReader &reader,
                                   MLIRContext *context) {
    StringRef key;
    ArrayRef<char> value;
    if (failed(reader.readString(key)) || failed(reader.readBlob(value)))
      return {};
    return CompileSpecAttr::get(context, key,
                                StringRef(value.data(), value.size()));
  }

  /// An enum attribute `AttrT`, written as its value, which `symbolize`
  /// reads back; `what` names it in the error for an unknown value.
  template <typename AttrT, typename SymbolizeFn>
  static Attribute readEnum(DialectBytecodeReader &reader, MLIRContext *context,
                            SymbolizeFn symbolize, StringRef what) {
    uint64_t value;
    if (failed(reader.readVarInt(value)))
      return {};
    auto symbol = symbolize(value);
    if (!symbol)
      return reader.emitError() << "unknown et " << what << " " << value,
             Attribute();
    return AttrT::get(context, *symbol);
  }

  static Attribute readTensorLayout(DialectBytecodeReader &reader,
                                    MLIRContext *context) {
    uint64_t scalarType;
    SmallVector<int64_t> sizes, dimOrder;
    auto readInt = [&](int64_t &value) {
      return reader.readSignedVarInt(value);
    };
    if (failed(reader.readVarInt(scalarType)) ||
        failed(reader.readList(sizes, readInt)) ||
        failed(reader.readList(dimOrder, readInt)))
      return {};
    std::optional<ScalarType> type = symbolizeScalarType(scalarType);
    if (!type)
      return reader.emitError() << "unknown et scalar type " << scalarType,
             Attribute();
    SmallVector<int32_t> sizes32(sizes.begin(), sizes.end());
    SmallVector<int32_t> dimOrder32(dimOrder.begin(), dimOrder.end());
    return TensorLayoutAttr::getChecked(
        [&] { return reader.emitError(); }, context, *type,
        ArrayRef<int32_t>(sizes32), ArrayRef<int32_t>(dimOrder32));
  }

  static Attribute readFileRange(DialectBytecodeReader &reader,
                                 MLIRContext *context) {
    StringRef path;
    uint64_t offset, size, fileSize, fileSample;
    if (failed(reader.readString(path)) || failed(reader.readVarInt(offset)) ||
        failed(reader.readVarInt(size)) ||
        failed(reader.readVarInt(fileSize)) ||
        failed(reader.readVarInt(fileSample)))
      return {};
    return FileRangeAttr::getChecked([&] { return reader.emitError(); },
                                     context, StringAttr::get(context, path),
                                     offset, size, fileSize, fileSample);
  }

  LogicalResult writeAttribute(Attribute attr,
                               DialectBytecodeWriter &writer) const override {
    return TypeSwitch<Attribute, LogicalResult>(attr)
        .Case([&](et::BlobAttr blob) {
          writer.writeVarInt(kBlobAttr);
          writer.writeAttribute(blob.getData());
          writer.writeVarInt(blob.getAlignment());
          return success();
        })
        .Case([&](CompileSpecAttr spec) {
          writer.writeVarInt(kCompileSpecAttr);
          writer.writeOwnedString(spec.getKey());
          writer.writeOwnedBlob(
              ArrayRef<char>(spec.getValue().data(), spec.getValue().size()));
          return success();
        })
        .Case([&](ScalarTypeAttr type) {
          writer.writeVarInt(kScalarTypeAttr);
          writer.writeVarInt(static_cast<uint64_t>(type.getValue()));
          return success();
        })
        .Case([&](ShapeDynamismAttr dynamism) {
          writer.writeVarInt(kShapeDynamismAttr);
          writer.writeVarInt(static_cast<uint64_t>(dynamism.getValue()));
          return success();
        })
        .Case([&](DataPlacementAttr placement) {
          writer.writeVarInt(kDataPlacementAttr);
          writer.writeVarInt(static_cast<uint64_t>(placement.getValue()));
          return success();
        })
        .Case([&](TensorLayoutAttr layout) {
          writer.writeVarInt(kTensorLayoutAttr);
          writer.writeVarInt(static_cast<uint64_t>(layout.getScalarType()));
          auto writeInt = [&](int32_t value) {
            writer.writeSignedVarInt(value);
          };
          writer.writeList(layout.getSizes(), writeInt);
          writer.writeList(layout.getDimOrder(), writeInt);
          return success();
        })
        .Case([&](FileRangeAttr range) {
          writer.writeVarInt(kFileRangeAttr);
          writer.writeOwnedString(range.getPath().getValue());
          writer.writeVarInt(range.getOffset());
          writer.writeVarInt(range.getSize());
          writer.writeVarInt(range.getFileSize());
          writer.writeVarInt(range.getFileSample());
          return success();
        })
        .Default([](Attribute) { return failure(); });
  }

  Type readType(DialectBytecodeReader &reader) const override {
    uint64_t code;
    if (failed(reader.readVarInt(code)))
      return {};
    switch (code) {
    case kValueType:
      return ValueType::get(getContext());
    case kOperatorType:
      return OperatorType::get(getContext());
    case kDelegateType:
      return DelegateType::get(getContext());
    }
    reader.emitError() << "unknown et type code " << code;
    return {};
  }

  LogicalResult writeType(Type type,
                          DialectBytecodeWriter &writer) const override {
    std::optional<TypeCode> code =
        TypeSwitch<Type, std::optional<TypeCode>>(type)
            .Case([](ValueType) { return kValueType; })
            .Case([](OperatorType) { return kOperatorType; })
            .Case([](DelegateType) { return kDelegateType; })
            .Default([](Type) { return std::nullopt; });
    if (!code)
      return failure();
    writer.writeVarInt(*code);
    return success();
  }
};
} // namespace

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
  addInterfaces<ETBytecodeInterface>();
  payloadFiles = std::make_shared<PayloadFiles>();
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
  if (isa_and_nonnull<FileRangeAttr>(attr))
    return true;
  if (!isa_and_nonnull<DenseElementsAttr, DenseResourceElementsAttr>(attr))
    return false;
  auto type = dyn_cast<RankedTensorType>(cast<TypedAttr>(attr).getType());
  return type && type.getRank() == 1 && type.hasStaticShape() &&
         type.getElementType().isInteger(8);
}

/// Checks what both payload forms share: byte elements, a power-of-two
/// alignment and, when the bytes are present, a byte count that matches the
/// declared element count (MLIR 19 does not check resource sizes itself).
static LogicalResult verifyPayload(function_ref<InFlightDiagnostic()> emitError,
                                   Attribute data, uint64_t alignment) {
  if (!isByteElementsAttr(data))
    return emitError() << "payload must be a 1-D tensor of i8 or ui8 held "
                          "in `dense` or `dense_resource`, or an `#et.file` "
                          "reference, got "
                       << data;
  if (!llvm::isPowerOf2_64(alignment))
    return emitError() << "alignment " << alignment << " is not a power of two";
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

LogicalResult et::BlobAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ElementsAttr data, uint64_t alignment) {
  return verifyPayload(emitError, data, alignment);
}

LogicalResult BlobOp::verify() {
  return verifyPayload([&] { return emitOpError(); }, getData(),
                       getAlignment());
}

//===----------------------------------------------------------------------===//
// TensorLayoutAttr
//===----------------------------------------------------------------------===//

/// `[1, 2, 3]`, possibly empty.
static ParseResult parseIntList(AsmParser &parser,
                                SmallVectorImpl<int32_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    return parser.parseInteger(values.emplace_back());
  });
}

/// `float [2, 3] dim_order [1, 0]`: a tensor's type, sizes and dim order,
/// as `et.tensor` writes them.
static ParseResult parseTensorShape(AsmParser &parser, ScalarType &type,
                                    SmallVectorImpl<int32_t> &sizes,
                                    SmallVectorImpl<int32_t> &dimOrder) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ScalarType> known = symbolizeScalarType(keyword);
  if (!known)
    return parser.emitError(loc, "unknown scalar type '") << keyword << "'";
  type = *known;
  return failure(parseIntList(parser, sizes) ||
                 parser.parseKeyword("dim_order") ||
                 parseIntList(parser, dimOrder));
}

static void printTensorShape(AsmPrinter &printer, ScalarType type,
                             ArrayRef<int32_t> sizes,
                             ArrayRef<int32_t> dimOrder) {
  printer << stringifyScalarType(type) << " [";
  llvm::interleaveComma(sizes, printer);
  printer << "] dim_order [";
  llvm::interleaveComma(dimOrder, printer);
  printer << "]";
}

Attribute TensorLayoutAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  ScalarType type;
  SmallVector<int32_t> sizes, dimOrder;
  if (parser.parseLess() || parseTensorShape(parser, type, sizes, dimOrder) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    type, ArrayRef<int32_t>(sizes),
                    ArrayRef<int32_t>(dimOrder));
}

void TensorLayoutAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printTensorShape(printer, getScalarType(), getSizes(), getDimOrder());
  printer << '>';
}

LogicalResult
TensorLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ScalarType, ArrayRef<int32_t> sizes,
                         ArrayRef<int32_t> dimOrder) {
  if (failed(verifyTensorShape(emitError, sizes, dimOrder)))
    return failure();
  return success();
}

std::optional<uint64_t> TensorLayoutAttr::getByteSize() const {
  return getTensorByteSize(getScalarType(), getSizes());
}

//===----------------------------------------------------------------------===//
// TestTensorAttr
//===----------------------------------------------------------------------===//

Attribute TestTensorAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  ScalarType type;
  SmallVector<int32_t> sizes, dimOrder;
  ElementsAttr data;
  if (parser.parseLess() || parseTensorShape(parser, type, sizes, dimOrder) ||
      parser.parseEqual() || parser.parseAttribute(data) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    type, ArrayRef<int32_t>(sizes), ArrayRef<int32_t>(dimOrder),
                    data);
}

void TestTensorAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printTensorShape(printer, getScalarType(), getSizes(), getDimOrder());
  printer << " = ";
  printer.printAttribute(getData());
  printer << '>';
}

/// Sizes and dim order are kept as the bundle has them, fitting its method
/// or not (emit-verify says which); the dim order is bytes in the file.
LogicalResult
TestTensorAttr::verify(function_ref<InFlightDiagnostic()> emitError, ScalarType,
                       ArrayRef<int32_t>, ArrayRef<int32_t> dimOrder,
                       ElementsAttr data) {
  for (int32_t dim : dimOrder)
    if (dim < 0 || dim > UINT8_MAX)
      return emitError() << "dim order entry " << dim
                         << " does not fit a byte, as a bundle stores it";
  if (!isByteElementsAttr(data))
    return emitError() << "data must be bytes: a 1-D tensor of i8";
  return success();
}

//===----------------------------------------------------------------------===//
// FileRangeAttr
//===----------------------------------------------------------------------===//

Attribute FileRangeAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::string path;
  uint64_t offset, size, fileSize, fileSample;
  if (parser.parseLess() || parser.parseString(&path) || parser.parseComma() ||
      parser.parseKeyword("offset") || parser.parseEqual() ||
      parser.parseInteger(offset) || parser.parseComma() ||
      parser.parseKeyword("size") || parser.parseEqual() ||
      parser.parseInteger(size) || parser.parseComma() ||
      parser.parseKeyword("file_size") || parser.parseEqual() ||
      parser.parseInteger(fileSize) || parser.parseComma() ||
      parser.parseKeyword("file_sample") || parser.parseEqual() ||
      parser.parseInteger(fileSample) || parser.parseGreater())
    return {};
  MLIRContext *context = parser.getContext();
  return getChecked([&] { return parser.emitError(loc); }, context,
                    StringAttr::get(context, path), offset, size, fileSize,
                    fileSample);
}

void FileRangeAttr::print(AsmPrinter &printer) const {
  printer << "<\"";
  llvm::printEscapedString(getPath().getValue(), printer.getStream());
  printer << "\", offset = " << getOffset() << ", size = " << getSize()
          << ", file_size = " << getFileSize() << ", file_sample = 0x"
          << emit::hex16(getFileSample()) << '>';
}

LogicalResult
FileRangeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr path, uint64_t offset, uint64_t size,
                      uint64_t fileSize, uint64_t) {
  if (!path || path.getValue().empty())
    return emitError() << "a file reference needs a path";
  if (size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return emitError() << "size " << size << " is too large";
  if (offset > fileSize || size > fileSize - offset)
    return emitError() << "bytes [" << offset << ", " << offset + size
                       << ") are past the end of the " << fileSize
                       << "-byte file";
  return success();
}

ShapedType FileRangeAttr::getType() const {
  return RankedTensorType::get({static_cast<int64_t>(getSize())},
                               IntegerType::get(getContext(), 8));
}

//===----------------------------------------------------------------------===//
// Scalar types
//===----------------------------------------------------------------------===//

std::optional<uint64_t> et::getTensorByteSize(ScalarType type,
                                              ArrayRef<int32_t> sizes) {
  uint64_t bytes = getScalarTypeByteSize(type);
  for (int32_t size : sizes)
    if (size < 0 ||
        __builtin_mul_overflow(bytes, static_cast<uint64_t>(size), &bytes))
      return std::nullopt;
  return bytes;
}

LogicalResult
et::verifyTensorShape(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int32_t> sizes, ArrayRef<int32_t> dimOrder) {
  if (Problem problem = getTensorShapeProblem(sizes, dimOrder))
    return emitError() << *problem;
  return success();
}

unsigned et::getScalarTypeByteSize(ScalarType type) {
  switch (type) {
  case ScalarType::Byte:
  case ScalarType::Char:
  case ScalarType::Bool:
  case ScalarType::QInt8:
  case ScalarType::QUInt8:
  case ScalarType::QUInt4x2:
  case ScalarType::QUInt2x4:
  case ScalarType::Bits1x8:
  case ScalarType::Bits2x4:
  case ScalarType::Bits4x2:
  case ScalarType::Bits8:
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
  case ScalarType::ComplexHalf:
    return 4;
  case ScalarType::Long:
  case ScalarType::Double:
  case ScalarType::UInt64:
  case ScalarType::ComplexFloat:
    return 8;
  case ScalarType::ComplexDouble:
    return 16;
  }
  llvm_unreachable("unknown scalar type");
}
