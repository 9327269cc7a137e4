//===- GraphDiff.cpp - Two exports' graphs, matched node by node ----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Three passes per method pair, each only where the one before left nodes
// unmatched: an alignment on the exact keys; between those anchors, one on
// the operator's family (what changed type, constants or backend); then
// the neighbours (a node whose producers are matched, in order, to the
// producers of a node on the other side: an operator replaced).
//
//===----------------------------------------------------------------------===//

#include "Alignment.h"
#include "GraphDiffInternal.h"

#include "emit/Support/PayloadFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace emit;
using namespace emit::graphdiff;

StringRef graphdiff::getNodeAspectName(NodeAspect aspect) {
  switch (aspect) {
  case NodeAspect::Operator:
    return "operator";
  case NodeAspect::Overload:
    return "overload";
  case NodeAspect::Backend:
    return "backend";
  case NodeAspect::Dtype:
    return "dtype";
  case NodeAspect::Shape:
    return "shape";
  case NodeAspect::DimOrder:
    return "dim_order";
  case NodeAspect::Quantization:
    return "quantization";
  case NodeAspect::ConstantBytes:
    return "constant_bytes";
  case NodeAspect::Arguments:
    return "arguments";
  case NodeAspect::Payload:
    return "payload";
  case NodeAspect::CompileSpecs:
    return "compile_specs";
  }
  return "";
}

namespace {
/// How many nodes of the other side the neighbour pass tries per node.
constexpr uint32_t kNeighbourWindow = 64;

/// Matches one method pair's nodes.
class Matcher {
public:
  explicit Matcher(MethodGraphDiff &diff)
      : diff(diff), oldToNew(diff.oldNodes.size(), kNone),
        newToOld(diff.newNodes.size(), kNone) {}
  void run();

private:
  static constexpr uint32_t kNone = UINT32_MAX;
  /// The ranges between matched pairs: [old begin, old end, new begin,
  /// new end), each with nodes unmatched on both sides.
  std::vector<std::array<uint32_t, 4>> findGaps() const;
  void take(ArrayRef<Pair> pairs);
  void alignFamilies();
  void matchNeighbours();
  bool areNeighbours(const DiffNode &a, const DiffNode &b) const;
  void classify();

  MethodGraphDiff &diff;
  std::vector<uint32_t> oldToNew, newToOld;
};
} // namespace

void Matcher::take(ArrayRef<Pair> pairs) {
  for (auto [a, b] : pairs) {
    oldToNew[a] = b;
    newToOld[b] = a;
  }
}

std::vector<std::array<uint32_t, 4>> Matcher::findGaps() const {
  std::vector<std::array<uint32_t, 4>> gaps;
  uint32_t a = 0, b = 0;
  auto close = [&](uint32_t aEnd, uint32_t bEnd) {
    if (a < aEnd && b < bEnd)
      gaps.push_back({a, aEnd, b, bEnd});
  };
  for (uint32_t i = 0; i < oldToNew.size(); ++i) {
    if (oldToNew[i] == kNone)
      continue;
    close(i, oldToNew[i]);
    a = i + 1;
    b = oldToNew[i] + 1;
  }
  close(oldToNew.size(), newToOld.size());
  return gaps;
}

void Matcher::alignFamilies() {
  std::vector<Pair> pairs;
  std::vector<uint64_t> a, b;
  for (auto [aBegin, aEnd, bBegin, bEnd] : findGaps()) {
    a.clear();
    b.clear();
    for (uint32_t i = aBegin; i < aEnd; ++i)
      a.push_back(diff.oldNodes[i].familyKey);
    for (uint32_t j = bBegin; j < bEnd; ++j)
      b.push_back(diff.newNodes[j].familyKey);
    alignKeys(a, b, pairs, aBegin, bBegin);
  }
  take(pairs);
}

bool Matcher::areNeighbours(const DiffNode &a, const DiffNode &b) const {
  if (a.producers.empty() || a.producers.size() != b.producers.size() ||
      (a.kind == graph::NodeKind::Input) != (b.kind == graph::NodeKind::Input))
    return false;
  for (auto [from, to] : llvm::zip(a.producers, b.producers))
    if (oldToNew[from] != to)
      return false;
  return true;
}

