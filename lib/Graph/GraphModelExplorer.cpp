//===- GraphModelExplorer.cpp - A program's graphs for Model Explorer -----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The graph collection Model Explorer's built-in JSON loader reads (its
// graph_builder.py: a label, graphs of nodes with attributes, incoming
// edges and inputs' and outputs' metadata), a graph per method; and its
// per-node data overlay ({graph: {results: {node: {value}}, gradient}})
// of each node's time in a run, coloured from short to long. A delegate node
// whose payload emit decodes names that payload's graph among its subgraphIds:
// one graph per stored payload (entries that share one share it), its nodes the
// backend's operators, each with its time over every call that runs it where
// the calls' own events are joined to it.
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::graph;

using Attrs = std::vector<std::pair<std::string, std::string>>;

static void printAttrs(llvm::json::OStream &json,
                       ArrayRef<std::pair<std::string, std::string>> attrs) {
  json.attributeArray("attrs", [&] {
    for (const auto &[key, value] : attrs)
      json.object([&] {
        json.attribute("key", key);
        json.attribute("value", value);
      });
  });
}

/// Decoded fields as Model Explorer shows them: as text.
static Attrs getTexts(ArrayRef<delegate::Field> fields) {
  Attrs attrs;
  for (const delegate::Field &field : fields)
    attrs.push_back({field.name, field.getText().str()});
  return attrs;
}

/// Model Explorer keeps one value per key (the last): a key that comes
/// several times becomes key.1, key.2, ... so that every value shows.
static void numberRepeatedKeys(Attrs &attrs) {
  llvm::StringMap<unsigned> uses, seen;
  for (const auto &attr : attrs)
    ++uses[attr.first];
  for (auto &[key, value] : attrs)
    if (uses[key] > 1)
      key += "." + std::to_string(++seen[key]);
}

/// A node's attributes: where it is, a delegate's entry, what is wrong.
static Attrs getNodeAttrs(const Node &node) {
  Attrs attrs = {{"kind", getNodeKindName(node.kind).str()}};
  if (node.chain >= 0)
    attrs.push_back({"instruction", std::to_string(node.chain) + ":" +
                                        std::to_string(node.instruction)});
  if (const auto &delegate = node.delegate) {
    attrs.push_back({"backend", delegate->backend});
    attrs.push_back({"delegate_index", std::to_string(delegate->index)});
    attrs.push_back({"payload_bytes", std::to_string(delegate->payloadBytes)});
    attrs.push_back({"storage", delegate->storage + " " +
                                    std::to_string(delegate->dataIndex)});
    if (!delegate->magic.empty())
      attrs.push_back({"magic", delegate->magic});
    for (const CompileSpecInfo &spec : delegate->compileSpecs)
      attrs.push_back({"compile_spec." + spec.key, spec.describe()});
    for (const NamedPartInfo &part : delegate->namedParts)
      attrs.push_back(
          {"named_part." + part.part.name, describeNamedPart(part)});
  }
  if (node.time)
    attrs.push_back({"total_ns", std::to_string(node.time->totalNs)});
  for (const std::string &problem : node.problems)
    attrs.push_back({"problem", problem});
  numberRepeatedKeys(attrs);
  return attrs;
}

namespace {
/// An edge into a node: the node and output it comes from, the input it
/// feeds.
struct IncomingEdge {
  std::string source;
  size_t sourceOutput;
  size_t targetInput;
};

/// What Model Explorer shows of one node, in either kind of graph.
struct NodeFields {
  StringRef id;
  StringRef label;
  ArrayRef<std::pair<std::string, std::string>> attrs;
  ArrayRef<IncomingEdge> incoming;
  ArrayRef<uint32_t> inputs;
  ArrayRef<uint32_t> outputs;
  StringRef subgraph;
};

/// Adds what the graph knows of value `id` to its operand's metadata.
using DescribeValue = llvm::function_ref<void(uint32_t id, Attrs &attrs)>;
} // namespace

/// The metadata of a node's inputs or outputs: each value's tag, and what
/// its graph says of it.
static void printMetadata(llvm::json::OStream &json, StringRef key,
                          ArrayRef<uint32_t> values, DescribeValue describe) {
  json.attributeArray(key, [&] {
    for (auto [position, id] : llvm::enumerate(values))
      json.object([&] {
        json.attribute("id", std::to_string(position));
        Attrs attrs = {{"__tensor_tag", "%" + std::to_string(id)}};
        describe(id, attrs);
        printAttrs(json, attrs);
      });
  });
}

