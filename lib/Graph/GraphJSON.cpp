//===- GraphJSON.cpp - A program's graphs as JSON, emit-graph-1 -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Streamed: a method of 50,000 kernel calls has 150,000 values, which a
// document built in memory first would hold many times over.
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::graph;

static void printIds(llvm::json::OStream &json, StringRef key,
                     ArrayRef<uint32_t> ids) {
  json.attributeArray(key, [&] {
    for (uint32_t id : ids)
      json.value(int64_t(id));
  });
}

static void printProblems(llvm::json::OStream &json,
                          ArrayRef<std::string> problems) {
  if (problems.empty())
    return;
  json.attributeArray("problems", [&] {
    for (const std::string &problem : problems)
      json.value(problem);
  });
}

static void printDelegate(llvm::json::OStream &json, const DelegateInfo &info) {
  json.attributeObject("delegate", [&] {
    json.attribute("backend", info.backend);
    json.attribute("index", int64_t(info.index));
    json.attribute("payload_bytes", int64_t(info.payloadBytes));
    json.attributeObject("storage", [&] {
      json.attribute("where", info.storage);
      json.attribute("index", int64_t(info.dataIndex));
    });
    json.attributeArray("shared_with", [&] {
      for (const std::string &entry : info.sharedWith)
        json.value(entry);
    });
    json.attributeArray("compile_specs", [&] {
      for (const CompileSpecInfo &spec : info.compileSpecs)
        json.object([&] {
          json.attribute("key", spec.key);
          json.attribute("encoding", spec.text ? "utf-8" : "hex");
          json.attribute("value", spec.value);
          json.attribute("bytes", int64_t(spec.bytes));
        });
    });
    if (info.magic.empty())
      json.attribute("magic", nullptr);
    else
      json.attribute("magic", info.magic);
  });
}

static void printNode(llvm::json::OStream &json, const Node &node) {
  json.object([&] {
    json.attribute("id", node.getId());
    if (node.chain >= 0) {
      json.attribute("chain", int64_t(node.chain));
      json.attribute("instruction", int64_t(node.instruction));
    } else {
      json.attribute("chain", nullptr);
      json.attribute("instruction", nullptr);
    }
    json.attribute("kind", getNodeKindName(node.kind));
    json.attribute("name", node.name);
    printIds(json, "inputs", node.inputs);
    printIds(json, "outputs", node.outputs);
    if (node.delegate)
      printDelegate(json, *node.delegate);
    if (node.time)
      json.attributeObject("time", [&] {
        json.attribute("count", int64_t(node.time->count));
        json.attribute("total_ns", int64_t(node.time->totalNs));
        json.attribute("p50_ns", int64_t(node.time->p50Ns));
      });
    printProblems(json, node.problems);
  });
}

static void printTensor(llvm::json::OStream &json, const ValueInfo &value) {
  json.attribute("dtype", getDtypeName(value));
  json.attributeArray("shape", [&] {
    for (int32_t size : value.shape)
      json.value(int64_t(size));
  });
  if (value.buffer)
    json.attributeObject("planned", [&] {
      json.attribute("buffer", int64_t(*value.buffer));
      json.attribute("offset", int64_t(value.offset));
      json.attribute("bytes", int64_t(value.bytes.value_or(0)));
      if (value.aliasOf)
        json.attribute("alias_of", int64_t(*value.aliasOf));
    });
  if (value.constant)
    json.attributeObject("constant", [&] {
      json.attribute("where", getConstantPlaceName(*value.constant));
      if (*value.constant == ConstantPlace::External) {
        json.attribute("key", value.name);
        if (value.source.empty())
          json.attribute("source", nullptr);
        else
          json.attribute("source", value.source);
      } else
        json.attribute("index", int64_t(value.dataIndex));
      json.attribute("bytes", int64_t(value.bytes.value_or(0)));
    });
  if (!value.name.empty())
    json.attribute("name", value.name);
}

static void printValue(llvm::json::OStream &json, uint32_t id,
                       const ValueInfo &value) {
  json.object([&] {
    json.attribute("id", int64_t(id));
    json.attribute("type", getValueKindName(value.kind));
    if (value.kind == ValueKind::Tensor)
      printTensor(json, value);
    if (value.lifetime) {
      json.attribute("first", int64_t(value.lifetime->first));
      json.attribute("last", int64_t(value.lifetime->last));
    } else {
      json.attribute("first", nullptr);
      json.attribute("last", nullptr);
    }
    printProblems(json, value.problems);
  });
}

static void printCounts(
    llvm::json::OStream &json, StringRef key,
    ArrayRef<std::pair<std::string, unsigned>> counts) {
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
    json.attributeArray("nodes", [&] {
      for (const Node &node : graph.nodes)
        printNode(json, node);
    });
    json.attributeArray("values", [&] {
      for (auto [id, value] : llvm::enumerate(graph.values))
        printValue(json, id, value);
    });
    json.attributeArray("edges", [&] {
      for (const Edge &edge : graph.edges)
        json.object([&] {
          json.attribute("from", graph.nodes[edge.from].getId());
          json.attribute("to", graph.nodes[edge.to].getId());
          json.attribute("value", int64_t(edge.value));
        });
    });
    json.attributeObject("fallback", [&] {
      json.attribute("kernel_calls", int64_t(graph.fallback.kernelCalls));
      json.attribute("delegate_calls", int64_t(graph.fallback.delegateCalls));
      printCounts(json, "by_namespace", graph.fallback.byNamespace);
      printCounts(json, "by_backend", graph.fallback.byBackend);
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
    printProblems(json, graph.problems);
  });
}

void graph::printGraphJSON(const GraphReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("schema", "emit-graph-1");
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
