//===- GraphDiff.h - What changed in two exports' graphs --------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-diff --graph as a library: two programs' methods drawn as graphs
// (emit-graph's, GraphReport.h) and matched node by node, the operators
// inside the delegate payloads emit decodes included. Each method's nodes
// are put in one execution order, a delegate call followed by its
// payload's operators, and aligned: first on everything a node is (where
// it runs, operator and overload, its operands' dtypes, shapes, dim orders
// and quantization, its constants' bytes by hash), then, between those
// anchors, on the operator alone (a node whose type, constants or backend
// changed), then by its neighbours (a node whose producers are matched to
// each other: a replaced operator). An inserted node is one more node, not
// a shift of every match after it. A kernel call matched to an operator
// in a delegate payload, or the reverse, is a move between the CPU and
// that backend.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIFF_GRAPHDIFF_H
#define EMIT_DIFF_GRAPHDIFF_H

#include "emit/Diff/Diff.h"
#include "emit/Graph/GraphReport.h"
#include "emit/Support/Report.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace emit {
class PayloadFiles;

namespace graphdiff {

/// What about a matched node changed.
enum class NodeAspect : uint8_t {
  Operator,
  Overload,
  Backend,
  Dtype,
  Shape,
  DimOrder,
  Quantization,
  ConstantBytes,
  /// Its operands that are no tensors (their kinds, their count).
  Arguments,
  /// A delegate call's payload bytes and compile specs.
  Payload,
  CompileSpecs,
};

/// `operator`, `overload`, `backend`, `dtype`, `shape`, `dim_order`,
/// `quantization`, `constant_bytes`, `arguments`, `payload`,
/// `compile_specs`.
StringRef getNodeAspectName(NodeAspect aspect);

/// An operand's type as the diff compares it.
struct OperandType {
  /// `f32`, `f16`, `i8`, ... as both the program and the payloads name
  /// them; a value that is no tensor has its kind (`int`, `int_list`) here.
  std::string dtype;
  SmallVector<int64_t, 4> shape;
  SmallVector<uint8_t, 4> dimOrder;
  std::string quant;
  bool tensor = false;

  /// `f32[1,16]`, with a dim order that is not contiguous and the
  /// quantization after it.
  std::string describe() const;
};

/// What the nodes of both sides of a method pair name: operand types and
/// names, each held once (a method has 100,000s of nodes, of a few types).
/// A type's index is the same on both sides: equal types, equal indices.
class DiffTables {
public:
  /// The index of `type`, added when new.
  uint32_t addType(OperandType type);
  const OperandType &getType(uint32_t index) const { return types[index]; }
  /// `name`, held here.
  StringRef addName(StringRef name) {
    return names.insert(name).first->getKey();
  }

private:
  std::vector<OperandType> types;
  llvm::StringMap<uint32_t> typeIndices;
  llvm::StringSet<> names;
};

/// A node of a method as the diff sees it: an instruction, the method's
/// input or output, or an operator of a delegate call's payload.
struct DiffNode {
  /// `i3`, `input0`, `output1` (emit-graph's), or `i3/n5` for node 5 of the
  /// payload of the call at instruction 3.
  std::string id;
  /// The operator as the file names it (`aten::add.out`, `XNNAdd`), the
  /// call's backend for a delegate call, `input` or `output`.
  StringRef op;
  /// What it computes, named alike on the CPU and in each backend (`add`,
  /// `linear`, `convolution`), and the overload (`out`).
  StringRef family;
  StringRef overload;
  /// Where it runs: empty on the CPU, else the backend's id.
  StringRef backend;
  graph::NodeKind kind = graph::NodeKind::Unknown;
  /// For a payload's operator, its place in the payload's nodes.
  std::optional<uint32_t> payloadNode;
  /// Its operands' types (DiffTables indices).
  SmallVector<uint32_t, 4> inputs;
  SmallVector<uint32_t, 1> outputs;
  /// Its constant operands' bytes, hashed together; how many it has.
  uint64_t constantHash = 0;
  unsigned constants = 0;
  /// A delegate call's payload bytes (a view of the mapped file), and its
  /// compile specs hashed.
  StringRef payload;
  uint64_t specsHash = 0;
  /// The diff nodes that write what it reads, in its operands' order.
  SmallVector<uint32_t, 3> producers;
  /// Everything the first alignment compares, and the operator alone.
  uint64_t exactKey = 0, familyKey = 0;

