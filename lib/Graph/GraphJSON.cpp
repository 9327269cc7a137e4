//===- GraphJSON.cpp - A program's graphs as JSON, emit-graph-2 -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Streamed: a method of 50,000 kernel calls has 150,000 values, which a
// document built in memory first would hold many times over. Each node,
// value and edge is one line: the document stays readable and a third of
// its size fully indented.
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

#include "emit/Support/JSONWriter.h"

#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::graph;

/// Where a method's nodes, values and edges are in the document: the root
/// object, its "methods" array, the method object.
static constexpr unsigned kMethodDepth = 3;

/// The array `key` of the method, each of its `count` elements one object
/// on a line of its own, all through one writer: a method may have
/// hundreds of thousands.
static void printLines(llvm::json::OStream &json, StringRef key, size_t count,
                       llvm::function_ref<void(JSONWriter &, size_t)> print) {
  json.attributeBegin(key);
  json.rawValue([&](raw_ostream &os) {
    JSONWriter lines(os, /*indentWidth=*/2, kMethodDepth,
                     /*flatDepth=*/kMethodDepth + 1);
    lines.arrayBegin();
    for (size_t index = 0; index < count; ++index)
      print(lines, index);
    lines.arrayEnd();
  });
  json.attributeEnd();
}

static void printProblems(JSONWriter &json, ArrayRef<std::string> problems) {
  if (problems.empty())
    return;
  json.key("problems");
  json.arrayBegin();
  for (const std::string &problem : problems)
    json.string(problem);
  json.arrayEnd();
}

/// Decoded fields as an object: each a number, a list, ... as the decoder
/// types it.
static void printFields(JSONWriter &json, ArrayRef<delegate::Field> fields) {
  json.objectBegin();
  for (const delegate::Field &field : fields) {
    json.key(field.name);
    if (field.isString())
      json.string(field.getText());
    else
      json.raw(field.getJSON());
  }
  json.objectEnd();
}

/// `payload`: what the payload is made of, by its backend's decoder.
static void printPayload(JSONWriter &json,
                         const delegate::DecodedPayload &payload) {
  json.key("payload");
  json.objectBegin();
  json.key("decoder");
  if (payload.decoder.empty())
    json.null();
  else
    json.string(payload.decoder);
  json.key("regions");
  json.arrayBegin();
  for (const delegate::PayloadRegion &region : payload.regions) {
    json.objectBegin();
    json.key("name");
    json.string(region.name);
    json.key("offset");
    json.number(region.offset);
    json.key("bytes");
    json.number(region.size);
    json.objectEnd();
  }
  json.arrayEnd();
  json.key("target");
  printFields(json, payload.target);
  json.objectEnd();
}

static void printPayloadValue(JSONWriter &json,
                              const delegate::DecodedValue &value,
                              const std::map<std::string, std::string> &keys) {
  json.objectBegin();
  json.key("id");
  json.number(uint64_t(value.id));
  json.key("dtype");
  json.string(value.dtype);
  json.key("shape");
  json.arrayBegin();
  for (uint64_t size : value.shape)
    json.number(size);
  json.arrayEnd();
  json.key("quant");
  if (value.quant.empty())
    json.null();
  else
    json.string(value.quant);
  json.key("constant_bytes");
  json.number(value.constantBytes);
  json.key("named_key");
  if (value.namedKey)
    json.string(*value.namedKey);
  else
    json.null();
  // The file whose named data holds the key; null when none given does.
  json.key("named_key_source");
  auto source = value.namedKey ? keys.find(*value.namedKey) : keys.end();
  if (source != keys.end() && !source->second.empty())
    json.string(source->second);
  else
    json.null();
  json.key("external_input");
  json.number(value.externalInput
                  ? std::optional<uint64_t>(*value.externalInput)
                  : std::nullopt);
  json.key("external_output");
  json.number(value.externalOutput
                  ? std::optional<uint64_t>(*value.externalOutput)
                  : std::nullopt);
  json.objectEnd();
}

/// `time`: a node's count, total and median over a run's executions.
static void printTime(JSONWriter &json, const NodeTime &time) {
  json.key("time");
  json.objectBegin();
  json.key("count");
  json.number(time.count);
  json.key("total_ns");
  json.number(time.totalNs);
  json.key("p50_ns");
  json.number(time.p50Ns);
  json.objectEnd();
}

/// `graph`: the nodes and values of a payload's own graph, with a call's
/// own events' times.
static void printPayloadGraph(JSONWriter &json,
                              const delegate::DecodedGraph &graph,
                              const DelegateInfo &info) {
  std::vector<std::optional<NodeTime>> times =
      sumPayloadNodeTimes(info, graph.nodes.size());
  json.key("graph");
  json.objectBegin();
  json.key("nodes");
  json.arrayBegin();
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    json.objectBegin();
    json.key("id");
    json.number(uint64_t(node.id));
    json.key("op");
    json.string(node.op);
    json.key("inputs");
    json.numbers(node.inputs);
    json.key("outputs");
    json.numbers(node.outputs);
    json.key("attrs");
    printFields(json, node.attrs);
    if (times[index])
      printTime(json, *times[index]);
    json.objectEnd();
  }
  json.arrayEnd();
  json.key("values");
  json.arrayBegin();
  for (const delegate::DecodedValue &value : graph.values)
    printPayloadValue(json, value, info.keySources);
  json.arrayEnd();
  json.objectEnd();
}

