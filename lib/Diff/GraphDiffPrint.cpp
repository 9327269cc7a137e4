//===- GraphDiffPrint.cpp - emit-diff --graph as text and JSON ------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/GraphDiff.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
using namespace emit::graphdiff;

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

/// "3 operators moved into XnnpackBackend, 1 fell back out of it".
static void printMoves(const MethodGraphDiff &diff, raw_ostream &os) {
  for (const BackendMoves &moves : diff.moves) {
    os << "  moved: ";
    if (moves.into)
      os << moves.into << (moves.into == 1 ? " operator" : " operators")
         << " into " << moves.backend;
    if (moves.into && moves.outOf)
      os << ", ";
    if (moves.outOf)
      os << moves.outOf << " fell back out of " << moves.backend;
    os << "\n";
  }
}

static std::string describeAspects(ArrayRef<NodeAspect> aspects) {
  std::string text;
  for (NodeAspect aspect : aspects)
    text += (text.empty() ? "" : ", ") + getNodeAspectName(aspect).str();
  return text;
}

/// The counts of both tables of one kind (by backend, by operator), each
/// name whose count changed.
static void printCountChanges(StringRef title, const graph::NameCounts &a,
                              const graph::NameCounts &b, raw_ostream &os) {
  llvm::StringMap<std::pair<unsigned, unsigned>> counts;
  std::vector<std::string> order;
  for (const auto &[name, count] : a) {
    if (!counts.count(name))
      order.push_back(name);
    counts[name].first = count;
  }
  for (const auto &[name, count] : b) {
    if (!counts.count(name))
      order.push_back(name);
    counts[name].second = count;
  }
  for (const std::string &name : order) {
    auto [before, after] = counts[name];
    if (before != after)
      os << "    " << title << " " << name << ": " << before << " -> " << after
         << "\n";
  }
}

static void printFallback(const MethodGraphDiff &diff, raw_ostream &os) {
  const graph::Fallback &a = diff.oldFallback, &b = diff.newFallback;
  os << "  fallback: kernel calls " << a.kernelCalls << " -> " << b.kernelCalls
     << ", delegate calls " << a.delegateCalls << " -> " << b.delegateCalls
     << "\n";
  printCountChanges("calls to", a.byBackend, b.byBackend, os);
  printCountChanges("kernel calls of", a.byOperator, b.byOperator, os);
  // What each backend runs, on either side.
  std::vector<std::string> backends;
  for (const auto *fallback : {&a, &b})
    for (const graph::DelegatedOperators &delegated : fallback->delegated)
      if (!llvm::is_contained(backends, delegated.backend))
        backends.push_back(delegated.backend);
  auto find = [](const graph::Fallback &fallback, StringRef backend) {
    for (const graph::DelegatedOperators &delegated : fallback.delegated)
      if (delegated.backend == backend)
        return delegated.operators;
    return graph::NameCounts();
  };
  for (const std::string &backend : backends)
    printCountChanges(backend + " runs", find(a, backend), find(b, backend),
                      os);
}

static void printMethod(const MethodGraphDiff &diff, raw_ostream &os) {
  os << "method " << diff.newName;
  if (diff.oldName != diff.newName)
    os << " (was " << diff.oldName << ")";
  os << ": " << diff.added.size() << " added, " << diff.removed.size()
     << " removed, " << diff.changed.size() << " changed, "
     << diff.getUnchangedCount() << " unchanged\n";
  printMoves(diff, os);
  for (uint32_t j : diff.added)
    os << "  + " << diff.newNodes[j].id << " "
       << diff.newNodes[j].describe(*diff.tables) << "\n";
  for (uint32_t i : diff.removed)
    os << "  - " << diff.oldNodes[i].id << " "
       << diff.oldNodes[i].describe(*diff.tables) << "\n";
  for (const NodeChange &change : diff.changed) {
    const DiffNode &a = diff.oldNodes[change.oldNode];
    const DiffNode &b = diff.newNodes[change.newNode];
    os << "  ~ " << a.id << " -> " << b.id << ": "
       << describeAspects(change.aspects)
       << "\n      old: " << a.describe(*diff.tables)
       << "\n      new: " << b.describe(*diff.tables) << "\n";
  }
  printFallback(diff, os);
}

