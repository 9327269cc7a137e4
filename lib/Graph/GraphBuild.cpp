//===- GraphBuild.cpp - Every method of a program as a graph --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A method's graph is read off its model: a node per instruction with the
// values it reads and writes (DataFlow.h), a node per signature entry, and
// each value with where its bytes are. A delegate entry's payload is read
// only as far as its header's first bytes.
//
//===----------------------------------------------------------------------===//

#include "GraphBuild.h"

#include "emit/File/DataFile.h"
#include "emit/File/program_generated.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ConvertUTF.h"

#include <map>
#include <tuple>

using namespace emit;
using namespace emit::graph;

StringRef graph::getNodeKindName(NodeKind kind) {
  switch (kind) {
  case NodeKind::Kernel:
    return "kernel";
  case NodeKind::Delegate:
    return "delegate";
  case NodeKind::Move:
    return "move";
  case NodeKind::JumpFalse:
    return "jump_false";
  case NodeKind::Free:
    return "free";
  case NodeKind::Unknown:
    break;
  case NodeKind::Input:
    return "input";
  case NodeKind::Output:
    return "output";
  }
  return "other";
}

StringRef Node::getIdPrefix() const {
  switch (kind) {
  case NodeKind::Input:
    return "input";
  case NodeKind::Output:
    return "output";
  default:
    return "i";
  }
}

std::string Node::getId() const {
  return getIdPrefix().str() + std::to_string(index);
}

static NodeKind getNodeKind(InstructionKind kind) {
  switch (kind) {
  case InstructionKind::Kernel:
    return NodeKind::Kernel;
  case InstructionKind::Delegate:
    return NodeKind::Delegate;
  case InstructionKind::Move:
    return NodeKind::Move;
  case InstructionKind::JumpFalse:
    return NodeKind::JumpFalse;
  case InstructionKind::Free:
    return NodeKind::Free;
  case InstructionKind::Unknown:
    break;
  }
  return NodeKind::Unknown;
}

/// The longest compile spec value shown whole; a longer one is cut.
static constexpr size_t kMaxSpecText = 1024, kMaxSpecHex = 256;

/// A compile spec's value as text, where it is printable UTF-8.
static CompileSpecInfo describeSpec(StringRef key, StringRef value) {
  CompileSpecInfo spec{key.str(), "", false, value.size()};
  bool printable = llvm::all_of(value, [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t' ||
           c == '\r';
  });
  const auto *start = reinterpret_cast<const llvm::UTF8 *>(value.data());
  if (printable && llvm::isLegalUTF8String(&start, start + value.size())) {
    spec.text = true;
    // Cut before a character, not inside one.
    size_t length = std::min(value.size(), kMaxSpecText);
    while (length < value.size() && (value[length] & 0xC0) == 0x80)
      --length;
    spec.value = value.take_front(length).str();
    return spec;
  }
  spec.value = llvm::toHex(value.take_front(kMaxSpecHex), /*LowerCase=*/true);
  return spec;
}

namespace {
/// Builds one method's graph.
class MethodGraphBuilder {
public:
  MethodGraphBuilder(const ProgramModel &model, const MethodModel &method,
                     delegate::DelegateCalls &calls, MethodGraph &graph,
                     bool details)
      : details(details), model(model), file(model.getFile()), method(method),
        calls(calls), keys(calls.getKeys()), graph(graph),
        flow(computeDataFlow(method, calls.getCallArguments(method))),
        constantSegment(model.readsConstantSegment()) {}
  void run();

private:
  void readValues();
  ValueInfo readValue(uint32_t index) const;
  ValueDetail readDetail(uint32_t index, const ValueInfo &value) const;
  /// Where a constant `tensor`'s bytes are in the file, if they lie there.
  std::optional<ArrayRef<char>> findConstantData(const TensorModel &tensor,
                                                 uint64_t bytes) const;
  void readSignature(ArrayRef<int32_t> values, NodeKind kind);
  void readInstructions();
  DelegateInfo describeDelegate(const InstructionModel &call,
                                std::vector<std::string> &problems) const;
  /// `delegate`'s compile specs described (and decoded where emit knows
  /// them) into `info`.
  void readCompileSpecs(const DelegateModel &delegate, DelegateInfo &info,
                        std::vector<std::string> &problems) const;
  /// Where the parts the payload names are and their bytes; a problem for
  /// a required one that no file given holds.
  void resolveNamedParts(DelegateInfo &info,
                         std::vector<std::string> &problems) const;
  /// Where the named keys of `info`'s payload are; a problem for each that
  /// no file given holds.
  void resolveKeys(DelegateInfo &info,
                   std::vector<std::string> &problems) const;
  void readOperands(const InstructionModel &instruction, uint32_t slot,
                    Node &node) const;
  void connect();
  void countFallback();
  /// Fallback::delegated, from the delegate nodes' decoded payloads.
  void countDelegatedOperators();

