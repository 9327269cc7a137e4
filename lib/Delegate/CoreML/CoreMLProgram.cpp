//===- CoreMLProgram.cpp - A Core ML model's ML program, as a graph -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An .mlpackage holds its model as a Core ML Model protobuf (coremltools'
// Model.proto and MIL.proto; ExecuTorch exports an ML program, field 502).
// The program's functions each run the block of their opset; a block's
// operations (a type such as `conv` or `const`, inputs by parameter name,
// each bound to a value by name or to an immediate value, typed outputs,
// nested blocks, attributes such as the op's `name`) become nodes, the
// values they name become values (data type, shape; an unknown dimension
// reads 0), a `const` op's output a constant (its bytes from its type; its
// data immediate, or at an offset of a weight file of the package, which is
// named, not read). A nested block's operations follow their op's, marked
// with it. Malformed protobuf is a problem at its byte offset.
//
//===----------------------------------------------------------------------===//

#include "CoreMLProgram.h"

#include "PayloadLayout.h"
#include "ProtobufFields.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"

using namespace emit;
using namespace emit::delegate;

namespace {
/// How deep blocks and types nest before emit stops following them.
constexpr unsigned kMaxDepth = 64;
/// An immediate value is shown when it has at most this many elements.
constexpr size_t kMaxShownElements = 8;

/// MIL.proto's DataType: its name, and its element's bits.
struct MILDataType {
  uint64_t value;
  const char *name;
  unsigned bits;
};
constexpr MILDataType kDataTypes[] = {
    {1, "bool", 8},     {2, "string", 0},   {10, "fp16", 16},
    {11, "fp32", 32},   {12, "fp64", 64},   {13, "bf16", 16},
    {21, "int8", 8},    {22, "int16", 16},  {23, "int32", 32},
    {24, "int64", 64},  {25, "int4", 4},    {31, "uint8", 8},
    {32, "uint16", 16}, {33, "uint32", 32}, {34, "uint64", 64},
    {35, "uint4", 4},   {36, "uint2", 2},   {37, "uint1", 1},
    {38, "uint6", 6},   {39, "uint3", 3},   {40, "fp8e4m3fn", 8},
    {41, "fp8e5m2", 8}};

const MILDataType *findDataType(uint64_t value) {
  for (const MILDataType &type : kDataTypes)
    if (type.value == value)
      return &type;
  return nullptr;
}

/// A tensor type: its data type and its dimensions.
struct TensorType {
  uint64_t dataType = 0;
  std::vector<uint64_t> shape;
};

/// Reads a Model protobuf's ML program into a graph.
class ProgramReader {
public:
  ProgramReader(StringRef model, uint64_t base, DecodedPayload &decoded)
      : model(model), base(base), decoded(decoded) {}
  void read();

private:
  /// Calls `each` for `message`'s fields; a malformed message is a problem
  /// (`what` names it) and false.
  bool fields(StringRef message, StringRef what,
              llvm::function_ref<bool(const ProtobufField &)> each);
  /// A map entry of a string key and a message value: both, as bytes.
  std::pair<StringRef, StringRef> readMapEntry(StringRef entry);
  void readProgram(StringRef program);
  void readFunction(StringRef name, StringRef function);
  void readBlock(StringRef block, unsigned depth, const std::string &within);
  void readOperation(StringRef operation, unsigned depth,
                     const std::string &within);
  void readArgument(StringRef parameter, StringRef argument, DecodedNode &node);
  /// The value a NamedValueType declares: its id.
  uint32_t declare(StringRef namedValueType);
  std::optional<TensorType> readTensorType(StringRef valueType);
  /// Value `id`'s bytes by its type; none when its size is not known.
  std::optional<uint64_t> getTensorBytes(uint32_t id) const;
  std::string formatValue(StringRef value);
  std::string formatTensorValue(StringRef tensor);
  uint64_t offsetOf(StringRef part) const {
    return base + uint64_t(part.data() - model.data());
  }

  StringRef model;
  uint64_t base;
  DecodedPayload &decoded;
  DecodedGraph graph;
  /// Each value's MIL data type, by id.
  std::vector<uint64_t> dataTypes;
  /// The current function's values by name.
  llvm::StringMap<uint32_t> byName;
  /// Whether the model names more than one function (nodes then say whose
  /// they are), and the function being read.
  bool manyFunctions = false;
  std::string function;
  bool malformed = false;
};
} // namespace

