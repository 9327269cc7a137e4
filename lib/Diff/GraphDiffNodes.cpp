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

#include "emit/Support/MappedMemory.h"

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
      .Cases("float", "fp32", "float32", "f32", "f32")
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
      .Cases("conv2d", "depthwiseconv2d", "conv", "convolution", "convolution")
      .Cases("multiply", "mul", "mul")
      .Cases("subtract", "sub", "sub")
      .Cases("divide", "div", "div")
      .Cases("staticreshape", "reshape", "view", "view")
      .Cases("statictranspose", "transpose", "permute", "permute")
      .Cases("maxpooling2d", "maxpool2d", "maxpool2dwithindices", "maxpool2d")
      .Cases("avgpooling2d", "avgpool2d", "avgpool2d")
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
    llvm::interleave(
        dimOrder, os, [&](uint8_t dim) { os << unsigned(dim); }, ",");
    os << ')';
  }
  if (!quant.empty())
    os << " " << quant;
  return text;
}

uint32_t DiffTables::addType(OperandType type) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << type.tensor << '|' << type.dtype << '|';
  llvm::interleave(type.shape, os, ",");
  os << '|';
  for (uint8_t dim : type.dimOrder)
    os << unsigned(dim) << ',';
  os << '|' << type.quant;
  auto [it, added] = typeIndices.try_emplace(key, types.size());
  if (added)
    types.push_back(std::move(type));
  return it->second;
}

std::string DiffNode::describe(const DiffTables &tables) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto print = [&](uint32_t type) { os << tables.getType(type).describe(); };
  os << (kind == NodeKind::Delegate ? "delegate " : "") << op << " (";
  llvm::interleave(inputs, os, print, ", ");
  os << ")";
  if (!outputs.empty()) {
    os << " -> ";
    llvm::interleave(outputs, os, print, ", ");
  }
  if (!backend.empty() && kind != NodeKind::Delegate)
    os << " in " << backend;
  return text;
}

namespace {
/// Hashes a byte range once however many nodes read it. A mapped file's
/// bytes are read as forEachChunk reads them (pread, ahead of the next
/// constant): a program's weights never enter the resident set.
class ConstantHashes {
public:
  ConstantHashes() : state(XXH3_createState()) {}
  ~ConstantHashes() { XXH3_freeState(state); }
  ConstantHashes(const ConstantHashes &) = delete;
  ConstantHashes &operator=(const ConstantHashes &) = delete;

  uint64_t get(ArrayRef<char> bytes) {
    auto [it, added] = known.try_emplace({bytes.data(), bytes.size()}, 0);
    if (!added)
      return it->second;
    XXH3_64bits_reset(state);
    forEachChunk(bytes, [&](ArrayRef<char> piece) {
      XXH3_64bits_update(state, piece.data(), piece.size());
    });
    return it->second = XXH3_64bits_digest(state);
  }

private:
  llvm::DenseMap<std::pair<const char *, size_t>, uint64_t> known;
  XXH3_state_t *state;
};

/// Builds the nodes of one method's graph. What repeats is worked out once:
/// each value's type, each operator's family, each dtype's name.
class Flattener {
public:
  Flattener(const graph::MethodGraph &graph, DiffTables &tables)
      : graph(graph), tables(tables),
        valueTypes(graph.values.size(), kUnknown) {}
  std::vector<DiffNode> run();

private:
  static constexpr uint32_t kUnknown = UINT32_MAX;

  void addGraphNode(uint32_t index);
  void addPayloadNodes(const graph::Node &call, uint32_t callNode);
  /// Folds the constants among the payload values at `positions` (what
  /// `node` reads) into `node`.
  void addPayloadConstants(const graph::DelegateInfo &info,
                           ArrayRef<uint32_t> positions, DiffNode &node);
  uint32_t getValueType(uint32_t value);
  uint32_t getDecodedType(const delegate::DecodedValue &value);
  StringRef getDtype(StringRef name);
  StringRef getFamily(StringRef op);
  /// Folds the constant `bytes` (or, unread, its size and key) into `node`.
  void addConstant(DiffNode &node, std::optional<ArrayRef<char>> bytes,
                   uint64_t size, StringRef key);
  void hashDelegate(const graph::DelegateInfo &info, DiffNode &node);
  static void computeKeys(DiffNode &node);