void Matcher::matchNeighbours() {
  // In order: a replaced node's producers are matched before it, even
  // when they were replaced too.
  for (auto [aBegin, aEnd, bBegin, bEnd] : findGaps()) {
    uint32_t from = bBegin;
    for (uint32_t i = aBegin; i < aEnd && from < bEnd; ++i) {
      uint32_t last = std::min(bEnd, from + kNeighbourWindow);
      for (uint32_t j = from; j < last; ++j) {
        if (!areNeighbours(diff.oldNodes[i], diff.newNodes[j]))
          continue;
        take({{i, j}});
        from = j + 1;
        break;
      }
    }
  }
}

void Matcher::classify() {
  llvm::StringMap<BackendMoves> moves;
  for (uint32_t i = 0; i < oldToNew.size(); ++i) {
    if (oldToNew[i] == kNone) {
      diff.removed.push_back(i);
      continue;
    }
    uint32_t j = oldToNew[i];
    diff.matching.push_back({i, j});
    const DiffNode &a = diff.oldNodes[i], &b = diff.newNodes[j];
    // Equal exact keys: equal in all but what a delegate call adds.
    if (a.exactKey == b.exactKey && a.kind != graph::NodeKind::Delegate)
      continue;
    SmallVector<NodeAspect, 2> aspects = compareNodes(a, b, *diff.tables);
    if (aspects.empty())
      continue;
    diff.changed.push_back({i, j, std::move(aspects)});
    if (a.kind == graph::NodeKind::Delegate || a.backend == b.backend)
      continue;
    if (a.backend.empty())
      ++moves[b.backend].into;
    else if (b.backend.empty())
      ++moves[a.backend].outOf;
  }
  for (uint32_t j = 0; j < newToOld.size(); ++j)
    if (newToOld[j] == kNone)
      diff.added.push_back(j);
  for (auto &entry : moves) {
    entry.second.backend = entry.getKey().str();
    diff.moves.push_back(entry.second);
  }
  llvm::sort(diff.moves, [](const BackendMoves &x, const BackendMoves &y) {
    return x.backend < y.backend;
  });
}

void Matcher::run() {
  std::vector<uint64_t> a, b;
  for (const DiffNode &node : diff.oldNodes)
    a.push_back(node.exactKey);
  for (const DiffNode &node : diff.newNodes)
    b.push_back(node.exactKey);
  std::vector<Pair> pairs;
  alignKeys(a, b, pairs);
  take(pairs);
  alignFamilies();
  matchNeighbours();
  classify();
}

MethodGraphDiff
graphdiff::diffMethodGraphs(const graph::MethodGraph &oldGraph,
                            const graph::MethodGraph &newGraph) {
  MethodGraphDiff diff;
  diff.oldName = oldGraph.name;
  diff.newName = newGraph.name;
  diff.tables = std::make_shared<DiffTables>();
  diff.oldNodes = flattenMethodGraph(oldGraph, *diff.tables);
  diff.newNodes = flattenMethodGraph(newGraph, *diff.tables);
  diff.oldFallback = oldGraph.fallback;
  diff.newFallback = newGraph.fallback;
  Matcher(diff).run();
  return diff;
}

bool GraphDiffReport::isUnchanged() const {
  return addedMethods.empty() && removedMethods.empty() &&
         llvm::all_of(methods, [](const MethodGraphDiff &method) {
           return method.oldName == method.newName && method.isUnchanged();
         });
}

void GraphDiffReport::print(ReportFormat format, raw_ostream &os) const {
  switch (format) {
  case ReportFormat::JSON:
    return printGraphDiffJSON(*this, os);
  case ReportFormat::HTML:
    return printGraphDiffHTML(*this, os);
  default:
    return printGraphDiffText(*this, os);
  }
}

//===----------------------------------------------------------------------===//
// Two programs
//===----------------------------------------------------------------------===//

static FailureOr<graph::GraphReport>
readGraph(const DiffInput &input, PayloadFiles &files, std::string &error) {
  // Every error names the file it is of.
  auto named = [&] {
    if (!StringRef(error).contains(input.path))
      error = "'" + input.path + "': " + error;
    return failure();
  };
  std::shared_ptr<const FileBuffer> buffer = files.open(input.path, error);
  if (!buffer) {
    error = "cannot read '" + input.path + "': " + error;
    return failure();
  }
  graph::GraphOptions options;
  options.dataFiles = input.dataFiles;
  options.details = true;
  FailureOr<graph::GraphReport> report =
      graph::analyzeGraph(std::move(buffer), files, options, error);
  if (failed(report))
    return named();
  return report;
}

