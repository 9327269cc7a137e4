//===- GraphDiffNodes.cpp - The nodes emit-diff --graph matches -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A method's graph as one sequence of nodes in execution order: chain order
// is a topological order, and a delegate call's payload operators run in
// their own order when it is called. Each node gets the keys the alignment
// compares: every aspect (exact), and its operator's family alone.
//
//===----------------------------------------------------------------------===//

#include "GraphDiffInternal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <xxhash.h>

using namespace emit;
using namespace emit::graphdiff;
using graph::NodeKind;

std::string graphdiff::normalizeDtype(StringRef dtype) {
  std::string lower = dtype.lower();
  StringRef name(lower);
  name.consume_front("xnn_datatype_");
  name.consume_front("mps");
  return llvm::StringSwitch<std::string>(name)
      .Cases("float", "fp32", "float32", "f32", "float_", "f32")
      .Cases("half", "fp16", "float16", "f16", "f16")
      .Cases("bfloat16", "bf16", "bf16")
      .Cases("double", "float64", "fp64", "f64")
      .Cases("char", "int8", "qint8", "qcint8", "qdint8", "i8")
      .Cases("byte", "uint8", "quint8", "u8")
      .Cases("short", "int16", "i16")
      .Cases("int", "int32", "qint32", "qcint32", "i32")
      .Cases("long", "int64", "i64")
      .Cases("qcint4", "qbint4", "qpint8", "quint4x2", "i4")
      .Case("bool", "bool")
      .Default(name.str());
}

std::string graphdiff::getOperatorFamily(StringRef op) {
  // `aten::add.out`, `aten.add.Tensor`, `XNNAdd`, `tosa.ADD`: the name
  // after the namespace, before the overload.
  StringRef name = op;
  size_t colons = name.rfind("::");
  if (colons != StringRef::npos)
    name = name.drop_front(colons + 2);
  else if (name.contains('.'))
    name = name.drop_until([](char c) { return c == '.'; }).drop_front();
  name = name.take_until([](char c) { return c == '.'; });
  name.consume_front("XNN");
  std::string flat;
  for (char c : name)
    if (llvm::isAlnum(c))
      flat.push_back(llvm::toLower(c));
  StringRef family(flat);
  if (family.size() > 4 && family.ends_with("copy"))
    family = family.drop_back(4);
  return llvm::StringSwitch<std::string>(family)
      .Cases("fullyconnected", "linear", "addmm", "linear")
      .Cases("conv2d", "depthwiseconv2d", "conv", "convolution",
             "convolution")
      .Cases("multiply", "mul", "mul")
      .Cases("subtract", "sub", "sub")
      .Cases("divide", "div", "div")
      .Cases("staticreshape", "reshape", "view", "view")
      .Cases("statictranspose", "transpose", "permute", "permute")
      .Cases("maxpooling2d", "maxpool2d", "maxpool2dwithindices", "maxpool2d")
      .Cases("avgpooling2d", "avgpool2d", "avgpool2d")
      .Cases("softmax", "softmax", "softmax")
      .Cases("concatenate", "concatenate2", "concatenate3", "concatenate4",
             "cat", "cat")
      .Default(family.str());
}

static void printShape(raw_ostream &os, ArrayRef<int64_t> shape) {
  os << '[';
  llvm::interleave(shape, os, ",");
  os << ']';
}

std::string OperandType::describe() const {
  if (!tensor)
    return dtype;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << dtype;
  printShape(os, shape);
  bool contiguous = true;
  for (auto [position, dim] : llvm::enumerate(dimOrder))
    contiguous &= dim == position;
  if (!contiguous) {
    os << " dim_order (";
    llvm::interleave(dimOrder, os, [&](uint8_t dim) { os << unsigned(dim); },
                     ",");
    os << ')';
  }
  if (!quant.empty())
    os << " " << quant;
  return text;
}

std::string DiffNode::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (kind == NodeKind::Delegate ? "delegate " : "") << op << " (";
  llvm::interleave(inputs, os, [&](const OperandType &t) { os << t.describe(); },
                   ", ");
  os << ")";
  if (!outputs.empty()) {
    os << " -> ";
    llvm::interleave(outputs, os,
                     [&](const OperandType &t) { os << t.describe(); }, ", ");
  }
  if (!backend.empty() && kind != NodeKind::Delegate)
    os << " in " << backend;
  return text;
}

