//===- TOSADecoder.cpp - TOSA flatbuffer payloads -------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A TOSABackend payload is a TosaGraph flatbuffer, identifier TOSA at byte
// 4 (schema/tosa.fbs). Its graph: every block's operators as nodes (inputs
// and outputs are tensor names, resolved within the block) and its tensors
// as values (shape, data type, constant bytes in the flatbuffer or, in a
// graph over 2 GiB, outside it). Op and data type numbers are named for
// TOSA 1.x, whose enums only append; an older version's stay numbers.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "emit/Delegate/tosa_generated.h"

#include "llvm/ADT/StringMap.h"

#include <string>

using namespace emit;
using namespace emit::delegate;

namespace tosa = emit_tosa;

namespace {
// TOSA 1.0's and 1.1's Op and DType, in their order.
constexpr const char *kOps[] = {"UNKNOWN",
                                "ARGMAX",
                                "AVG_POOL2D",
                                "CONV2D",
                                "CONV3D",
                                "DEPTHWISE_CONV2D",
                                "FFT2D",
                                "MATMUL",
                                "MAX_POOL2D",
                                "RFFT2D",
                                "TRANSPOSE_CONV2D",
                                "CLAMP",
                                "ERF",
                                "SIGMOID",
                                "TANH",
                                "ADD",
                                "ARITHMETIC_RIGHT_SHIFT",
                                "BITWISE_AND",
                                "BITWISE_OR",
                                "BITWISE_XOR",
                                "INTDIV",
                                "LOGICAL_AND",
                                "LOGICAL_LEFT_SHIFT",
                                "LOGICAL_RIGHT_SHIFT",
                                "LOGICAL_OR",
                                "LOGICAL_XOR",
                                "MAXIMUM",
                                "MINIMUM",
                                "MUL",
                                "POW",
                                "SUB",
                                "TABLE",
                                "ABS",
                                "BITWISE_NOT",
                                "CEIL",
                                "CLZ",
                                "COS",
                                "EXP",
                                "FLOOR",
                                "LOG",
                                "LOGICAL_NOT",
                                "NEGATE",
                                "RECIPROCAL",
                                "RSQRT",
                                "SIN",
                                "SELECT",
                                "EQUAL",
                                "GREATER",
                                "GREATER_EQUAL",
                                "REDUCE_ALL",
                                "REDUCE_ANY",
                                "REDUCE_MAX",
                                "REDUCE_MIN",
                                "REDUCE_PRODUCT",
                                "REDUCE_SUM",
                                "CONCAT",
                                "PAD",
                                "RESHAPE",
                                "REVERSE",
                                "SLICE",
                                "TILE",
                                "TRANSPOSE",
                                "GATHER",
                                "SCATTER",
                                "RESIZE",
                                "CAST",
                                "RESCALE",
                                "CONST",
                                "IDENTITY",
                                "CUSTOM",
                                "COND_IF",
                                "WHILE_LOOP",
                                "VARIABLE",
                                "VARIABLE_WRITE",
                                "VARIABLE_READ",
                                "CONST_SHAPE",
                                "MATMUL_T_BLOCK_SCALED",
                                "CAST_FROM_BLOCK_SCALED",
                                "CAST_TO_BLOCK_SCALED",
                                "DIM",
                                "CONCAT_SHAPE",
                                "ADD_SHAPE",
                                "SUB_SHAPE",
                                "MUL_SHAPE",
                                "SLICE_SHAPE",
                                "EXP2_SHAPE",
                                "LOG2_CEIL_SHAPE",
                                "LOG2_FLOOR_SHAPE",
                                "MAX_SHAPE",
                                "MIN_SHAPE",
                                "MOD_SHAPE",
                                "DIV_CEIL_SHAPE",
                                "DIV_FLOOR_SHAPE",
                                "ASSERT_EQUAL_SHAPE",
                                "CONV2D_BLOCK_SCALED",
                                "MAX_POOL2D_ADAPTIVE",
                                "AVG_POOL2D_ADAPTIVE"};
constexpr const char *kDtypes[] = {
    "UNKNOWN", "BOOL",    "INT4",     "INT8",  "INT16",   "INT32",   "INT48",
    "FP32",    "FP16",    "BF16",     "SHAPE", "FP8E4M3", "FP8E5M2", "FP6E2M3",
    "FP6E3M2", "FP4E2M1", "FP8UE8M0", "INT64", "MXINT8"};

class TOSADecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "TOSA"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.substr(4, 4) == "TOSA";
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

/// Reads a verified graph's blocks into a DecodedGraph.
class GraphReader {
public:
  GraphReader(bool namesKnown, DecodedGraph &graph)
      : namesKnown(namesKnown), graph(graph) {}
  void readBlock(const tosa::TosaBasicBlock &block, StringRef region);

private:
  /// `value`'s name in `names`, or `<kind> <value>` where the version's
  /// numbering is not known.
  std::string name(ArrayRef<const char *> names, StringRef kind,
                   uint32_t value) const {
    if (namesKnown && value < names.size())
      return names[value];
    return (kind + " " + Twine(value)).str();
  }
  void readTensor(const tosa::TosaTensor &tensor);
  /// The values named `names` in the current block; unknown names (shapes,
  /// a hostile graph's) are left out.
  std::vector<uint32_t>
  resolve(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>
              *names) const;