  const graph::MethodGraph &graph;
  DiffTables &tables;
  std::vector<DiffNode> nodes;
  /// Each graph node's diff node; each value's type.
  std::vector<uint32_t> graphToDiff, valueTypes;
  llvm::StringMap<StringRef> dtypes, families;
  ConstantHashes hashes;
};
} // namespace

StringRef Flattener::getDtype(StringRef name) {
  auto [it, added] = dtypes.try_emplace(name);
  if (added)
    it->second = tables.addName(normalizeDtype(name));
  return it->second;
}

StringRef Flattener::getFamily(StringRef op) {
  auto [it, added] = families.try_emplace(op);
  if (added)
    it->second = tables.addName(getOperatorFamily(op));
  return it->second;
}

uint32_t Flattener::getValueType(uint32_t index) {
  if (index >= graph.values.size())
    return tables.addType(OperandType());
  uint32_t &known = valueTypes[index];
  if (known != kUnknown)
    return known;
  const graph::ValueInfo &value = graph.values[index];
  OperandType type;
  if (value.kind != ValueKind::Tensor) {
    type.dtype = getValueKindName(value.kind).str();
    return known = tables.addType(std::move(type));
  }
  type.tensor = true;
  type.dtype =
      getDtype(value.dtype
                   ? et::stringifyScalarType(*value.dtype)
                   : StringRef("scalar_type_" + std::to_string(value.rawDtype)))
          .str();
  type.shape.assign(value.shape.begin(), value.shape.end());
  if (index < graph.details.size())
    type.dimOrder.assign(graph.details[index].dimOrder.begin(),
                         graph.details[index].dimOrder.end());
  return known = tables.addType(std::move(type));
}

uint32_t Flattener::getDecodedType(const delegate::DecodedValue &value) {
  OperandType type;
  type.tensor = true;
  type.dtype = getDtype(value.dtype).str();
  for (uint64_t dim : value.shape)
    type.shape.push_back(int64_t(dim));
  type.quant = value.quant;
  return tables.addType(std::move(type));
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
  node.op = tables.addName(source.name);
  switch (source.kind) {
  case NodeKind::Kernel: {
    node.family = getFamily(source.name);
    StringRef name(source.name);
    size_t dot = name.rfind('.');
    size_t colons = name.rfind("::");
    if (dot != StringRef::npos && (colons == StringRef::npos || dot > colons))
      node.overload = tables.addName(name.drop_front(dot + 1));
    break;
  }
  case NodeKind::Delegate:
    node.family = tables.addName("delegate");
    node.backend = node.op;
    break;
  case NodeKind::Input:
  case NodeKind::Output:
    // Its value's index is no part of what it is: the id says its place.
    node.op = node.family = tables.addName(graph::getNodeKindName(source.kind));
    break;
  default:
    node.family = tables.addName(graph::getNodeKindName(source.kind));
    break;
  }
  for (uint32_t value : source.inputs) {
    node.inputs.push_back(getValueType(value));
    const graph::ValueInfo &info = graph.values[value];
    if (info.constant)
      addConstant(node,
                  value < graph.details.size() ? graph.details[value].data
                                               : std::nullopt,
                  info.bytes.value_or(0), info.name);
  }
  for (uint32_t value : source.outputs)
    node.outputs.push_back(getValueType(value));
  if (source.delegate)
    hashDelegate(*source.delegate, node);
}