/// `named_parts`: what the payload names that the call loads from named
/// data, with the file that holds each key and its bytes (null where no
/// file given does).
static void printNamedParts(JSONWriter &json, const DelegateInfo &info) {
  json.key("named_parts");
  json.arrayBegin();
  for (const NamedPartInfo &part : info.namedParts) {
    json.objectBegin();
    json.key("name");
    json.string(part.part.name);
    json.key("key");
    json.string(part.part.key);
    json.key("required");
    json.boolean(part.part.required);
    json.key("source");
    if (part.source.empty())
      json.null();
    else
      json.string(part.source);
    json.key("bytes");
    json.number(part.bytes);
    json.objectEnd();
  }
  json.arrayEnd();
}

/// `events`: what the call logged of its own work, each with the id of
/// the payload node it times (null where none is known).
static void printOwnEvents(JSONWriter &json, const DelegateInfo &info) {
  const delegate::DecodedGraph *graph =
      info.payload && info.payload->graph ? &*info.payload->graph : nullptr;
  json.key("events");
  json.arrayBegin();
  for (const DelegateEvent &event : info.ownEvents) {
    json.objectBegin();
    json.key("name");
    json.string(event.name);
    json.key("payload_node");
    json.number(
        graph && event.payloadNode
            ? std::optional<uint64_t>(graph->nodes[*event.payloadNode].id)
            : std::nullopt);
    printTime(json, event.time);
    json.objectEnd();
  }
  json.arrayEnd();
}

static void printDelegate(JSONWriter &json, const DelegateInfo &info) {
  json.key("delegate");
  json.objectBegin();
  json.key("backend");
  json.string(info.backend);
  json.key("index");
  json.number(uint64_t(info.index));
  json.key("payload_bytes");
  json.number(info.payloadBytes);
  json.key("storage");
  json.objectBegin();
  json.key("where");
  json.string(info.storage);
  json.key("index");
  json.number(uint64_t(info.dataIndex));
  json.objectEnd();
  json.key("shared_with");
  json.arrayBegin();
  for (const std::string &entry : info.sharedWith)
    json.string(entry);
  json.arrayEnd();
  json.key("compile_specs");
  json.arrayBegin();
  for (const CompileSpecInfo &spec : info.compileSpecs) {
    json.objectBegin();
    json.key("key");
    json.string(spec.key);
    json.key("encoding");
    json.string(spec.text ? "utf-8" : "hex");
    json.key("value");
    json.string(spec.value);
    json.key("bytes");
    json.number(spec.bytes);
    if (spec.decoded) {
      json.key("decoded");
      printFields(json, spec.decoded->settings);
    }
    json.objectEnd();
  }
  json.arrayEnd();
  json.key("magic");
  if (info.magic.empty())
    json.null();
  else
    json.string(info.magic);
  if (info.payload) {
    printPayload(json, *info.payload);
    if (info.payload->graph)
      printPayloadGraph(json, *info.payload->graph, info);
  }
  if (!info.namedParts.empty())
    printNamedParts(json, info);
  if (!info.ownEvents.empty())
    printOwnEvents(json, info);
  json.objectEnd();
}

/// `node`'s id (Node::getId) as a JSON string.
static void writeId(JSONWriter &json, const Node &node) {
  json.string(node.getIdPrefix(), node.index);
}

static void printNode(JSONWriter &json, const Node &node) {
  json.objectBegin();
  json.key("id");
  writeId(json, node);
  json.key("chain");
  json.number(node.chain >= 0 ? std::optional<uint64_t>(node.chain)
                              : std::nullopt);
  json.key("instruction");
  json.number(node.chain >= 0 ? std::optional<uint64_t>(node.instruction)
                              : std::nullopt);
  json.key("kind");
  json.string(getNodeKindName(node.kind));
  json.key("name");
  json.string(node.name);
  json.key("inputs");
  json.numbers(node.inputs);
  json.key("outputs");
  json.numbers(node.outputs);
  if (node.delegate)
    printDelegate(json, *node.delegate);
  if (node.time)
    printTime(json, *node.time);
  printProblems(json, node.problems);
  json.objectEnd();
}

