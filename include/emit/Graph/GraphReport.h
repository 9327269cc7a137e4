//===- GraphReport.h - Every method of a program as a graph -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-graph as a library: each method of a program as a graph read off
// the program model (ProgramModel.h, DataFlow.h), never the IR. A node per
// instruction, in chain order, and one per method input and output; values
// are the edges, from the node that writes one to those that read it;
// constants and planned tensors are values with where their bytes are. A
// delegate call's node carries its entry: backend, payload size and where
// it lies (and which entries share it), compile specs, the payload's magic.
// What the file layer found is on the node or value it is of: a graph is
// drawn of any program whose flatbuffer verifies. With a run's profile
// (emit-profile's join), each node's time.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_GRAPH_GRAPHREPORT_H
#define EMIT_GRAPH_GRAPHREPORT_H

#include "emit/Delegate/PayloadDecoder.h"
#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/DataFlow.h"
#include "emit/File/Findings.h"
#include "emit/File/ProgramModel.h"
#include "emit/Kernels/KernelRegistry.h"
#include "emit/Support/Report.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace emit {
class FileBuffer;
class PayloadFiles;
class ProgramFile;

namespace graph {

/// What a node is: an instruction of its kind, or a method's input or
/// output.
enum class NodeKind : uint8_t {
  Kernel,
  Delegate,
  Move,
  JumpFalse,
  Free,
  Unknown,
  Input,
  Output,
};

/// `kernel`, `delegate`, `move`, `jump_false`, `free`, `other`, `input` or
/// `output`.
StringRef getNodeKindName(NodeKind kind);

/// A delegate entry's compile spec: its value as text where it is UTF-8
/// text, else in hex, and what it says where its backend's decoder knows it.
struct CompileSpecInfo {
  std::string key;
  std::string value;
  bool text = false;
  uint64_t bytes = 0;
  std::optional<delegate::DecodedCompileSpec> decoded;

  /// What it says where it was decoded, else its value.
  std::string describe() const {
    return decoded && !decoded->settings.empty() ? decoded->describe() : value;
  }
};

/// A node's time over a run's executions (emit-profile's join).
struct NodeTime {
  uint64_t count = 0;
  uint64_t totalNs = 0;
  uint64_t p50Ns = 0;
};

/// An event a delegate call logged of its own work, over a run's
/// executions, and the node of its payload's graph (a position in its
/// nodes) it times, where the backend's naming of its events tells.
struct DelegateEvent {
  std::string name;
  NodeTime time;
  std::optional<uint32_t> payloadNode;
};

/// A part its payload names that a delegate call loads from named data.
struct NamedPartInfo {
  delegate::NamedPart part;
  /// The file whose named data holds its key (`program`, or a data file
  /// given); empty when none does.
  std::string source;
  /// Its bytes, where a file given holds it.
  std::optional<uint64_t> bytes;
};

/// What a delegate call's node says of its entry.
struct DelegateInfo {
  std::string backend;
  /// Its index in the method's delegate table.
  uint32_t index = 0;
  uint64_t payloadBytes = 0;
  /// `segment` or `inline`, and its index there.
  std::string storage;
  uint32_t dataIndex = 0;
  /// The other entries whose payload is the same stored bytes
  /// (`method#index`), as after --dedup-delegate-blobs.
  std::vector<std::string> sharedWith;
  std::vector<CompileSpecInfo> compileSpecs;
  /// What the payload's first bytes say it is (`XH00` for XNNPACK's
  /// header, `0x5678abcd` for QNN's, ...); empty when nothing known.
  std::string magic;
  /// What the payload holds, by its backend's decoder (shared by the
  /// entries whose payload it is).
  std::shared_ptr<const delegate::DecodedPayload> payload;
  /// The payload's bytes: a view of the mapped file, read only where a
  /// reader touches them (emit-diff --graph hashes its constants).
  StringRef payloadData;
  /// For each named key the payload's constants name, the file whose named
  /// data holds it (`program`, or a data file given); empty when none does.
  std::map<std::string, std::string> keySources;
  /// The bytes of each of those keys, where the file holding it lies whole
  /// in its mapped bytes.
  std::map<std::string, ArrayRef<char>> keyData;
  /// What the payload names that the call loads from named data.
  std::vector<NamedPartInfo> namedParts;
  /// With a profile: the events it logged of its own work.
  std::vector<DelegateEvent> ownEvents;
};

/// One node of a method's graph.
struct Node {
  NodeKind kind = NodeKind::Unknown;
  /// For an instruction: its chain and index there, and its index across
  /// the method's chains (the node's id); for an input or output, its
  /// position in the method's signature.
  int32_t chain = -1;
  int32_t instruction = -1;
  uint32_t index = 0;
  /// A kernel call's operator with its overload, a delegate call's
  /// backend, the input's or output's value.
  std::string name;
  /// The values it reads and writes (a kernel call's few, inline: a
  /// method may have 100,000s of nodes).
  SmallVector<uint32_t, 3> inputs;
  SmallVector<uint32_t, 1> outputs;
  /// A delegate call's entry and payload (apart: most nodes have none, and
  /// a method may have 100,000s).
  std::unique_ptr<DelegateInfo> delegate;
  std::optional<NodeTime> time;
  /// What is wrong with it (the file layer's findings on the instruction,
  /// an operator or delegate index out of range, a payload shorter than
  /// its header).
  std::vector<std::string> problems;