  /// Its operator and operands for a reader: `aten::add.out (f32[1,16],
  /// f32[1,16]) -> f32[1,16]`, with its backend.
  std::string describe(const DiffTables &tables) const;
};

/// A matched pair that differs, and how.
struct NodeChange {
  uint32_t oldNode = 0, newNode = 0;
  SmallVector<NodeAspect, 2> aspects;
};

/// Operators that moved between the CPU and one backend.
struct BackendMoves {
  std::string backend;
  /// Kernel calls now in its payloads; its operators now kernel calls.
  unsigned into = 0, outOf = 0;
};

/// One method pair's graphs, matched.
struct MethodGraphDiff {
  std::string oldName, newName;
  /// What both sides' nodes name.
  std::shared_ptr<DiffTables> tables;
  std::vector<DiffNode> oldNodes, newNodes;
  /// Positions in newNodes, oldNodes.
  std::vector<uint32_t> added, removed;
  std::vector<NodeChange> changed;
  /// Every matched pair, changed or not, in the old graph's order.
  std::vector<std::pair<uint32_t, uint32_t>> matching;
  std::vector<BackendMoves> moves;
  /// Both sides' fallback tables (emit-graph's).
  graph::Fallback oldFallback, newFallback;

  unsigned getUnchangedCount() const {
    return matching.size() - changed.size();
  }
  bool isUnchanged() const {
    return added.empty() && removed.empty() && changed.empty();
  }
};

/// Two programs' graphs, matched.
struct GraphDiffReport : Report {
  std::string oldFile, newFile;
  std::vector<MethodGraphDiff> methods;
  /// Methods of one side that no method of the other is paired with.
  std::vector<std::string> addedMethods, removedMethods;
  /// Both sides' graphs, for the page and Model Explorer's files.
  std::shared_ptr<const graph::GraphReport> oldGraph, newGraph;

  /// Every method paired, and every pair unchanged.
  bool isUnchanged() const;
  /// Text, JSON (emit-graph-diff-1) or an HTML page of both graphs side
  /// by side.
  void print(ReportFormat format, raw_ostream &os) const override;
};

struct GraphDiffOptions {
  /// Method pairs the user named (old, new); the others pair by name, and a
  /// method left on each side pairs with the one whose graph it mostly
  /// matches (a renamed method).
  std::vector<std::pair<std::string, std::string>> methods;
};

/// `old=new`, a method pair as --method names it; fails, with why in
/// `error`, when it is not two names around one `=`.
FailureOr<std::pair<std::string, std::string>>
parseMethodPair(StringRef text, std::string &error);

/// Matches the graphs of `oldInput` and `newInput`, files read through
/// `files`. Fails, with the reason in `error`, when a file cannot be read
/// or drawn, or a method named in `options` is not on its side.
FailureOr<GraphDiffReport> diffGraphs(const DiffInput &oldInput,
                                      const DiffInput &newInput,
                                      const GraphDiffOptions &options,
                                      PayloadFiles &files, std::string &error);

/// Matches one method pair (graphs read with GraphOptions::details: else
/// dim orders are not compared and constants only by key and size).
MethodGraphDiff diffMethodGraphs(const graph::MethodGraph &oldGraph,
                                 const graph::MethodGraph &newGraph);

void printGraphDiffText(const GraphDiffReport &report, raw_ostream &os);
/// The report as JSON, schema `emit-graph-diff-1`.
void printGraphDiffJSON(const GraphDiffReport &report, raw_ostream &os);
/// One self-contained page: each method pair's graphs side by side.
void printGraphDiffHTML(const GraphDiffReport &report, raw_ostream &os);
/// Model Explorer's split view mapping of method pair `method` (a position
/// in report.methods): its nodes' ids, old to new, and those of each
/// matched delegate call's payload graph (Model Explorer's node ids there).
void printModelExplorerMapping(const GraphDiffReport &report, size_t method,
                               raw_ostream &os);

} // namespace graphdiff
} // namespace emit

#endif // EMIT_DIFF_GRAPHDIFF_H