void Flattener::addPayloadConstants(const graph::DelegateInfo &info,
                                    ArrayRef<uint32_t> positions,
                                    DiffNode &node) {
  const delegate::DecodedGraph &payload = *info.payload->graph;
  for (uint32_t position : positions) {
    const delegate::DecodedValue &value = payload.values[position];
    if (!value.constantBytes)
      continue;
    std::optional<ArrayRef<char>> bytes;
    if (value.namedKey) {
      auto it = info.keyData.find(*value.namedKey);
      if (it != info.keyData.end())
        bytes = it->second;
    } else if (value.constantOffset &&
               *value.constantOffset <= info.payloadData.size() &&
               *value.constantBytes <=
                   info.payloadData.size() - *value.constantOffset) {
      bytes = ArrayRef<char>(info.payloadData.data() + *value.constantOffset,
                             *value.constantBytes);
    }
    addConstant(node, bytes, *value.constantBytes, value.namedKey.value_or(""));
  }
}

void Flattener::addPayloadNodes(const graph::Node &call, uint32_t callNode) {
  const graph::DelegateInfo &info = *call.delegate;
  if (!info.payload || !info.payload->graph)
    return;
  const delegate::DecodedGraph &payload = *info.payload->graph;
  // Each value's position and type, by its id (the first of an id).
  llvm::DenseMap<uint32_t, std::pair<uint32_t, uint32_t>> values;
  for (auto [position, value] : llvm::enumerate(payload.values))
    if (!values.count(value.id))
      values[value.id] = {uint32_t(position), getDecodedType(value)};
  uint32_t unknown = tables.addType(OperandType());
  // The last node to write each value; the call's inputs are the call's.
  llvm::DenseMap<uint32_t, uint32_t> writers;
  std::string prefix = nodes[callNode].id + "/n";
  SmallVector<uint32_t, 4> read;
  for (auto [position, source] : llvm::enumerate(payload.nodes)) {
    uint32_t self = nodes.size();
    DiffNode &node = nodes.emplace_back();
    node.id = prefix + std::to_string(position);
    node.kind = NodeKind::Kernel;
    node.payloadNode = position;
    node.op = tables.addName(source.op);
    node.family = getFamily(source.op);
    node.backend = nodes[callNode].backend;
    read.clear();
    for (uint32_t id : source.inputs) {
      auto value = values.find(id);
      node.inputs.push_back(value == values.end() ? unknown
                                                  : value->second.second);
      auto writer = writers.find(id);
      if (writer != writers.end())
        node.producers.push_back(writer->second);
      else if (value != values.end() &&
               payload.values[value->second.first].externalInput)
        node.producers.push_back(callNode);
      if (value != values.end())
        read.push_back(value->second.first);
    }
    addPayloadConstants(info, read, node);
    for (uint32_t id : source.outputs) {
      auto value = values.find(id);
      node.outputs.push_back(value == values.end() ? unknown
                                                   : value->second.second);
      writers[id] = self;
    }
    computeKeys(node);
  }
}

void Flattener::computeKeys(DiffNode &node) {
  // Names are held once by the tables both sides share: equal names, equal
  // pointers. The family key leaves the backend out: a kernel call and the
  // payload operator it became are one family.
  SmallVector<uint64_t, 16> key = {uint64_t(node.kind),
                                   uint64_t(uintptr_t(node.family.data()))};
  node.familyKey = XXH3_64bits(key.data(), key.size() * sizeof(uint64_t));
  key.append({uint64_t(uintptr_t(node.backend.data())),
              uint64_t(uintptr_t(node.op.data())), node.constantHash,
              node.constants, node.inputs.size()});
  key.append(node.inputs.begin(), node.inputs.end());
  key.append(node.outputs.begin(), node.outputs.end());
  node.exactKey = XXH3_64bits(key.data(), key.size() * sizeof(uint64_t));
}