  /// `i3` for instruction 3, `input0`, `output1`: unique in its method.
  std::string getId() const;
  /// The id's letters (`i`, `input`, `output`): the id is them and `index`.
  StringRef getIdPrefix() const;
};

/// Where a constant's bytes are.
enum class ConstantPlace : uint8_t {
  ConstantSegment,
  ConstantBuffer,
  External,
};

/// One value of a method.
struct ValueInfo {
  ValueKind kind = ValueKind::Unknown;
  /// A tensor's type and shape.
  std::optional<et::ScalarType> dtype;
  int32_t rawDtype = 0;
  ArrayRef<int32_t> shape;
  std::optional<uint64_t> bytes;
  /// A planned tensor's buffer and offset (a mutable buffer's too).
  std::optional<uint32_t> buffer;
  uint64_t offset = 0;
  /// A constant's place, and its index there or its key.
  std::optional<ConstantPlace> constant;
  uint32_t dataIndex = 0;
  StringRef name;
  /// An external constant's source: the data file whose named data holds
  /// its key (the runtime resolves it there alone); empty when none given
  /// does.
  std::string source;
  /// A view the emitter elided (MethodDataFlow::viewOf): a planned tensor
  /// no instruction writes, on the bytes of the tensor that last held data
  /// there. Its edge comes from there.
  std::optional<uint32_t> aliasOf;
  /// The instructions from the first that names it to the last.
  std::optional<Lifetime> lifetime;
  std::vector<std::string> problems;
};

/// What a graph diff compares of a value beyond what is drawn (held apart:
/// a drawing of 100,000s of values needs none of it).
struct ValueDetail {
  /// A tensor's dim order.
  ArrayRef<uint8_t> dimOrder;
  /// A constant's bytes, where a file read holds them whole (a view of the
  /// mapped file: only a reader that hashes them touches them).
  std::optional<ArrayRef<char>> data;
};

/// Kernel calls by operator namespace against delegate calls by backend:
/// what fell back to the portable runtime, and what a backend took.
/// Counts by name, the most first, then by name.
using NameCounts = std::vector<std::pair<std::string, unsigned>>;

/// The operators a backend runs in a method: its payloads' decoded graphs'
/// nodes, once per call.
struct DelegatedOperators {
  std::string backend;
  unsigned calls = 0;
  /// Calls whose payload has no graph emit decodes.
  unsigned opaqueCalls = 0;
  NameCounts operators;
};

struct Fallback {
  unsigned kernelCalls = 0;
  unsigned delegateCalls = 0;
  NameCounts byNamespace;
  NameCounts byBackend;
  /// The kernel calls by operator (`aten::add.out`): what fell back.
  NameCounts byOperator;
  /// What each backend runs, in the order of byBackend.
  std::vector<DelegatedOperators> delegated;
};

/// A value from the node that last wrote it before a node reads it (a
/// view's, from the node that wrote its base; a list's, from those that
/// wrote its items): forward only, so a loop's way back is no edge.
struct Edge {
  /// Positions in MethodGraph::nodes.
  uint32_t from = 0, to = 0;
  /// The value `from` wrote (a view's base, for a view `to` reads).
  uint32_t value = 0;
  /// Where the value is among `from`'s outputs and `to`'s inputs.
  uint32_t fromOutput = 0, toInput = 0;
};

/// A planned buffer's size and peak: the most bytes of it live at once,
/// and the instruction (its index across chains) where.
struct BufferPeak {
  uint32_t memoryId = 0;
  uint64_t bytes = 0;
  uint64_t peakBytes = 0;
  uint32_t peakAt = 0;
};

/// A method's graph.
struct MethodGraph {
  std::string name;
  std::vector<int32_t> inputs, outputs;
  std::vector<Node> nodes;
  std::vector<ValueInfo> values;
  /// Each value's detail, when GraphOptions::details asks; else empty.
  std::vector<ValueDetail> details;
  std::vector<Edge> edges;
  Fallback fallback;
  /// Each planned buffer's peak (emit-memory's figures), when read.
  std::vector<BufferPeak> peaks;
  std::vector<std::string> problems;
};

/// What to draw.
struct GraphOptions {
  std::vector<std::string> dataFiles;
  /// The methods to draw (none: every one).
  std::vector<std::string> methods;
  /// A run's ETDump of the program: each node's time.
  std::string profile;
  /// Whether to read the memory plan's peaks (the page's overlay).
  bool memory = false;
  /// Whether to read each value's detail (MethodGraph::details).
  bool details = false;
  /// The kernels a build registers (--kernels): the calls it runs no
  /// kernel for are marked.
  std::optional<kernels::KernelSpec> kernels;
};

/// Every drawn method of a program.
struct GraphReport : Report {
  std::string file;
  /// The program's findings that are of no method drawn.
  std::vector<std::string> problems;
  std::vector<MethodGraph> methods;
  /// The file's bytes its values' shapes and names point into.
  std::shared_ptr<const FileBuffer> bytes;

