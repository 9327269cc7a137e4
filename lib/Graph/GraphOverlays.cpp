//===- GraphOverlays.cpp - What the graph's nodes carry besides the file
//---===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Overlays put on a built graph: the file layer's findings on the node or
// value they are of, a run's times (emit-profile's join) on the nodes they
// time, and each planned buffer's peak (emit-memory's analysis).
//
//===----------------------------------------------------------------------===//

#include "GraphBuild.h"

#include "emit/File/CheckedFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/Kernels/KernelCalls.h"
#include "emit/Kernels/KernelLibraries.h"
#include "emit/Memory/MemoryReport.h"
#include "emit/Profile/ProfileReport.h"
#include "emit/Releases/Releases.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
using namespace emit::graph;

/// A method's instruction nodes by chain and instruction: findings find
/// their node in one lookup, however many a hostile file has.
static DenseMap<std::pair<int32_t, int32_t>, Node *>
indexInstructionNodes(MethodGraph &graph) {
  DenseMap<std::pair<int32_t, int32_t>, Node *> nodes;
  for (Node &node : graph.nodes)
    if (node.chain >= 0)
      nodes.try_emplace({node.chain, node.instruction}, &node);
  return nodes;
}

/// Puts each of `findings` on the node or value of `graphs` it is of (those
/// of no drawn method on the report).
void graph::placeFindings(const FindingList &findings,
                          ArrayRef<unsigned> methodIndices,
                          GraphReport &report) {
  std::vector<std::optional<DenseMap<std::pair<int32_t, int32_t>, Node *>>>
      nodeIndices(report.methods.size());
  for (const Finding &finding : findings.findings) {
    std::string text = (getSeverityName(finding.severity) + ": " +
                        finding.text() + " [" + finding.check->name + "]")
                           .str();
    const auto *drawn = finding.method
                            ? llvm::find(methodIndices, *finding.method)
                            : methodIndices.end();
    if (drawn == methodIndices.end()) {
      if (!finding.method)
        report.problems.push_back(std::move(text));
      continue;
    }
    size_t at = drawn - methodIndices.begin();
    MethodGraph &graph = report.methods[at];
    Node *node = nullptr;
    if (finding.chain && finding.instruction) {
      if (!nodeIndices[at])
        nodeIndices[at] = indexInstructionNodes(graph);
      node = nodeIndices[at]->lookup(
          {int32_t(*finding.chain), int32_t(*finding.instruction)});
    }
    if (node)
      node->problems.push_back(std::move(text));
    else if (finding.value && *finding.value < graph.values.size())
      graph.values[*finding.value].problems.push_back(std::move(text));
    else
      graph.problems.push_back(std::move(text));
  }
}

/// A delegate call's own events, in the order it logged them, each joined
/// to the payload node it times where its payload's decoder can tell.
static void addOwnEvents(ArrayRef<profile::NamedEvents> events,
                         DelegateInfo &delegate) {
  std::vector<const profile::NamedEvents *> logged;
  for (const profile::NamedEvents &event : events)
    logged.push_back(&event);
  llvm::sort(logged,
             [](auto *a, auto *b) { return a->firstSeen < b->firstSeen; });
  std::vector<std::string> names;
  for (const profile::NamedEvents *event : logged)
    names.push_back(event->name);
  std::vector<std::optional<uint32_t>> nodes =
      delegate.payload ? delegate::joinDelegateEvents(*delegate.payload, names)
                       : std::vector<std::optional<uint32_t>>(names.size());
  delegate.ownEvents.clear();
  for (auto [event, node] : llvm::zip_equal(logged, nodes))
    delegate.ownEvents.push_back(
        {event->name,
         {event->time.count, event->time.total, event->time.p50},
         node});
}