namespace {
/// Hashes a byte range once however many nodes read it.
class ConstantHashes {
public:
  uint64_t get(ArrayRef<char> bytes) {
    auto [it, added] = known.try_emplace({bytes.data(), bytes.size()}, 0);
    if (added)
      it->second = XXH3_64bits(bytes.data(), bytes.size());
    return it->second;
  }

private:
  llvm::DenseMap<std::pair<const char *, size_t>, uint64_t> known;
};

/// Builds the nodes of one method's graph.
class Flattener {
public:
  explicit Flattener(const graph::MethodGraph &graph) : graph(graph) {}
  std::vector<DiffNode> run();

private:
  void addGraphNode(uint32_t index);
  void addPayloadNodes(const graph::Node &call, uint32_t callNode);
  OperandType describeValue(uint32_t value) const;
  static OperandType describeDecoded(const delegate::DecodedValue &value);
  /// Folds the constant `bytes` (or, unread, its size and key) into `node`.
  void addConstant(DiffNode &node, std::optional<ArrayRef<char>> bytes,
                   uint64_t size, StringRef key);
  void hashDelegate(const graph::DelegateInfo &info, DiffNode &node);
  static void computeKeys(DiffNode &node);

  const graph::MethodGraph &graph;
  std::vector<DiffNode> nodes;
  /// Each graph node's diff node.
  std::vector<uint32_t> graphToDiff;
  ConstantHashes hashes;
};
} // namespace

OperandType Flattener::describeValue(uint32_t index) const {
  OperandType type;
  if (index >= graph.values.size())
    return type;
  const graph::ValueInfo &value = graph.values[index];
  if (value.kind != ValueKind::Tensor) {
    type.dtype = getValueKindName(value.kind).str();
    return type;
  }
  type.tensor = true;
  type.dtype = normalizeDtype(
      value.dtype ? et::stringifyScalarType(*value.dtype)
                  : StringRef("scalar_type_" + std::to_string(value.rawDtype)));
  type.shape.assign(value.shape.begin(), value.shape.end());
  type.dimOrder.assign(value.dimOrder.begin(), value.dimOrder.end());
  return type;
}

OperandType Flattener::describeDecoded(const delegate::DecodedValue &value) {
  OperandType type;
  type.tensor = true;
  type.dtype = normalizeDtype(value.dtype);
  for (uint64_t dim : value.shape)
    type.shape.push_back(int64_t(dim));
  type.quant = value.quant;
  return type;
}

void Flattener::addConstant(DiffNode &node, std::optional<ArrayRef<char>> bytes,
                            uint64_t size, StringRef key) {
  uint64_t hash = bytes ? hashes.get(*bytes)
                        : XXH3_64bits_withSeed(key.data(), key.size(), size);
  node.constantHash = XXH3_64bits_withSeed(&hash, sizeof(hash),
                                           node.constantHash + node.constants);
  ++node.constants;
}

void Flattener::hashDelegate(const graph::DelegateInfo &info, DiffNode &node) {
  node.payload = info.payloadData;
  std::string specs;
  for (const graph::CompileSpecInfo &spec : info.compileSpecs)
    specs += spec.key + '\0' + spec.value + '\0';
  node.specsHash = XXH3_64bits(specs.data(), specs.size());
}

void Flattener::addGraphNode(uint32_t index) {
  const graph::Node &source = graph.nodes[index];
  graphToDiff[index] = nodes.size();
  DiffNode &node = nodes.emplace_back();
  node.id = source.getId();
  node.kind = source.kind;
  node.graphNode = index;
  node.op = source.name;
  switch (source.kind) {
  case NodeKind::Kernel: {
    node.family = getOperatorFamily(source.name);
    size_t dot = StringRef(source.name).rfind('.');
    size_t colons = StringRef(source.name).rfind("::");
    if (dot != StringRef::npos && (colons == StringRef::npos || dot > colons))
      node.overload = source.name.substr(dot + 1);
    break;
  }
  case NodeKind::Delegate:
    node.family = "delegate";
    node.backend = source.name;
    break;
  case NodeKind::Input:
  case NodeKind::Output:
    // Its value's index is no part of what it is: the id says its place.
    node.op = node.family = graph::getNodeKindName(source.kind).str();
    break;
  default:
    node.family = graph::getNodeKindName(source.kind).str();
    break;
  }
  for (uint32_t value : source.inputs) {
    node.inputs.push_back(describeValue(value));
    const graph::ValueInfo &info = graph.values[value];
    if (info.constant)
      addConstant(node, info.data, info.bytes.value_or(0), info.name);
  }
  for (uint32_t value : source.outputs)
    node.outputs.push_back(describeValue(value));
  if (source.delegate)
    hashDelegate(*source.delegate, node);
}

