//===- GraphText.cpp - A program's graphs as text for people --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-graph's default format: per method what fell back to the portable
// runtime and what each backend runs, then its nodes in order, a line
// each: the instruction, what it is, the values it reads and writes, its
// time in a run, and what is wrong with it on the lines below.
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

#include "llvm/ADT/StringExtras.h"

using namespace emit;
using namespace emit::graph;

/// `name 3, other 1`, the most first as the report counts them.
static void printCounts(const NameCounts &counts, raw_ostream &os) {
  llvm::interleaveComma(counts, os, [&](const auto &count) {
    os << count.first << " " << count.second;
  });
}

static void printFallback(const Fallback &fallback, raw_ostream &os) {
  os << "  kernel calls (not delegated): " << fallback.kernelCalls;
  if (!fallback.byOperator.empty()) {
    os << ": ";
    printCounts(fallback.byOperator, os);
  }
  os << "\n  delegate calls: " << fallback.delegateCalls;
  if (!fallback.byBackend.empty()) {
    os << ": ";
    printCounts(fallback.byBackend, os);
  }
  os << "\n";
  for (const DelegatedOperators &delegated : fallback.delegated) {
    os << "  " << delegated.backend << " runs "
       << counted(delegated.calls, "call");
    if (delegated.opaqueCalls)
      os << " (" << delegated.opaqueCalls << " whose payload emit cannot read)";
    if (!delegated.operators.empty()) {
      os << ": ";
      printCounts(delegated.operators, os);
    }
    os << "\n";
  }
}

static void printValues(ArrayRef<uint32_t> values, raw_ostream &os) {
  os << "(";
  llvm::interleaveComma(values, os, [&](uint32_t value) { os << "%" << value; });
  os << ")";
}

static void printNode(const Node &node, raw_ostream &os) {
  os << "    " << node.getId();
  if (node.chain >= 0)
    os << " " << node.chain << ":" << node.instruction;
  os << " " << getNodeKindName(node.kind) << " " << node.name;
  if (node.delegate)
    os << " #" << node.delegate->index << " "
       << counted(node.delegate->payloadBytes, "B", "B", true);
  os << " ";
  printValues(node.inputs, os);
  os << " -> ";
  printValues(node.outputs, os);
  if (node.time)
    os << ": " << node.time->totalNs << " ns in "
       << counted(node.time->count, "run") << " (median "
       << node.time->p50Ns << " ns)";
  os << "\n";
  for (const std::string &problem : node.problems)
    os << "      problem: " << problem << "\n";
}

static void printMethod(const MethodGraph &graph, raw_ostream &os) {
  os << "method '" << graph.name << "': " << counted(graph.nodes.size(), "node")
     << ", " << counted(graph.values.size(), "value") << ", "
     << counted(graph.edges.size(), "edge") << "\n";
  printFallback(graph.fallback, os);
  for (const std::string &problem : graph.problems)
    os << "  problem: " << problem << "\n";
  os << "  nodes:\n";
  for (const Node &node : graph.nodes)
    printNode(node, os);
}

void graph::printGraphText(const GraphReport &report, raw_ostream &os) {
  os << report.file << ": " << counted(report.methods.size(), "method")
     << "\n";
  for (const std::string &problem : report.problems)
    os << "problem: " << problem << "\n";
  for (const MethodGraph &graph : report.methods)
    printMethod(graph, os);
}
