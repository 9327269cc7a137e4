//===- GraphDOT.cpp - A program's graphs for Graphviz ---------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One digraph, a cluster per method, a node per graph node, an edge per
// value from the node that writes it to each that reads it, labelled with
// the value and its type. For small programs: Graphviz lays out thousands
// of nodes slowly.
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

using namespace emit;
using namespace emit::graph;

/// `text` as a DOT string's contents.
static std::string escapeDOT(StringRef text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\')
      escaped += '\\';
    escaped += c == '\n' ? ' ' : c;
  }
  return escaped;
}

static StringRef getShape(NodeKind kind) {
  switch (kind) {
  case NodeKind::Delegate:
    return "box3d";
  case NodeKind::Input:
  case NodeKind::Output:
    return "ellipse";
  case NodeKind::Kernel:
    return "box";
  default:
    return "diamond";
  }
}

static void printMethodDOT(const MethodGraph &graph, unsigned index,
                           raw_ostream &os) {
  std::string prefix = "m" + std::to_string(index) + "_";
  os << "  subgraph cluster_" << index << " {\n    label=\""
     << escapeDOT(graph.name) << "\";\n";
  for (const Node &node : graph.nodes) {
    std::string label = node.name;
    if (node.delegate)
      label += "\\n" + std::to_string(node.delegate->payloadBytes) + " B";
    os << "    " << prefix << node.getId() << " [label=\"" << escapeDOT(label)
       << "\", shape=" << getShape(node.kind)
       << (node.problems.empty() ? "" : ", color=red") << "];\n";
  }
  for (const Edge &edge : graph.edges)
    os << "    " << prefix << graph.nodes[edge.from].getId() << " -> " << prefix
       << graph.nodes[edge.to].getId() << " [label=\"%" << edge.value << " "
       << escapeDOT(describeValue(graph.values[edge.value])) << "\"];\n";
  os << "  }\n";
}

void graph::printGraphDOT(const GraphReport &report, raw_ostream &os) {
  os << "digraph \"" << escapeDOT(report.file) << "\" {\n"
     << "  node [fontname=\"Helvetica\", fontsize=10];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
  for (auto [index, graph] : llvm::enumerate(report.methods))
    printMethodDOT(graph, index, os);
  os << "}\n";
}