void Flattener::addPayloadNodes(const graph::Node &call, uint32_t callNode) {
  const graph::DelegateInfo &info = *call.delegate;
  if (!info.payload || !info.payload->graph)
    return;
  const delegate::DecodedGraph &payload = *info.payload->graph;
  llvm::DenseMap<uint32_t, const delegate::DecodedValue *> values;
  for (const delegate::DecodedValue &value : payload.values)
    values.try_emplace(value.id, &value);
  // The last node to write each value; the call's inputs are the call's.
  llvm::DenseMap<uint32_t, uint32_t> writers;
  std::string prefix = nodes[callNode].id + "/n";
  for (auto [position, source] : llvm::enumerate(payload.nodes)) {
    uint32_t self = nodes.size();
    DiffNode &node = nodes.emplace_back();
    node.id = prefix + std::to_string(position);
    node.kind = NodeKind::Kernel;
    node.graphNode = nodes[callNode].graphNode;
    node.payloadNode = position;
    node.op = source.op;
    node.family = getOperatorFamily(source.op);
    node.backend = info.backend;
    for (uint32_t id : source.inputs) {
      const delegate::DecodedValue *value = values.lookup(id);
      node.inputs.push_back(value ? describeDecoded(*value) : OperandType());
      auto writer = writers.find(id);
      if (writer != writers.end())
        node.producers.push_back(writer->second);
      else if (value && value->externalInput)
        node.producers.push_back(callNode);
      if (!value || !value->constantBytes)
        continue;
      std::optional<ArrayRef<char>> bytes;
      if (value->namedKey) {
        auto it = info.keyData.find(*value->namedKey);
        if (it != info.keyData.end())
          bytes = it->second;
      } else if (value->constantOffset &&
                 *value->constantOffset <= info.payloadData.size() &&
                 *value->constantBytes <=
                     info.payloadData.size() - *value->constantOffset) {
        bytes = ArrayRef<char>(
            info.payloadData.data() + *value->constantOffset,
            *value->constantBytes);
      }
      addConstant(node, bytes, *value->constantBytes,
                  value->namedKey.value_or(""));
    }
    for (uint32_t id : source.outputs) {
      const delegate::DecodedValue *value = values.lookup(id);
      node.outputs.push_back(value ? describeDecoded(*value) : OperandType());
      writers[id] = self;
    }
    computeKeys(node);
  }
}

void Flattener::computeKeys(DiffNode &node) {
  std::string key;
  llvm::raw_string_ostream os(key);
  // The family key leaves the backend out: a kernel call and the payload
  // operator it became are one family.
  os << int(node.kind) << '\0' << node.family;
  node.familyKey = XXH3_64bits(key.data(), key.size());
  os << '\0' << node.backend << '\0' << node.op << '\0' << node.constantHash << '\0' << node.constants;
  for (const auto *operands : {&node.inputs, &node.outputs}) {
    os << '|';
    for (const OperandType &type : *operands) {
      os << type.dtype << '[';
      llvm::interleave(type.shape, os, ",");
      os << ']';
      for (uint8_t dim : type.dimOrder)
        os << unsigned(dim) << ',';
      os << type.quant << ';';
    }
  }
  node.exactKey = XXH3_64bits(key.data(), key.size());
}