bool ProgramReader::fields(
    StringRef message, StringRef what,
    llvm::function_ref<bool(const ProtobufField &)> each) {
  if (malformed)
    return false;
  std::optional<uint64_t> bad = forEachProtobufField(message, each);
  if (!bad)
    return true;
  malformed = true;
  addProblem(decoded, offsetOf(message) + *bad,
             "malformed protobuf in the model's " + what +
                 ": Core ML cannot load it");
  return false;
}

std::pair<StringRef, StringRef> ProgramReader::readMapEntry(StringRef entry) {
  StringRef key, value;
  fields(entry, "map entry", [&](const ProtobufField &field) {
    if (field.wireType == 2)
      (field.number == 1 ? key : value) = field.bytes;
    return true;
  });
  return {key, value};
}

std::optional<TensorType> ProgramReader::readTensorType(StringRef valueType) {
  std::optional<TensorType> result;
  fields(valueType, "value type", [&](const ProtobufField &field) {
    if (field.number != 1 || field.wireType != 2) // tensorType
      return true;
    TensorType type;
    fields(field.bytes, "tensor type", [&](const ProtobufField &member) {
      if (member.number == 1 && member.wireType == 0)
        type.dataType = member.value;
      if (member.number != 3 || member.wireType != 2) // dimensions
        return true;
      uint64_t size = 0;
      fields(member.bytes, "dimension", [&](const ProtobufField &dim) {
        if (dim.number == 1 && dim.wireType == 2) // constant
          fields(dim.bytes, "dimension", [&](const ProtobufField &constant) {
            if (constant.number == 1 && constant.wireType == 0)
              size = constant.value;
            return true;
          });
        return true;
      });
      type.shape.push_back(size);
      return true;
    });
    result = std::move(type);
    return true;
  });
  return result;
}

uint32_t ProgramReader::declare(StringRef namedValueType) {
  StringRef name;
  std::optional<TensorType> type;
  fields(namedValueType, "named value type", [&](const ProtobufField &field) {
    if (field.number == 1 && field.wireType == 2)
      name = field.bytes;
    else if (field.number == 2 && field.wireType == 2)
      type = readTensorType(field.bytes);
    return true;
  });
  DecodedValue &value = graph.values.emplace_back();
  value.id = uint32_t(graph.values.size() - 1);
  dataTypes.push_back(type ? type->dataType : 0);
  if (type) {
    const MILDataType *dataType = findDataType(type->dataType);
    value.dtype = dataType ? dataType->name
                           : "data type " + std::to_string(type->dataType);
    value.shape = type->shape;
  }
  byName[name] = value.id;
  return value.id;
}

std::optional<uint64_t> ProgramReader::getTensorBytes(uint32_t id) const {
  const MILDataType *type = findDataType(dataTypes[id]);
  if (!type || !type->bits)
    return std::nullopt;
  uint64_t elements = 1;
  for (uint64_t size : graph.values[id].shape)
    elements *= size;
  if (!elements && !graph.values[id].shape.empty())
    return std::nullopt;
  return (elements * type->bits + 7) / 8;
}