  bool details;
  const ProgramModel &model;
  const ProgramFile &file;
  const MethodModel &method;
  delegate::DelegateCalls &calls;
  const NamedDataIndex &keys;
  MethodGraph &graph;
  MethodDataFlow flow;
  /// Where the runtime reads the constants from.
  bool constantSegment;
};
} // namespace

void MethodGraphBuilder::run() {
  graph.name = method.getName().str();
  graph.inputs.assign(method.getInputs().begin(), method.getInputs().end());
  graph.outputs.assign(method.getOutputs().begin(), method.getOutputs().end());
  readValues();
  graph.nodes.reserve(method.getInputs().size() +
                      method.getInstructions().size() +
                      method.getOutputs().size());
  readSignature(method.getInputs(), NodeKind::Input);
  readInstructions();
  readSignature(method.getOutputs(), NodeKind::Output);
  connect();
  countFallback();
}

/// The most edges into one node: a hostile file's list of thousands of
/// items, each written by its own call and read by thousands, draws no
/// millions of edges.
static constexpr size_t kMaxEdgesIn = 1024;

void MethodGraphBuilder::connect() {
  // Per value, the node that last wrote it (a position in graph.nodes).
  std::vector<int32_t> writer(graph.values.size(), -1);
  // The value its writer wrote: a view's is its base.
  auto written = [&](uint32_t value) {
    const std::optional<uint32_t> &base = graph.values[value].aliasOf;
    return writer[value] < 0 && base ? *base : value;
  };
  llvm::DenseSet<std::pair<uint32_t, uint32_t>> drawn;
  for (auto [to, node] : llvm::enumerate(graph.nodes)) {
    drawn.clear();
    size_t skipped = 0;
    auto add = [&](uint32_t value, uint32_t toInput) {
      value = written(value);
      int32_t from = writer[value];
      if (from < 0 || !drawn.insert({uint32_t(from), value}).second)
        return;
      if (drawn.size() > kMaxEdgesIn) {
        ++skipped;
        return;
      }
      const auto &outputs = graph.nodes[from].outputs;
      uint32_t fromOutput = llvm::find(outputs, value) - outputs.begin();
      graph.edges.push_back(
          {uint32_t(from), uint32_t(to), value, fromOutput, toInput});
    };
    for (auto [position, value] : llvm::enumerate(node.inputs)) {
      add(value, position);
      for (int32_t item : method.getValue(value).getItems())
        if (item >= 0 && size_t(item) < graph.values.size())
          add(item, position);
    }
    if (skipped)
      node.problems.push_back(std::to_string(skipped) +
                              " more edges into it are not drawn (the first " +
                              std::to_string(kMaxEdgesIn) + " are)");
    for (uint32_t value : node.outputs)
      writer[value] = to;
  }
}