std::vector<DiffNode> Flattener::run() {
  graphToDiff.assign(graph.nodes.size(), 0);
  for (uint32_t index = 0; index < graph.nodes.size(); ++index) {
    addGraphNode(index);
    if (graph.nodes[index].delegate)
      addPayloadNodes(graph.nodes[index], graphToDiff[index]);
  }
  // Producers of the method's own nodes, in their operands' order, from
  // the graph's edges; then every key, which the producers are not part of.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> incoming(
      graph.nodes.size());
  for (const graph::Edge &edge : graph.edges)
    incoming[edge.to].push_back({edge.toInput, graphToDiff[edge.from]});
  for (uint32_t index = 0; index < graph.nodes.size(); ++index) {
    llvm::sort(incoming[index]);
    DiffNode &node = nodes[graphToDiff[index]];
    for (auto [input, from] : incoming[index])
      node.producers.push_back(from);
    computeKeys(node);
  }
  return std::move(nodes);
}

std::vector<DiffNode>
graphdiff::flattenMethodGraph(const graph::MethodGraph &graph) {
  return Flattener(graph).run();
}

/// Whether the operands' dtypes, shapes or dim orders differ (`field`
/// reads one of them).
template <typename Field>
static bool operandsDiffer(const DiffNode &a, const DiffNode &b, Field field) {
  for (const auto *lists : {&a.inputs, &a.outputs}) {
    const std::vector<OperandType> &other =
        lists == &a.inputs ? b.inputs : b.outputs;
    for (size_t k = 0; k < std::min(lists->size(), other.size()); ++k)
      if ((*lists)[k].tensor && other[k].tensor &&
          !field((*lists)[k], other[k]))
        return true;
  }
  return false;
}

SmallVector<NodeAspect, 2> graphdiff::compareNodes(const DiffNode &a,
                                                   const DiffNode &b) {
  SmallVector<NodeAspect, 2> aspects;
  bool sameBackend = a.backend == b.backend;
  if (a.family != b.family || a.kind != b.kind)
    aspects.push_back(NodeAspect::Operator);
  else if (sameBackend && a.op != b.op && a.overload == b.overload)
    aspects.push_back(NodeAspect::Operator);
  if (sameBackend && a.overload != b.overload)
    aspects.push_back(NodeAspect::Overload);
  if (!sameBackend && (a.kind != NodeKind::Delegate || b.kind != NodeKind::Delegate))
    aspects.push_back(NodeAspect::Backend);
  if (operandsDiffer(a, b, [](auto &x, auto &y) { return x.dtype == y.dtype; }))
    aspects.push_back(NodeAspect::Dtype);
  if (operandsDiffer(a, b, [](auto &x, auto &y) { return x.shape == y.shape; }))
    aspects.push_back(NodeAspect::Shape);
  if (operandsDiffer(a, b, [](auto &x, auto &y) {
        return x.dimOrder.empty() || y.dimOrder.empty() ||
               x.dimOrder == y.dimOrder;
      }))
    aspects.push_back(NodeAspect::DimOrder);
  if (sameBackend && operandsDiffer(a, b, [](auto &x, auto &y) {
        return x.quant == y.quant;
      }))
    aspects.push_back(NodeAspect::Quantization);
  if (a.constants && b.constants &&
      (a.constantHash != b.constantHash || a.constants != b.constants))
    aspects.push_back(NodeAspect::ConstantBytes);
  auto kinds = [](const std::vector<OperandType> &list) {
    std::string text;
    for (const OperandType &type : list)
      text += (type.tensor ? "tensor" : type.dtype) + ",";
    return text;
  };
  // Across backends operands differ by convention (a kernel's alpha, out
  // arguments): only the same runtime's are compared.
  if (sameBackend && (a.inputs.size() != b.inputs.size() ||
                      a.outputs.size() != b.outputs.size() ||
                      kinds(a.inputs) != kinds(b.inputs) ||
                      kinds(a.outputs) != kinds(b.outputs)))
    aspects.push_back(NodeAspect::Arguments);
  if (a.kind == NodeKind::Delegate && b.kind == NodeKind::Delegate) {
    if (!sameBackend)
      aspects.push_back(NodeAspect::Backend);
    // Compared only here, for calls matched: most payloads are read by no
    // one else, and sizes first.
    if (a.payload != b.payload)
      aspects.push_back(NodeAspect::Payload);
    if (a.specsHash != b.specsHash)
      aspects.push_back(NodeAspect::CompileSpecs);
  }
  return aspects;
}