std::string ProgramReader::formatTensorValue(StringRef tensor) {
  std::vector<std::string> items;
  fields(tensor, "tensor value", [&](const ProtobufField &field) {
    if (field.wireType != 2)
      return true;
    // Each kind holds its values in its field 1: packed scalars, or
    // strings and bytes one field each.
    fields(field.bytes, "tensor value", [&](const ProtobufField &values) {
      if (values.number != 1)
        return true;
      StringRef data = values.bytes;
      switch (field.number) {
      case 1: // floats
        for (size_t at = 0; values.wireType == 2 && at + 4 <= data.size();
             at += 4)
          items.push_back(formatFloat(llvm::bit_cast<float>(
              llvm::support::endian::read32le(data.data() + at))));
        if (values.wireType == 5)
          items.push_back(
              formatFloat(llvm::bit_cast<float>(uint32_t(values.value))));
        break;
      case 6: // doubles
        for (size_t at = 0; values.wireType == 2 && at + 8 <= data.size();
             at += 8)
          items.push_back(formatFloat(llvm::bit_cast<double>(
              llvm::support::endian::read64le(data.data() + at))));
        if (values.wireType == 1)
          items.push_back(formatFloat(llvm::bit_cast<double>(values.value)));
        break;
      case 2: // ints
      case 3: // bools
      case 5: // longInts
        if (values.wireType == 0) {
          items.push_back(std::to_string(int64_t(values.value)));
        } else if (auto packed = readPackedVarints(data)) {
          for (uint64_t item : *packed)
            items.push_back(field.number == 3 ? (item ? "true" : "false")
                            : field.number == 2
                                ? std::to_string(int32_t(item))
                                : std::to_string(int64_t(item)));
        }
        break;
      case 4: // strings
        items.push_back("\"" + data.str() + "\"");
        break;
      case 7: // bytes
        items.push_back(std::to_string(data.size()) + " bytes");
        break;
      }
      return true;
    });
    return true;
  });
  if (items.size() > kMaxShownElements)
    return std::to_string(items.size()) + " values";
  if (items.size() == 1)
    return items.front();
  std::string text = "[";
  for (auto [i, item] : llvm::enumerate(items))
    text += (i ? ", " : "") + item;
  return text + "]";
}

std::string ProgramReader::formatValue(StringRef value) {
  std::string text = "?";
  fields(value, "value", [&](const ProtobufField &field) {
    if (field.wireType != 2)
      return true;
    if (field.number == 3) { // immediateValue
      fields(field.bytes, "immediate value", [&](const ProtobufField &kind) {
        if (kind.number == 1 && kind.wireType == 2) // tensor
          text = formatTensorValue(kind.bytes);
        else if (kind.wireType == 2)
          text = kind.number == 2   ? "tuple"
                 : kind.number == 3 ? "list"
                                    : "dictionary";
        return true;
      });
    } else if (field.number == 5) { // blobFileValue
      StringRef file;
      uint64_t offset = 0;
      fields(field.bytes, "blob file value", [&](const ProtobufField &blob) {
        if (blob.number == 1 && blob.wireType == 2)
          file = blob.bytes;
        else if (blob.number == 2 && blob.wireType == 0)
          offset = blob.value;
        return true;
      });
      text = (file + " @" + Twine(offset)).str();
    }
    return true;
  });
  return text;
}

void ProgramReader::readArgument(StringRef parameter, StringRef argument,
                                 DecodedNode &node) {
  std::vector<std::string> bound;
  fields(argument, "argument", [&](const ProtobufField &binding) {
    if (binding.number != 1 || binding.wireType != 2)
      return true;
    fields(binding.bytes, "binding", [&](const ProtobufField &field) {
      if (field.number == 1 && field.wireType == 2) { // a value by name
        auto it = byName.find(field.bytes);
        if (it != byName.end())
          node.inputs.push_back(it->second);
        bound.push_back("%" + (it != byName.end()
                                   ? std::to_string(it->second)
                                   : "'" + field.bytes.str() + "'"));
      } else if (field.number == 2 && field.wireType == 2) {
        bound.push_back(formatValue(field.bytes));
      }
      return true;
    });
    return true;
  });
  // Operands are inputs; an immediate argument is an attribute.
  bool immediate = llvm::any_of(
      bound, [](const std::string &text) { return text[0] != '%'; });
  if (!immediate)
    return;
  std::string text = bound.size() == 1 ? bound.front() : "[";
  if (bound.size() != 1) {
    for (auto [i, item] : llvm::enumerate(bound))
      text += (i ? ", " : "") + item;
    text += "]";
  }
  node.attrs.push_back(Field::fromDisplay(parameter.str(), text));
}