ValueInfo MethodGraphBuilder::readValue(uint32_t index) const {
  ValueInfo value;
  value.kind = method.getValueKind(index);
  if (flow.isLive(index))
    value.lifetime = flow.lifetimes[index];
  if (flow.viewOf[index] != MethodDataFlow::kNoView)
    value.aliasOf = flow.viewOf[index];
  std::optional<TensorModel> tensor = method.getTensor(index);
  if (!tensor)
    return value;
  value.dtype = tensor->scalarType;
  value.rawDtype = tensor->rawScalarType;
  value.shape = tensor->getSizes();
  value.bytes = tensor->getBytes();
  value.name = tensor->getName();
  value.dataIndex = tensor->dataIndex;
  if (tensor->planned) {
    value.buffer = tensor->memoryId;
    value.offset = tensor->offset;
  } else if (tensor->external) {
    value.constant = ConstantPlace::External;
    // The runtime resolves an external tensor in the data files alone.
    if (const NamedDataSource *source = keys.lookupForTensor(tensor->getName()))
      value.source = source->file.str();
    // Without data files its key is unresolved, not missing.
    else if (!keys.getDataFiles().empty())
      value.problems.push_back("its key '" + tensor->getName().str() +
                               "' is in the named data of no data file "
                               "given");
  } else if (tensor->dataIndex) {
    value.constant = constantSegment ? ConstantPlace::ConstantSegment
                                     : ConstantPlace::ConstantBuffer;
  }
  return value;
}

ValueDetail MethodGraphBuilder::readDetail(uint32_t index,
                                           const ValueInfo &value) const {
  ValueDetail detail;
  std::optional<TensorModel> tensor = method.getTensor(index);
  if (!tensor)
    return detail;
  detail.dimOrder = tensor->getDimOrder();
  if (value.constant == ConstantPlace::External) {
    if (const NamedDataSource *source = keys.lookupForTensor(value.name))
      detail.data = source->contents;
  } else if (value.constant && value.bytes) {
    detail.data = findConstantData(*tensor, *value.bytes);
  }
  return detail;
}

std::optional<ArrayRef<char>>
MethodGraphBuilder::findConstantData(const TensorModel &tensor,
                                     uint64_t bytes) const {
  // As the runtime reads it: the constant segment's entry when the program
  // has one, else the deprecated constant_buffer's.
  std::optional<ArrayRef<char>> store;
  uint64_t offset = 0;
  const ConstantStoresModel &stores = model.getConstantStores();
  if (constantSegment) {
    if (tensor.dataIndex >= stores.constantSegment->offsets.size())
      return std::nullopt;
    store = file.findSegmentBytes(stores.constantSegment->segmentIndex);
    offset = stores.constantSegment->offsets[tensor.dataIndex];
  } else if (const auto *buffers = file.getProgram()->constant_buffer()) {
    if (tensor.dataIndex >= buffers->size() ||
        !buffers->Get(tensor.dataIndex)->storage())
      return std::nullopt;
    const auto *storage = buffers->Get(tensor.dataIndex)->storage();
    store = ArrayRef<char>(reinterpret_cast<const char *>(storage->data()),
                           storage->size());
  }
  if (!store || offset > store->size() || bytes > store->size() - offset)
    return std::nullopt;
  return store->slice(offset, bytes);
}

void MethodGraphBuilder::readValues() {
  graph.values.reserve(method.getValueCount());
  for (uint32_t index = 0; index < method.getValueCount(); ++index)
    graph.values.push_back(readValue(index));
  if (!details)
    return;
  graph.details.reserve(graph.values.size());
  for (uint32_t index = 0; index < method.getValueCount(); ++index)
    graph.details.push_back(readDetail(index, graph.values[index]));
}

void MethodGraphBuilder::readSignature(ArrayRef<int32_t> values,
                                       NodeKind kind) {
  for (auto [position, value] : llvm::enumerate(values)) {
    Node node;
    node.kind = kind;
    node.index = position;
    node.name = "%" + std::to_string(value);
    bool known = value >= 0 && size_t(value) < graph.values.size();
    if (!known)
      node.problems.push_back("value index " + std::to_string(value) +
                              " is past the method's values");
    else if (kind == NodeKind::Input)
      node.outputs.push_back(value);
    else
      node.inputs.push_back(value);
    graph.nodes.push_back(std::move(node));
  }
}