/// Each node's time in `profile`, a join of a run to the program: a group
/// of methods alike gives its times to each of them.
void graph::addTimes(const profile::ProfileReport &profile,
                     GraphReport &report) {
  for (const profile::MethodProfile &timed : profile.methods) {
    SmallVector<StringRef> names(timed.candidates.begin(),
                                 timed.candidates.end());
    if (names.empty())
      names.push_back(timed.name);
    for (MethodGraph &graph : report.methods) {
      if (!llvm::is_contained(names, graph.name))
        continue;
      // Each instruction's node, found once (not a scan per entry).
      llvm::DenseMap<std::pair<int32_t, int32_t>, Node *> byInstruction;
      for (Node &node : graph.nodes)
        if (node.chain >= 0)
          byInstruction.try_emplace({node.chain, node.instruction}, &node);
      for (const profile::InstructionProfile &entry : timed.instructions) {
        Node *node = byInstruction.lookup(
            {int32_t(entry.chain), int32_t(entry.instruction)});
        if (!node)
          continue;
        node->time =
            NodeTime{entry.time.count, entry.time.total, entry.time.p50};
        if (node->delegate && !entry.delegateEvents.empty())
          addOwnEvents(entry.delegateEvents, *node->delegate);
      }
    }
  }
}

/// The most blocks a refusal of a run that does not fit names.
static constexpr size_t kMisfitsNamed = 3;

/// Why the run `profile` of `etdump` does not fit `program`: its first
/// blocks no method explains, as emit-profile reports them.
std::string graph::describeMisfit(const profile::ProfileReport &profile,
                                  StringRef etdump, StringRef program) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << etdump << "' is not a run of '" << program
     << "' (emit-profile reports every block):";
  size_t named = 0, misfits = 0;
  for (const profile::UnmatchedBlock &block : profile.unmatched) {
    if (block.explained)
      continue;
    if (named++ < kMisfitsNamed)
      os << (named > 1 ? ";" : "") << " block " << block.block << " '"
         << block.name << "': " << block.reason;
    ++misfits;
  }
  if (misfits > kMisfitsNamed)
    os << "; and " << misfits - kMisfitsNamed << " more blocks";
  return text;
}

/// Each planned buffer's peak, as emit-memory finds it (on the model and
/// the payloads the graph read).
void graph::addPeaks(const ProgramModel &model, delegate::DelegateCalls &calls,
                     const GraphOptions &options, GraphReport &report) {
  memory::MemoryOptions memoryOptions;
  memoryOptions.methods = options.methods;
  std::string error;
  if (!model.getFile().isReadable())
    return;
  FailureOr<memory::MemoryReport> memory =
      memory::analyzeMemory(model, calls, memoryOptions, error);
  if (failed(memory))
    return;
  for (const memory::MethodMemory &method : memory->methods)
    for (MethodGraph &graph : report.methods)
      if (graph.name == method.name)
        for (const memory::PlannedBuffer &buffer : method.buffers)
          graph.peaks.push_back({buffer.memoryId, buffer.bytes,
                                 buffer.peakLiveBytes, buffer.peakAt});
}

/// What the build lacks for a call, as the node's problem says it.
static std::string describeMissingKernel(StringRef name, StringRef key,
                                         const kernels::KernelSpec &spec,
                                         unsigned release) {
  std::string text = ("no kernel in the build (" + spec.text + ") for '" +
                      name + "' with kernel key '" + kernels::describeKey(key) +
                      "': load_method fails with OperatorMissing")
                         .str();
  // Where no library has it, the problem says no more.
  SmallVector<StringRef, 2> libraries =
      kernels::getLibrariesWith(name, release);
  if (!libraries.empty())
    text += kernels::describeLibraries(libraries);
  return text;
}

void graph::addMissingKernels(const ProgramModel &model,
                              const kernels::KernelSpec &spec,
                              GraphReport &report) {
  unsigned main = getReleaseNames().size() - 1;
  kernels::KernelRegistry registry(spec, main);
  for (MethodGraph &graph : report.methods) {
    const MethodModel *method = model.getMethod(graph.name);
    if (!method)
      continue;
    ArrayRef<InstructionModel> instructions = method->getInstructions();
    for (Node &node : graph.nodes) {
      if (node.kind != NodeKind::Kernel || node.index >= instructions.size())
        continue;
      const OperatorModel *op = method->getOperator(instructions[node.index]);
      // Prim ops are the runtime's own, per release (emit-verify's table).
      if (!op || kernels::getFirstPrimRelease(op->qualifiedName))
        continue;
      std::string key =
          kernels::getKernelKey(*method, instructions[node.index]);
      if (!registry.resolves(op->qualifiedName, key))
        node.problems.push_back(
            describeMissingKernel(op->qualifiedName, key, spec, main));
    }
  }
}
