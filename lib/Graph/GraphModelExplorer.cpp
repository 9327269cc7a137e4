//===- GraphModelExplorer.cpp - A program's graphs for Model Explorer -----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The graph collection Model Explorer's built-in JSON loader reads (its
// graph_builder.py: a label, graphs of nodes with attributes, incoming
// edges and inputs' and outputs' metadata), a graph per method; and its
// per-node data overlay ({graph: {results: {node: {value}}}}) of each
// node's time in a run.
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::graph;

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

/// A node's attributes: where it is, a delegate's entry, what is wrong.
static std::vector<std::pair<std::string, std::string>>
getNodeAttrs(const Node &node) {
  std::vector<std::pair<std::string, std::string>> attrs = {
      {"kind", getNodeKindName(node.kind).str()}};
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
  }
  if (node.time)
    attrs.push_back({"total_ns", std::to_string(node.time->totalNs)});
  for (const std::string &problem : node.problems)
    attrs.push_back({"problem", problem});
  return attrs;
}

/// The metadata of a node's inputs or outputs: each value's tag and type.
static void printMetadata(llvm::json::OStream &json, StringRef key,
                          ArrayRef<uint32_t> values, const MethodGraph &graph) {
  json.attributeArray(key, [&] {
    for (auto [position, id] : llvm::enumerate(values))
      json.object([&] {
        json.attribute("id", std::to_string(position));
        std::vector<std::pair<std::string, std::string>> attrs = {
            {"__tensor_tag", "%" + std::to_string(id)}};
        const ValueInfo &value = graph.values[id];
        attrs.push_back({"tensor_shape", describeValue(value)});
        if (value.constant)
          attrs.push_back(
              {"constant", getConstantPlaceName(*value.constant).str()});
        printAttrs(json, attrs);
      });
  });
}

static void printGraph(llvm::json::OStream &json, const MethodGraph &graph) {
  // Each node's incoming edges, from the method's edges.
  std::vector<std::vector<const Edge *>> incoming(graph.nodes.size());
  for (const Edge &edge : graph.edges)
    incoming[edge.to].push_back(&edge);
  json.object([&] {
    json.attribute("id", graph.name);
    json.attributeArray("nodes", [&] {
      for (auto [index, node] : llvm::enumerate(graph.nodes))
        json.object([&] {
          json.attribute("id", node.getId());
          json.attribute("label", node.name);
          json.attribute("namespace", "");
          printAttrs(json, getNodeAttrs(node));
          json.attributeArray("incomingEdges", [&] {
            for (const Edge *edge : incoming[index])
              json.object([&] {
                json.attribute("sourceNodeId", graph.nodes[edge->from].getId());
                json.attribute("sourceNodeOutputId",
                               std::to_string(edge->fromOutput));
                json.attribute("targetNodeInputId",
                               std::to_string(edge->toInput));
              });
          });
          printMetadata(json, "inputsMetadata", node.inputs, graph);
          printMetadata(json, "outputsMetadata", node.outputs, graph);
          json.attributeArray("subgraphIds", [] {});
        });
    });
  });
}

void graph::printModelExplorerJSON(const GraphReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("label", report.file);
    json.attributeArray("graphs", [&] {
      for (const MethodGraph &graph : report.methods)
        printGraph(json, graph);
    });
  });
  os << "\n";
}

void graph::printModelExplorerNodeData(const GraphReport &report,
                                       raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    for (const MethodGraph &graph : report.methods)
      json.attributeObject(graph.name, [&] {
        json.attributeObject("results", [&] {
          for (const Node &node : graph.nodes)
            if (node.time)
              json.attributeObject(node.getId(), [&] {
                json.attribute("value", int64_t(node.time->totalNs));
              });
        });
      });
  });
  os << "\n";
}