  /// Text, JSON (emit-graph-2), an HTML page, Model Explorer's graph JSON
  /// (and with a profile, its node data) or DOT.
  void print(ReportFormat format, raw_ostream &os) const override;
};

/// The graph of the program (or bundle) in `input`, with the files of
/// `options` read through the job's `files`. Fails, with the reason in
/// `error`, when a file cannot be read, is not of its kind, or its
/// flatbuffer does not verify.
FailureOr<GraphReport> analyzeGraph(std::shared_ptr<const FileBuffer> input,
                                    PayloadFiles &files,
                                    const GraphOptions &options,
                                    std::string &error);

/// The graph of `program`, one whose flatbuffer verifies (its findings may
/// say it does not read), without data files or a profile: what the
/// fuzzer draws. Fails only when `options` names a method it lacks.
FailureOr<GraphReport> analyzeGraph(const ProgramFile &program,
                                    const GraphOptions &options,
                                    std::string &error);

/// Per method what fell back and what each backend runs, then its nodes.
void printGraphText(const GraphReport &report, raw_ostream &os);
/// The report as JSON, schema `emit-graph-2`.
void printGraphJSON(const GraphReport &report, raw_ostream &os);
/// Model Explorer's graph collection (its built-in JSON loader's format).
void printModelExplorerJSON(const GraphReport &report, raw_ostream &os);
/// Model Explorer's per-node data overlay: each node's time.
void printModelExplorerNodeData(const GraphReport &report, raw_ostream &os);
/// Graphviz DOT, a cluster per method.
void printGraphDOT(const GraphReport &report, raw_ostream &os);
/// One self-contained page that draws each method.
void printGraphHTML(const GraphReport &report, raw_ostream &os);

} // namespace graph
} // namespace emit

#endif // EMIT_GRAPH_GRAPHREPORT_H