void MethodGraphBuilder::readCompileSpecs(
    const DelegateModel &delegate, DelegateInfo &info,
    std::vector<std::string> &problems) const {
  for (auto [key, value] : delegate.compileSpecs) {
    CompileSpecInfo &described =
        info.compileSpecs.emplace_back(describeSpec(key, value));
    described.decoded =
        delegate::decodeCompileSpec(delegate.backend, key, value);
    if (described.decoded)
      for (const delegate::PayloadProblem &problem :
           described.decoded->problems)
        problems.push_back(("compile spec '" + key + "' byte " +
                            Twine(problem.offset) + ": " + problem.text)
                               .str());
  }
}

DelegateInfo
MethodGraphBuilder::describeDelegate(const InstructionModel &call,
                                     std::vector<std::string> &problems) const {
  const DelegateModel &delegate = *method.getDelegate(call);
  DelegateInfo info;
  info.backend = delegate.backend.str();
  info.index = call.callee;
  info.payloadBytes = delegate.payloadBytes;
  info.storage = delegate.inSegment ? "segment" : "inline";
  info.dataIndex = delegate.dataIndex;
  info.sharedWith = calls.getSharers(
      delegate, (method.getName() + "#" + Twine(call.callee)).str());
  readCompileSpecs(delegate, info, problems);
  info.payload = calls.decode(delegate);
  info.payloadData = model.getPayload(delegate);
  info.magic = info.payload->magic;
  for (const delegate::PayloadProblem &problem : info.payload->problems)
    problems.push_back(
        ("payload byte " + Twine(problem.offset) + ": " + problem.text).str());
  resolveKeys(info, problems);
  resolveNamedParts(info, problems);
  return info;
}

void MethodGraphBuilder::resolveNamedParts(
    DelegateInfo &info, std::vector<std::string> &problems) const {
  for (const delegate::NamedPart &part : info.payload->namedParts) {
    NamedPartInfo &resolved = info.namedParts.emplace_back();
    resolved.part = part;
    if (const NamedDataSource *source = keys.lookupForBackend(part.key)) {
      resolved.source = source->file.str();
      resolved.bytes = source->bytes;
    }
    // As for constants: without data files a key the program lacks is
    // unresolved; the runtime looks it up in the files it is given.
    if (resolved.source.empty() && !keys.getDataFiles().empty() &&
        part.required)
      problems.push_back("the payload's " + part.name + " key '" + part.key +
                         "' is in the named data of neither the program nor "
                         "a data file given: the backend fails to load it");
  }
}

void MethodGraphBuilder::resolveKeys(DelegateInfo &info,
                                     std::vector<std::string> &problems) const {
  if (!info.payload->graph)
    return;
  for (const delegate::DecodedValue &value : info.payload->graph->values) {
    if (!value.namedKey || info.keySources.count(*value.namedKey))
      continue;
    const NamedDataSource *found = keys.lookupForBackend(*value.namedKey);
    StringRef source = found ? found->file : StringRef();
    info.keySources[*value.namedKey] = source.str();
    if (found && found->contents)
      info.keyData[*value.namedKey] = *found->contents;
    // Without data files a key the program lacks is unresolved, not
    // missing: the backend looks it up in the files the runtime is given.
    if (source.empty() && !keys.getDataFiles().empty())
      problems.push_back("payload value " + std::to_string(value.id) +
                         "'s constant key '" + *value.namedKey +
                         "' is in the named data of neither the program "
                         "nor a data file given: the backend fails to load "
                         "it");
  }
}

void MethodGraphBuilder::readOperands(const InstructionModel &instruction,
                                      uint32_t slot, Node &node) const {
  // What an instruction reads and writes is the data flow's; the graph
  // adds the edges that write no byte.
  llvm::append_range(node.inputs, flow.getReads(slot));
  llvm::append_range(node.outputs, flow.getWrites(slot));
  auto add = [&](SmallVectorImpl<uint32_t> &list, int64_t value) {
    if (value >= 0 && uint64_t(value) < graph.values.size())
      list.push_back(value);
  };
  if (instruction.kind == InstructionKind::Move)
    // Its destination holds its source's value from then on.
    add(node.outputs, instruction.second);
  else if (instruction.kind == InstructionKind::Free)
    add(node.inputs, instruction.first);
}