static const graph::MethodGraph *findMethod(const graph::GraphReport &report,
                                            StringRef name) {
  for (const graph::MethodGraph &method : report.methods)
    if (method.name == name)
      return &method;
  return nullptr;
}

namespace {
/// Pairs the methods of two programs: as told, by name, then each left on
/// one side with the one left on the other it mostly matches.
class MethodPairing {
public:
  MethodPairing(const graph::GraphReport &oldGraph,
                const graph::GraphReport &newGraph, GraphDiffReport &report)
      : oldGraph(oldGraph), newGraph(newGraph), report(report) {}
  LogicalResult run(const GraphDiffOptions &options, std::string &error);

private:
  void pair(const graph::MethodGraph &a, const graph::MethodGraph &b);
  void pairRenamed();

  const graph::GraphReport &oldGraph, &newGraph;
  GraphDiffReport &report;
  llvm::StringSet<> oldPaired, newPaired;
};
} // namespace

void MethodPairing::pair(const graph::MethodGraph &a,
                         const graph::MethodGraph &b) {
  report.methods.push_back(diffMethodGraphs(a, b));
  oldPaired.insert(a.name);
  newPaired.insert(b.name);
}

void MethodPairing::pairRenamed() {
  for (const graph::MethodGraph &a : oldGraph.methods) {
    if (oldPaired.contains(a.name))
      continue;
    std::optional<MethodGraphDiff> best;
    for (const graph::MethodGraph &b : newGraph.methods) {
      if (newPaired.contains(b.name))
        continue;
      MethodGraphDiff diff = diffMethodGraphs(a, b);
      size_t nodes = std::max(diff.oldNodes.size(), diff.newNodes.size());
      if (2 * diff.getUnchangedCount() >= nodes && nodes &&
          (!best || diff.getUnchangedCount() > best->getUnchangedCount()))
        best = std::move(diff);
    }
    if (!best)
      continue;
    oldPaired.insert(best->oldName);
    newPaired.insert(best->newName);
    report.methods.push_back(std::move(*best));
  }
}

LogicalResult MethodPairing::run(const GraphDiffOptions &options,
                                 std::string &error) {
  for (const auto &[oldName, newName] : options.methods) {
    const graph::MethodGraph *a = findMethod(oldGraph, oldName);
    const graph::MethodGraph *b = findMethod(newGraph, newName);
    if (!a || !b) {
      error = "--method " + oldName + "=" + newName + ": the " +
              (a ? "new" : "old") + " program has no method '" +
              (a ? newName : oldName) + "'";
      return failure();
    }
    pair(*a, *b);
  }
  for (const graph::MethodGraph &a : oldGraph.methods)
    if (!oldPaired.contains(a.name))
      if (const graph::MethodGraph *b = findMethod(newGraph, a.name))
        if (!newPaired.contains(b->name))
          pair(a, *b);
  pairRenamed();
  for (const graph::MethodGraph &a : oldGraph.methods)
    if (!oldPaired.contains(a.name))
      report.removedMethods.push_back(a.name);
  for (const graph::MethodGraph &b : newGraph.methods)
    if (!newPaired.contains(b.name))
      report.addedMethods.push_back(b.name);
  return success();
}

FailureOr<std::pair<std::string, std::string>>
graphdiff::parseMethodPair(StringRef text, std::string &error) {
  auto [oldName, newName] = text.split('=');
  if (oldName.empty() || newName.empty() || newName.contains('=')) {
    error = "--method=" + text.str() + ": expected OLD=NEW, two method names";
    return failure();
  }
  return std::make_pair(oldName.str(), newName.str());
}

FailureOr<GraphDiffReport>
graphdiff::diffGraphs(const DiffInput &oldInput, const DiffInput &newInput,
                      const GraphDiffOptions &options, PayloadFiles &files,
                      std::string &error) {
  FailureOr<graph::GraphReport> oldGraph = readGraph(oldInput, files, error);
  if (failed(oldGraph))
    return failure();
  FailureOr<graph::GraphReport> newGraph = readGraph(newInput, files, error);
  if (failed(newGraph))
    return failure();
  GraphDiffReport report;
  report.oldFile = oldGraph->file;
  report.newFile = newGraph->file;
  report.oldGraph =
      std::make_shared<const graph::GraphReport>(std::move(*oldGraph));
  report.newGraph =
      std::make_shared<const graph::GraphReport>(std::move(*newGraph));
  if (failed(MethodPairing(*report.oldGraph, *report.newGraph, report)
                 .run(options, error)))
    return failure();
  return report;
}