static void printTensor(JSONWriter &json, const ValueInfo &value) {
  json.key("dtype");
  json.string(getDtypeName(value));
  json.key("shape");
  json.numbers(value.shape);
  if (value.buffer) {
    json.key("planned");
    json.objectBegin();
    json.key("buffer");
    json.number(uint64_t(*value.buffer));
    json.key("offset");
    json.number(value.offset);
    json.key("bytes");
    json.number(value.bytes.value_or(0));
    if (value.aliasOf) {
      json.key("alias_of");
      json.number(uint64_t(*value.aliasOf));
    }
    json.objectEnd();
  }
  if (value.constant) {
    json.key("constant");
    json.objectBegin();
    json.key("where");
    json.string(getConstantPlaceName(*value.constant));
    if (*value.constant == ConstantPlace::External) {
      json.key("key");
      json.string(value.name);
      json.key("source");
      if (value.source.empty())
        json.null();
      else
        json.string(value.source);
    } else {
      json.key("index");
      json.number(uint64_t(value.dataIndex));
    }
    json.key("bytes");
    json.number(value.bytes.value_or(0));
    json.objectEnd();
  }
  if (!value.name.empty()) {
    json.key("name");
    json.string(value.name);
  }
}

static void printValue(JSONWriter &json, uint32_t id, const ValueInfo &value) {
  json.objectBegin();
  json.key("id");
  json.number(uint64_t(id));
  json.key("type");
  json.string(getValueKindName(value.kind));
  if (value.kind == ValueKind::Tensor)
    printTensor(json, value);
  json.key("first");
  json.number(value.lifetime ? std::optional<uint64_t>(value.lifetime->first)
                             : std::nullopt);
  json.key("last");
  json.number(value.lifetime ? std::optional<uint64_t>(value.lifetime->last)
                             : std::nullopt);
  printProblems(json, value.problems);
  json.objectEnd();
}

static void printEdge(JSONWriter &json, const MethodGraph &graph,
                      const Edge &edge) {
  json.objectBegin();
  json.key("from");
  writeId(json, graph.nodes[edge.from]);
  json.key("to");
  writeId(json, graph.nodes[edge.to]);
  json.key("value");
  json.number(uint64_t(edge.value));
  json.objectEnd();
}

static void printCounts(llvm::json::OStream &json, StringRef key,
                        const NameCounts &counts) {
  json.attributeObject(key, [&] {
    for (const auto &[name, count] : counts)
      json.attribute(name, int64_t(count));
  });
}

static void printMethod(llvm::json::OStream &json, const MethodGraph &graph) {
  json.object([&] {
    json.attribute("name", graph.name);
    json.attributeArray("inputs", [&] {
      for (int32_t value : graph.inputs)
        json.value(int64_t(value));
    });
    json.attributeArray("outputs", [&] {
      for (int32_t value : graph.outputs)
        json.value(int64_t(value));
    });
    printLines(json, "nodes", graph.nodes.size(),
               [&](JSONWriter &line, size_t index) {
                 printNode(line, graph.nodes[index]);
               });
    printLines(json, "values", graph.values.size(),
               [&](JSONWriter &line, size_t index) {
                 printValue(line, index, graph.values[index]);
               });
    printLines(json, "edges", graph.edges.size(),
               [&](JSONWriter &line, size_t index) {
                 printEdge(line, graph, graph.edges[index]);
               });
    json.attributeObject("fallback", [&] {
      json.attribute("kernel_calls", int64_t(graph.fallback.kernelCalls));
      json.attribute("delegate_calls", int64_t(graph.fallback.delegateCalls));
      printCounts(json, "by_namespace", graph.fallback.byNamespace);
      printCounts(json, "by_backend", graph.fallback.byBackend);
      printCounts(json, "by_operator", graph.fallback.byOperator);
      json.attributeObject("delegated", [&] {
        for (const DelegatedOperators &delegated : graph.fallback.delegated)
          json.attributeObject(delegated.backend, [&] {
            json.attribute("calls", int64_t(delegated.calls));
            json.attribute("opaque_calls", int64_t(delegated.opaqueCalls));
            printCounts(json, "operators", delegated.operators);
          });
      });
    });
    if (!graph.peaks.empty())
      json.attributeArray("planned_buffers", [&] {
        for (const BufferPeak &peak : graph.peaks)
          json.object([&] {
            json.attribute("buffer", int64_t(peak.memoryId));
            json.attribute("bytes", int64_t(peak.bytes));
            json.attribute("peak_bytes", int64_t(peak.peakBytes));
            json.attribute("peak_at", int64_t(peak.peakAt));
          });
      });
    if (!graph.problems.empty())
      json.attributeArray("problems", [&] {
        for (const std::string &problem : graph.problems)
          json.value(problem);
      });
  });
}

void graph::printGraphJSON(const GraphReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("schema", "emit-graph-2");
    json.attribute("file", report.file);
    json.attributeArray("methods", [&] {
      for (const MethodGraph &graph : report.methods)
        printMethod(json, graph);
    });
    json.attributeArray("problems", [&] {
      for (const std::string &problem : report.problems)
        json.value(problem);
    });
  });
  os << "\n";
}

void GraphReport::print(ReportFormat format, raw_ostream &os) const {
  switch (format) {
  case ReportFormat::Text:
    return printGraphText(*this, os);
  case ReportFormat::HTML:
    return printGraphHTML(*this, os);
  case ReportFormat::ModelExplorer:
    return printModelExplorerJSON(*this, os);
  case ReportFormat::DOT:
    return printGraphDOT(*this, os);
  default:
    return printGraphJSON(*this, os);
  }
}