void MethodGraphBuilder::readInstructions() {
  for (auto [slot, instruction] : llvm::enumerate(method.getInstructions())) {
    // Built in place: a node is large, and a method may have 100,000s.
    Node &node = graph.nodes.emplace_back();
    node.kind = getNodeKind(instruction.kind);
    node.chain = instruction.chain;
    node.instruction = instruction.index;
    node.index = slot;
    node.name = method.getCallee(instruction).str();
    if (node.name.empty())
      node.name = getNodeKindName(node.kind).str();
    if (instruction.kind == InstructionKind::JumpFalse)
      node.name += " to " + std::to_string(instruction.second);
    readOperands(instruction, slot, node);
    if (method.getDelegate(instruction))
      node.delegate = std::make_unique<DelegateInfo>(
          describeDelegate(instruction, node.problems));
    else if ((instruction.kind == InstructionKind::Kernel ||
              instruction.kind == InstructionKind::Delegate) &&
             instruction.callee < 0)
      node.problems.push_back(
          (Twine("its ") +
           (instruction.kind == InstructionKind::Kernel ? "operator"
                                                        : "delegate") +
           " index is out of range")
              .str());
  }
}

/// `counts` as NameCounts: the most first, then by name.
static NameCounts sortCounts(const llvm::StringMap<unsigned> &counts) {
  NameCounts list;
  for (const auto &entry : counts)
    list.push_back({entry.getKey().str(), entry.getValue()});
  llvm::sort(list, [](auto &a, auto &b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  return list;
}

void MethodGraphBuilder::countFallback() {
  Fallback &fallback = graph.fallback;
  // Calls by operator entry first: names are hashed once per entry, not
  // once per call.
  llvm::DenseMap<const OperatorModel *, unsigned> calls;
  llvm::StringMap<unsigned> namespaces, operators, backends;
  for (const InstructionModel &instruction : method.getInstructions()) {
    if (const OperatorModel *op = method.getOperator(instruction)) {
      ++fallback.kernelCalls;
      ++calls[op];
    } else if (const DelegateModel *delegate =
                   method.getDelegate(instruction)) {
      ++fallback.delegateCalls;
      ++backends[delegate->backend];
    }
  }
  for (auto [op, count] : calls) {
    size_t separator = op->name.find("::");
    namespaces[separator == StringRef::npos ? StringRef("")
                                            : op->name.take_front(separator)] +=
        count;
    operators[op->qualifiedName] += count;
  }
  fallback.byNamespace = sortCounts(namespaces);
  fallback.byOperator = sortCounts(operators);
  fallback.byBackend = sortCounts(backends);
  countDelegatedOperators();
}

void MethodGraphBuilder::countDelegatedOperators() {
  // Calls by payload first: a payload's operators are hashed once, not once
  // per call that runs it.
  struct BackendCalls {
    DelegatedOperators delegated;
    llvm::DenseMap<const delegate::DecodedPayload *, unsigned> payloadCalls;
  };
  llvm::StringMap<BackendCalls> backends;
  for (const Node &node : graph.nodes) {
    if (!node.delegate)
      continue;
    BackendCalls &backend = backends[node.delegate->backend];
    ++backend.delegated.calls;
    const delegate::DecodedPayload *payload = node.delegate->payload.get();
    if (payload && payload->graph)
      ++backend.payloadCalls[payload];
    else
      ++backend.delegated.opaqueCalls;
  }
  for (const auto &[name, count] : graph.fallback.byBackend) {
    BackendCalls &backend = backends[name];
    llvm::StringMap<unsigned> operators;
    for (const auto &[payload, calls] : backend.payloadCalls)
      for (const delegate::DecodedNode &op : payload->graph->nodes)
        operators[op.op] += calls;
    backend.delegated.backend = name;
    backend.delegated.operators = sortCounts(operators);
    graph.fallback.delegated.push_back(std::move(backend.delegated));
  }
}

void graph::buildMethodGraph(const ProgramModel &model,
                             const MethodModel &method,
                             delegate::DelegateCalls &calls, MethodGraph &graph,
                             bool details) {
  MethodGraphBuilder(model, method, calls, graph, details).run();
}