static void printNode(llvm::json::OStream &json, const NodeFields &node,
                      DescribeValue describe) {
  json.object([&] {
    json.attribute("id", node.id);
    json.attribute("label", node.label);
    json.attribute("namespace", "");
    printAttrs(json, node.attrs);
    json.attributeArray("incomingEdges", [&] {
      for (const IncomingEdge &edge : node.incoming)
        json.object([&] {
          json.attribute("sourceNodeId", edge.source);
          json.attribute("sourceNodeOutputId",
                         std::to_string(edge.sourceOutput));
          json.attribute("targetNodeInputId", std::to_string(edge.targetInput));
        });
    });
    printMetadata(json, "inputsMetadata", node.inputs, describe);
    printMetadata(json, "outputsMetadata", node.outputs, describe);
    json.attributeArray("subgraphIds", [&] {
      if (!node.subgraph.empty())
        json.value(node.subgraph);
    });
  });
}

namespace {
/// The decoded payload graphs the delegate nodes open into, each named once:
/// `<method>/<node>` of its first user.
class PayloadSubgraphs {
public:
  /// The subgraph of `node`'s payload, named when first seen; empty when
  /// the node has none.
  StringRef getId(const MethodGraph &graph, const Node &node) {
    std::optional<size_t> index = getIndex(graph, node);
    return index ? StringRef(subgraphs[*index].first) : StringRef();
  }
  /// The subgraph's place among getSubgraphs().
  std::optional<size_t> getIndex(const MethodGraph &graph, const Node &node) {
    if (!node.delegate || !node.delegate->payload ||
        !node.delegate->payload->graph)
      return std::nullopt;
    const delegate::DecodedPayload *payload = node.delegate->payload.get();
    auto [it, added] = ids.try_emplace(payload, subgraphs.size());
    if (added)
      subgraphs.push_back(
          {graph.name + "/" + node.getId() + " " + payload->decoder, payload});
    return it->second;
  }
  ArrayRef<std::pair<std::string, const delegate::DecodedPayload *>>
  getSubgraphs() const {
    return subgraphs;
  }

private:
  llvm::DenseMap<const delegate::DecodedPayload *, size_t> ids;
  std::vector<std::pair<std::string, const delegate::DecodedPayload *>>
      subgraphs;
};
} // namespace

static void printGraph(llvm::json::OStream &json, const MethodGraph &graph,
                       PayloadSubgraphs &subgraphs) {
  // Each node's incoming edges, from the method's edges.
  std::vector<std::vector<IncomingEdge>> incoming(graph.nodes.size());
  for (const Edge &edge : graph.edges)
    incoming[edge.to].push_back(
        {graph.nodes[edge.from].getId(), edge.fromOutput, edge.toInput});
  auto describe = [&](uint32_t id, Attrs &attrs) {
    const ValueInfo &value = graph.values[id];
    attrs.push_back({"tensor_shape", describeValue(value)});
    if (value.constant)
      attrs.push_back(
          {"constant", getConstantPlaceName(*value.constant).str()});
  };
  json.object([&] {
    json.attribute("id", graph.name);
    json.attributeArray("nodes", [&] {
      for (auto [index, node] : llvm::enumerate(graph.nodes)) {
        std::string id = node.getId();
        Attrs attrs = getNodeAttrs(node);
        printNode(json,
                  {id, node.name, attrs, incoming[index], node.inputs,
                   node.outputs, subgraphs.getId(graph, node)},
                  describe);
      }
    });
  });
}