  bool namesKnown;
  bool readFirst = false;
  DecodedGraph &graph;
  llvm::StringMap<uint32_t> byName;
};
} // namespace

void GraphReader::readTensor(const tosa::TosaTensor &tensor) {
  DecodedValue &value = graph.values.emplace_back();
  value.id = graph.values.size() - 1;
  value.dtype = name(kDtypes, "dtype", tensor.type());
  if (const auto *shape = tensor.shape())
    for (int32_t size : *shape)
      value.shape.push_back(size < 0 ? 0 : size);
  if (tensor.data() && tensor.data()->size())
    value.constantBytes = tensor.data()->size();
  else if (tensor.offset() > 1)
    value.constantBytes = tensor.size();
  if (tensor.name())
    byName[tensor.name()->string_view()] = value.id;
}

std::vector<uint32_t> GraphReader::resolve(
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *names)
    const {
  std::vector<uint32_t> ids;
  if (names)
    for (const flatbuffers::String *text : *names) {
      auto it = text ? byName.find(text->string_view()) : byName.end();
      if (it != byName.end())
        ids.push_back(it->second);
    }
  return ids;
}

void GraphReader::readBlock(const tosa::TosaBasicBlock &block,
                            StringRef region) {
  byName.clear();
  if (block.tensors())
    for (const tosa::TosaTensor *tensor : *block.tensors())
      if (tensor)
        readTensor(*tensor);
  // The first block is the one the call runs: its inputs and outputs are
  // the call's (a later block's are a control flow body's).
  if (!readFirst) {
    readFirst = true;
    std::vector<uint32_t> inputs = resolve(block.inputs());
    for (auto [at, id] : llvm::enumerate(inputs))
      graph.values[id].externalInput = at;
    std::vector<uint32_t> outputs = resolve(block.outputs());
    for (auto [at, id] : llvm::enumerate(outputs))
      graph.values[id].externalOutput = at;
  }
  if (!block.operators())
    return;
  for (const tosa::TosaOperator *op : *block.operators()) {
    if (!op)
      continue;
    DecodedNode &node = graph.nodes.emplace_back();
    node.id = graph.nodes.size() - 1;
    node.op = name(kOps, "op", op->op());
    node.inputs = resolve(op->inputs());
    node.outputs = resolve(op->outputs());
    std::string where = region.str();
    if (block.name())
      where += (where.empty() ? "" : "/") + block.name()->str();
    node.attrs.push_back({"block", where});
    if (op->location() && op->location()->text())
      node.attrs.push_back({"location", op->location()->text()->str()});
  }
}

void TOSADecoder::decode(const PayloadInput &input,
                         DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = "TOSA";
  decoded.regions.push_back({"graph", 0, bytes.size()});
  const auto *root = getVerifiedRoot<tosa::TosaGraph>(
      bytes, 0, decoded.problems, "TosaGraph flatbuffer");
  if (!root)
    return;
  const tosa::Version *version = root->version();
  decoded.target.push_back(
      {"tosa version", std::to_string(version->_major()) + "." +
                           std::to_string(version->_minor()) + "." +
                           std::to_string(version->_patch()) +
                           (version->_draft() ? " draft" : "")});
  if (!input.withGraph || !root->regions())
    return;
  DecodedGraph &graph = decoded.graph.emplace();
  GraphReader reader(version->_major() == 1, graph);
  for (const tosa::TosaRegion *region : *root->regions())
    if (region && region->blocks())
      for (const tosa::TosaBasicBlock *block : *region->blocks())
        if (block)
          reader.readBlock(*block,
                           region->name() ? region->name()->string_view() : "");
}

const PayloadDecoder &delegate::getTOSADecoder() {
  static const TOSADecoder decoder;
  return decoder;
}