void ProgramReader::readOperation(StringRef operation, unsigned depth,
                                  const std::string &within) {
  size_t at = graph.nodes.size();
  graph.nodes.emplace_back().id = uint32_t(at);
  std::vector<StringRef> blocks;
  fields(operation, "operation", [&](const ProtobufField &field) {
    DecodedNode &node = graph.nodes[at];
    if (field.wireType != 2)
      return true;
    if (field.number == 1) {
      node.op = field.bytes.str();
    } else if (field.number == 2 || field.number == 5) { // inputs, attributes
      auto [key, value] = readMapEntry(field.bytes);
      if (field.number == 2)
        readArgument(key, value, node);
      else
        node.attrs.push_back(Field::fromDisplay(key.str(), formatValue(value)));
    } else if (field.number == 3) { // outputs
      uint32_t id = declare(field.bytes);
      graph.nodes[at].outputs.push_back(id);
    } else if (field.number == 4) {
      blocks.push_back(field.bytes);
    }
    return true;
  });
  DecodedNode &node = graph.nodes[at];
  // A constant's bytes, from its type: immediate, or in a weight file.
  if (node.op == "const")
    for (uint32_t output : node.outputs)
      if (std::optional<uint64_t> bytes = getTensorBytes(output))
        graph.values[output].constantBytes = bytes;
  if (!within.empty())
    node.attrs.push_back({"in", within});
  if (manyFunctions)
    node.attrs.push_back({"function", function});
  std::string self = node.op + " #" + std::to_string(at);
  for (StringRef block : blocks)
    readBlock(block, depth + 1, self);
}

void ProgramReader::readBlock(StringRef block, unsigned depth,
                              const std::string &within) {
  if (depth > kMaxDepth) {
    addProblem(decoded, offsetOf(block),
               "blocks nest deeper than " + Twine(kMaxDepth) +
                   ": emit reads no deeper",
               ProblemEffect::Unknown);
    return;
  }
  std::vector<StringRef> outputs;
  fields(block, "block", [&](const ProtobufField &field) {
    if (field.wireType != 2)
      return true;
    if (field.number == 1)
      declare(field.bytes);
    else if (field.number == 2)
      outputs.push_back(field.bytes);
    else if (field.number == 3)
      readOperation(field.bytes, depth, within);
    return true;
  });
  // The function's outputs, by the names its operations gave them (a
  // serializer writes them before the operations).
  if (depth == 0)
    for (auto [position, name] : llvm::enumerate(outputs)) {
      auto it = byName.find(name);
      if (it != byName.end())
        graph.values[it->second].externalOutput = uint32_t(position);
    }
}

void ProgramReader::readFunction(StringRef name, StringRef body) {
  function = name.str();
  byName.clear();
  StringRef opset;
  std::vector<std::pair<StringRef, StringRef>> blocks;
  uint32_t inputs = 0;
  fields(body, "function", [&](const ProtobufField &field) {
    if (field.wireType != 2)
      return true;
    if (field.number == 1) {
      graph.values[declare(field.bytes)].externalInput = inputs++;
    } else if (field.number == 2) {
      opset = field.bytes;
    } else if (field.number == 3) {
      blocks.push_back(readMapEntry(field.bytes));
    }
    return true;
  });
  // The block the function's opset names runs.
  for (const auto &[key, block] : blocks)
    if (key == opset)
      return readBlock(block, 0, "");
  if (!blocks.empty())
    readBlock(blocks.front().second, 0, "");
}

void ProgramReader::readProgram(StringRef program) {
  std::vector<std::pair<StringRef, StringRef>> functions;
  fields(program, "program", [&](const ProtobufField &field) {
    if (field.number == 1 && field.wireType == 0)
      decoded.target.push_back(
          Field::integer("program version", uint64_t(field.value)));
    if (field.number != 2 || field.wireType != 2)
      return true;
    functions.push_back(readMapEntry(field.bytes));
    return true;
  });
  manyFunctions = functions.size() > 1;
  for (const auto &[name, function] : functions)
    readFunction(name, function);
}

void ProgramReader::read() {
  std::optional<StringRef> program;
  fields(model, "Model message", [&](const ProtobufField &field) {
    if (field.number == 1 && field.wireType == 0)
      decoded.target.push_back(
          Field::integer("specification version", uint64_t(field.value)));
    else if (field.number == 502 && field.wireType == 2)
      program = field.bytes;
    return true;
  });
  if (!program) {
    if (!malformed)
      decoded.target.push_back({"model type", "not an ML program"});
    return;
  }
  readProgram(*program);
  if (!malformed)
    decoded.graph = std::move(graph);
}

void delegate::readCoreMLProgram(StringRef model, uint64_t base,
                                 DecodedPayload &decoded) {
  ProgramReader(model, base, decoded).read();
}