/// A payload's own graph: its operators, each fed by the operator that last
/// wrote its operand, or by an input node for the delegate call's inputs;
/// an output node for each of the call's outputs.
static void printPayloadGraph(llvm::json::OStream &json, StringRef id,
                              const delegate::DecodedGraph &graph) {
  llvm::DenseMap<uint32_t, const delegate::DecodedValue *> values;
  for (const delegate::DecodedValue &value : graph.values)
    values[value.id] = &value;
  auto describe = [&](uint32_t id, Attrs &attrs) {
    const delegate::DecodedValue *value = values.lookup(id);
    if (!value) {
      attrs.push_back({"tensor_shape", "no such value"});
      return;
    }
    attrs.push_back({"tensor_shape", describeDecoded(*value)});
    if (value->constantBytes)
      attrs.push_back(
          {"constant_bytes", std::to_string(*value->constantBytes)});
    if (value->namedKey)
      attrs.push_back({"named_key", *value->namedKey});
  };
  // The writer of each value so far: a node id and its output's position.
  llvm::DenseMap<uint32_t, std::pair<std::string, size_t>> writers;
  auto print = [&](const std::string &nodeId, StringRef label,
                   ArrayRef<std::pair<std::string, std::string>> attrs,
                   ArrayRef<uint32_t> inputs, ArrayRef<uint32_t> outputs) {
    std::vector<IncomingEdge> incoming;
    for (auto [position, value] : llvm::enumerate(inputs)) {
      auto it = writers.find(value);
      if (it != writers.end())
        incoming.push_back({it->second.first, it->second.second, position});
    }
    printNode(json, {nodeId, label, attrs, incoming, inputs, outputs, ""},
              describe);
    for (auto [position, value] : llvm::enumerate(outputs))
      writers[value] = {nodeId, position};
  };
  json.object([&] {
    json.attribute("id", id);
    // Ids by position: a hostile payload may repeat its own ids.
    json.attributeArray("nodes", [&] {
      for (auto [index, value] : llvm::enumerate(graph.values))
        if (value.externalInput)
          print("input" + std::to_string(index),
                "input " + std::to_string(*value.externalInput), {}, {},
                {value.id});
      for (auto [index, node] : llvm::enumerate(graph.nodes))
        print("n" + std::to_string(index), node.op, getTexts(node.attrs),
              node.inputs, node.outputs);
      for (auto [index, value] : llvm::enumerate(graph.values))
        if (value.externalOutput)
          print("output" + std::to_string(index),
                "output " + std::to_string(*value.externalOutput), {},
                {value.id}, {});
    });
  });
}

void graph::printModelExplorerJSON(const GraphReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("label", report.file);
    json.attributeArray("graphs", [&] {
      PayloadSubgraphs subgraphs;
      for (const MethodGraph &graph : report.methods)
        printGraph(json, graph, subgraphs);
      for (const auto &[id, payload] : subgraphs.getSubgraphs())
        printPayloadGraph(json, id, *payload->graph);
    });
  });
  os << "\n";
}

/// `{"results": {node: {"value": ns}}}` for the nodes with a time.
/// A graph's times and the colour scale Model Explorer paints them with
/// (without one it shows the numbers on grey nodes): green for the
/// shortest, through yellow, to red for the longest.
static void printResults(llvm::json::OStream &json,
                         ArrayRef<std::pair<std::string, uint64_t>> times) {
  json.attributeObject("results", [&] {
    for (const auto &[node, ns] : times)
      json.attributeObject(node, [&] { json.attribute("value", int64_t(ns)); });
  });
  static constexpr std::pair<double, const char *> stops[] = {
      {0, "#2e7d32"}, {0.5, "#f9a825"}, {1, "#c62828"}};
  json.attributeArray("gradient", [&] {
    for (auto [stop, colour] : stops)
      json.object([&] {
        json.attribute("stop", stop);
        json.attribute("bgColor", colour);
      });
  });
}

void graph::printModelExplorerNodeData(const GraphReport &report,
                                       raw_ostream &os) {
  // Each payload graph's nodes' time over every call that runs it, from
  // the calls' own events, named as printModelExplorerJSON names them.
  PayloadSubgraphs subgraphs;
  std::vector<std::vector<uint64_t>> payloadTimes;
  llvm::json::OStream json(os, 2);
  json.object([&] {
    for (const MethodGraph &graph : report.methods) {
      std::vector<std::pair<std::string, uint64_t>> times;
      for (const Node &node : graph.nodes) {
        if (node.time)
          times.push_back({node.getId(), node.time->totalNs});
        std::optional<size_t> index = subgraphs.getIndex(graph, node);
        if (!index)
          continue;
        size_t nodes = node.delegate->payload->graph->nodes.size();
        payloadTimes.resize(subgraphs.getSubgraphs().size());
        payloadTimes[*index].resize(nodes);
        for (auto [k, time] :
             llvm::enumerate(sumPayloadNodeTimes(*node.delegate, nodes)))
          payloadTimes[*index][k] += time ? time->totalNs : 0;
      }
      json.attributeObject(graph.name, [&] { printResults(json, times); });
    }
    for (auto [index, subgraph] : llvm::enumerate(subgraphs.getSubgraphs())) {
      std::vector<std::pair<std::string, uint64_t>> times;
      for (auto [k, ns] : llvm::enumerate(payloadTimes[index]))
        if (ns)
          times.push_back({"n" + std::to_string(k), ns});
      json.attributeObject(subgraph.first, [&] { printResults(json, times); });
    }
  });
  os << "\n";
}
