//===- ETEnums.td - ExecuTorch program dialect enums -------*- tablegen -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_IR_ETENUMS_TD
#define EMIT_DIALECT_ET_IR_ETENUMS_TD

include "emit/Dialect/ET/IR/ETBase.td"
include "mlir/IR/EnumAttr.td"

// Values and names follow ExecuTorch's `ScalarType` (every value its
// `isValid` accepts) so that a round trip through a `.pte` is the identity.
def ET_ScalarType : I32EnumAttr<"ScalarType", "ExecuTorch tensor element type", [
    I32EnumAttrCase<"Byte", 0, "byte">,
    I32EnumAttrCase<"Char", 1, "char">,
    I32EnumAttrCase<"Short", 2, "short">,
    I32EnumAttrCase<"Int", 3, "int">,
    I32EnumAttrCase<"Long", 4, "long">,
    I32EnumAttrCase<"Half", 5, "half">,
    I32EnumAttrCase<"Float", 6, "float">,
    I32EnumAttrCase<"Double", 7, "double">,
    I32EnumAttrCase<"ComplexHalf", 8, "complex_half">,
    I32EnumAttrCase<"ComplexFloat", 9, "complex_float">,
    I32EnumAttrCase<"ComplexDouble", 10, "complex_double">,
    I32EnumAttrCase<"Bool", 11, "bool">,
    I32EnumAttrCase<"QInt8", 12, "qint8">,
    I32EnumAttrCase<"QUInt8", 13, "quint8">,
    I32EnumAttrCase<"QInt32", 14, "qint32">,
    I32EnumAttrCase<"BFloat16", 15, "bfloat16">,
    I32EnumAttrCase<"QUInt4x2", 16, "quint4x2">,
    I32EnumAttrCase<"QUInt2x4", 17, "quint2x4">,
    I32EnumAttrCase<"Bits1x8", 18, "bits1x8">,
    I32EnumAttrCase<"Bits2x4", 19, "bits2x4">,
    I32EnumAttrCase<"Bits4x2", 20, "bits4x2">,
    I32EnumAttrCase<"Bits8", 21, "bits8">,
    I32EnumAttrCase<"Bits16", 22, "bits16">,
    I32EnumAttrCase<"Float8E5M2", 23, "float8_e5m2">,
    I32EnumAttrCase<"Float8E4M3FN", 24, "float8_e4m3fn">,
    I32EnumAttrCase<"Float8E5M2FNUZ", 25, "float8_e5m2fnuz">,
    I32EnumAttrCase<"Float8E4M3FNUZ", 26, "float8_e4m3fnuz">,
    I32EnumAttrCase<"UInt16", 27, "uint16">,
    I32EnumAttrCase<"UInt32", 28, "uint32">,
    I32EnumAttrCase<"UInt64", 29, "uint64">]> {
  let cppNamespace = "::emit::et";
  let genSpecializedAttr = 0;
}

def ET_ScalarTypeAttr : EnumAttr<ET_Dialect, ET_ScalarType, "scalar_type"> {
  let assemblyFormat = "`<` $value `>`";
}

def ET_ShapeDynamism : I32EnumAttr<"ShapeDynamism",
    "whether a tensor's shape may change at run time", [
    I32EnumAttrCase<"Static", 0, "static">,
    I32EnumAttrCase<"DynamicBound", 1, "dynamic_bound">,
    I32EnumAttrCase<"DynamicUnbound", 2, "dynamic_unbound">]> {
  let cppNamespace = "::emit::et";
  let genSpecializedAttr = 0;
}

def ET_ShapeDynamismAttr
    : EnumAttr<ET_Dialect, ET_ShapeDynamism, "shape_dynamism"> {
  let assemblyFormat = "`<` $value `>`";
}

def ET_DeviceType : I32EnumAttr<"DeviceType",
    "the device a tensor or planned buffer lives on", [
    I32EnumAttrCase<"CPU", 0, "cpu">,
    I32EnumAttrCase<"CUDA", 1, "cuda">]> {
  let cppNamespace = "::emit::et";
  let genSpecializedAttr = 0;
}

def ET_TensorDataLocation : I32EnumAttr<"TensorDataLocation",
    "where a tensor's data is found", [
    I32EnumAttrCase<"Segment", 0, "segment">,
    I32EnumAttrCase<"External", 1, "external">]> {
  let cppNamespace = "::emit::et";
  let genSpecializedAttr = 0;
}

def ET_DataPlacement : I32EnumAttr<"DataPlacement",
    "where a program-level blob is stored in the file", [
    I32EnumAttrCase<"Inline", 0, "inline">,
    I32EnumAttrCase<"Segment", 1, "segment">]> {
  let cppNamespace = "::emit::et";
  let genSpecializedAttr = 0;
}

def ET_DataPlacementAttr
    : EnumAttr<ET_Dialect, ET_DataPlacement, "placement"> {
  let assemblyFormat = "`<` $value `>`";
}

// The one classification of data. The order is a priority: a blob several
// ops name counts as the kind that comes first (a payload that is also
// named data is a payload). `Unnamed` is no op's kind: a blob that no op
// names, which summaries and reports count apart.
def ET_DataKind : I32EnumAttr<"DataKind",
    "what the bytes of a blob are for, by the op that names it", [
    I32EnumAttrCase<"Delegate", 0, "delegate">,
    I32EnumAttrCase<"NamedData", 1, "named_data">,
    I32EnumAttrCase<"Constant", 2, "constant">,
    I32EnumAttrCase<"Mutable", 3, "mutable">,
    I32EnumAttrCase<"Unnamed", 4, "unnamed">]> {
  let cppNamespace = "::emit::et";
  let genSpecializedAttr = 0;
}

#endif // EMIT_DIALECT_ET_IR_ETENUMS_TD