std::vector<DiffNode> Flattener::run() {
  graphToDiff.assign(graph.nodes.size(), 0);
  nodes.reserve(graph.nodes.size());
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
graphdiff::flattenMethodGraph(const graph::MethodGraph &graph,
                              DiffTables &tables) {
  return Flattener(graph, tables).run();
}

/// Whether the operands' dtypes, shapes or dim orders differ (`same`
/// compares two tensors' types).
template <typename Same>
static bool operandsDiffer(const DiffNode &a, const DiffNode &b,
                           const DiffTables &tables, Same same) {
  auto differ = [&](ArrayRef<uint32_t> x, ArrayRef<uint32_t> y) {
    for (size_t k = 0; k < std::min(x.size(), y.size()); ++k) {
      const OperandType &s = tables.getType(x[k]), &t = tables.getType(y[k]);
      if (x[k] != y[k] && s.tensor && t.tensor && !same(s, t))
        return true;
    }
    return false;
  };
  return differ(a.inputs, b.inputs) || differ(a.outputs, b.outputs);
}

/// Whether the kinds of the operands differ (a tensor for an int), or
/// their count.
static bool argumentsDiffer(const DiffNode &a, const DiffNode &b,
                            const DiffTables &tables) {
  auto differ = [&](ArrayRef<uint32_t> x, ArrayRef<uint32_t> y) {
    if (x.size() != y.size())
      return true;
    for (auto [s, t] : llvm::zip(x, y)) {
      const OperandType &first = tables.getType(s);
      const OperandType &second = tables.getType(t);
      if (first.tensor != second.tensor ||
          (!first.tensor && first.dtype != second.dtype))
        return true;
    }
    return false;
  };
  return differ(a.inputs, b.inputs) || differ(a.outputs, b.outputs);
}

/// Whether two payloads hold the same bytes: sizes first, then read as
/// equalBytes reads them (pread: a multi-GiB payload never enters the
/// resident set).
static bool samePayload(StringRef a, StringRef b) {
  if (a.size() != b.size())
    return false;
  return a.data() == b.data() || equalBytes(ArrayRef<char>(a.data(), a.size()),
                                            ArrayRef<char>(b.data(), b.size()));
}

SmallVector<NodeAspect, 2> graphdiff::compareNodes(const DiffNode &a,
                                                   const DiffNode &b,
                                                   const DiffTables &tables) {
  SmallVector<NodeAspect, 2> aspects;
  bool sameBackend = a.backend == b.backend;
  bool calls = a.kind == NodeKind::Delegate && b.kind == NodeKind::Delegate;
  if (a.family != b.family || a.kind != b.kind)
    aspects.push_back(NodeAspect::Operator);
  else if (sameBackend && a.op != b.op && a.overload == b.overload)
    aspects.push_back(NodeAspect::Operator);
  if (sameBackend && a.overload != b.overload)
    aspects.push_back(NodeAspect::Overload);
  if (!sameBackend)
    aspects.push_back(NodeAspect::Backend);
  if (operandsDiffer(a, b, tables,
                     [](auto &x, auto &y) { return x.dtype == y.dtype; }))
    aspects.push_back(NodeAspect::Dtype);
  if (operandsDiffer(a, b, tables,
                     [](auto &x, auto &y) { return x.shape == y.shape; }))
    aspects.push_back(NodeAspect::Shape);
  if (operandsDiffer(a, b, tables, [](auto &x, auto &y) {
        return x.dimOrder.empty() || y.dimOrder.empty() ||
               x.dimOrder == y.dimOrder;
      }))
    aspects.push_back(NodeAspect::DimOrder);
  if (sameBackend && operandsDiffer(a, b, tables, [](auto &x, auto &y) {
        return x.quant == y.quant;
      }))
    aspects.push_back(NodeAspect::Quantization);
  if (a.constants && b.constants &&
      (a.constantHash != b.constantHash || a.constants != b.constants))
    aspects.push_back(NodeAspect::ConstantBytes);
  // Across backends operands differ by convention (a kernel's alpha, out
  // arguments): only the same runtime's are compared.
  if (sameBackend && argumentsDiffer(a, b, tables))
    aspects.push_back(NodeAspect::Arguments);
  if (calls) {
    // Compared only here, for calls matched: most payloads are read by no
    // one else, and sizes first.
    if (!samePayload(a.payload, b.payload))
      aspects.push_back(NodeAspect::Payload);
    if (a.specsHash != b.specsHash)
      aspects.push_back(NodeAspect::CompileSpecs);
  }
  return aspects;
}