void graphdiff::printGraphDiffText(const GraphDiffReport &report,
                                   raw_ostream &os) {
  os << "graph diff: " << report.oldFile << " -> " << report.newFile << "\n";
  for (const MethodGraphDiff &method : report.methods)
    printMethod(method, os);
  for (const std::string &name : report.removedMethods)
    os << "method " << name << ": only in the old program\n";
  for (const std::string &name : report.addedMethods)
    os << "method " << name << ": only in the new program\n";
  if (report.isUnchanged())
    os << "every graph unchanged\n";
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static void printOperands(llvm::json::OStream &json, StringRef key,
                          ArrayRef<uint32_t> operands,
                          const DiffTables &tables) {
  json.attributeArray(key, [&] {
    for (uint32_t operand : operands)
      json.object([&] {
        const OperandType &type = tables.getType(operand);
        json.attribute("tensor", type.tensor);
        json.attribute("dtype", type.dtype);
        if (!type.tensor)
          return;
        json.attributeArray("shape", [&] {
          for (int64_t dim : type.shape)
            json.value(dim);
        });
        json.attributeArray("dim_order", [&] {
          for (uint8_t dim : type.dimOrder)
            json.value(int64_t(dim));
        });
        if (type.quant.empty())
          json.attribute("quantization", nullptr);
        else
          json.attribute("quantization", type.quant);
      });
  });
}

static void printNode(llvm::json::OStream &json, const DiffNode &node,
                      const DiffTables &tables) {
  json.object([&] {
    json.attribute("id", node.id);
    json.attribute("op", node.op);
    json.attribute("family", node.family);
    if (node.backend.empty())
      json.attribute("backend", nullptr);
    else
      json.attribute("backend", node.backend);
    printOperands(json, "inputs", node.inputs, tables);
    printOperands(json, "outputs", node.outputs, tables);
  });
}

static void printCounts(llvm::json::OStream &json, StringRef key,
                        const graph::NameCounts &counts) {
  json.attributeArray(key, [&] {
    for (const auto &[name, count] : counts)
      json.object([&] {
        json.attribute("name", name);
        json.attribute("count", count);
      });
  });
}

static void printFallbackJSON(llvm::json::OStream &json, StringRef key,
                              const graph::Fallback &fallback) {
  json.attributeObject(key, [&] {
    json.attribute("kernel_calls", fallback.kernelCalls);
    json.attribute("delegate_calls", fallback.delegateCalls);
    printCounts(json, "by_backend", fallback.byBackend);
    printCounts(json, "by_operator", fallback.byOperator);
  });
}

static void printMethodJSON(llvm::json::OStream &json,
                            const MethodGraphDiff &diff) {
  json.object([&] {
    json.attribute("old_name", diff.oldName);
    json.attribute("new_name", diff.newName);
    json.attributeObject("counts", [&] {
      json.attribute("added", int64_t(diff.added.size()));
      json.attribute("removed", int64_t(diff.removed.size()));
      json.attribute("changed", int64_t(diff.changed.size()));
      json.attribute("unchanged", int64_t(diff.getUnchangedCount()));
    });
    json.attributeArray("moves", [&] {
      for (const BackendMoves &moves : diff.moves)
        json.object([&] {
          json.attribute("backend", moves.backend);
          json.attribute("into", moves.into);
          json.attribute("out_of", moves.outOf);
        });
    });
    json.attributeArray("added", [&] {
      for (uint32_t j : diff.added)
        printNode(json, diff.newNodes[j], *diff.tables);
    });
    json.attributeArray("removed", [&] {
      for (uint32_t i : diff.removed)
        printNode(json, diff.oldNodes[i], *diff.tables);
    });
    json.attributeArray("changed", [&] {
      for (const NodeChange &change : diff.changed)
        json.object([&] {
          json.attributeArray("what", [&] {
            for (NodeAspect aspect : change.aspects)
              json.value(getNodeAspectName(aspect));
          });
          json.attributeBegin("old");
          printNode(json, diff.oldNodes[change.oldNode], *diff.tables);
          json.attributeEnd();
          json.attributeBegin("new");
          printNode(json, diff.newNodes[change.newNode], *diff.tables);
          json.attributeEnd();
        });
    });
    json.attributeArray("matching", [&] {
      for (auto [i, j] : diff.matching)
        json.array([&] {
          json.value(diff.oldNodes[i].id);
          json.value(diff.newNodes[j].id);
        });
    });
    json.attributeObject("fallback", [&] {
      printFallbackJSON(json, "old", diff.oldFallback);
      printFallbackJSON(json, "new", diff.newFallback);
    });
  });
}

void graphdiff::printGraphDiffJSON(const GraphDiffReport &report,
                                   raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("schema", "emit-graph-diff-1");
    json.attribute("old_file", report.oldFile);
    json.attribute("new_file", report.newFile);
    json.attribute("unchanged", report.isUnchanged());
    json.attributeArray("methods", [&] {
      for (const MethodGraphDiff &method : report.methods)
        printMethodJSON(json, method);
    });
    json.attributeArray("removed_methods", [&] {
      for (const std::string &name : report.removedMethods)
        json.value(name);
    });
    json.attributeArray("added_methods", [&] {
      for (const std::string &name : report.addedMethods)
        json.value(name);
    });
  });
  os << "\n";
}

//===----------------------------------------------------------------------===//
// Model Explorer
//===----------------------------------------------------------------------===//

void graphdiff::printModelExplorerMapping(const GraphDiffReport &report,
                                          size_t method, raw_ostream &os) {
  // Model Explorer's split view: the left pane's node ids to the right's,
  // for the method's own graph (a payload's operators are nodes of their
  // own graphs there, whose ids repeat across payloads).
  const MethodGraphDiff &diff = report.methods[method];
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attributeObject("mapping", [&] {
      for (auto [i, j] : diff.matching)
        if (!diff.oldNodes[i].payloadNode && !diff.newNodes[j].payloadNode)
          json.attribute(diff.oldNodes[i].id, diff.newNodes[j].id);
    });
    json.attribute("disableMappingFallback", true);
  });
  os << "\n";
}
