//===- GraphPage.cpp - A program's graphs as one self-contained page ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The page holds what runs where (kernel calls by operator namespace
// against delegate calls by backend) as a table, and each method's graph
// as compact JSON that the viewer (GraphLayout.js and GraphViewer.js,
// embedded) lays out and draws on a canvas: no network, no script from
// elsewhere. Nodes, values, peaks and payload graphs are rows (arrays,
// strings once, by index) whose fields the data names once (`fields`,
// with the JSON report's names), which is how the viewer reads them.
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

#include "emit/Support/Page.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::graph;

static const char kViewer[] =
#include "GraphViewer.inc"
    ;

/// The fields of each kind of row, in the order rows hold them: the page
/// names them once, the viewer reads a row by them. Names are the JSON
/// report's where it has the field.
static constexpr const char *kNodeFields[] = {
    "kind",    "name",     "chain",   "instruction", "inputs",
    "outputs", "delegate", "time_ns", "problems"};
static constexpr const char *kValueFields[] = {
    "type", "dtype",    "shape",    "bytes",    "buffer", "offset", "first",
    "last", "constant", "problems", "alias_of", "name",   "source"};
static constexpr const char *kPeakFields[] = {"peak_bytes", "peak_at", "buffer",
                                              "bytes"};
static constexpr const char *kPayloadNodeFields[] = {"op", "inputs", "outputs",
                                                     "attrs"};
static constexpr const char *kPayloadValueFields[] = {"id", "description"};

static const char kGraphStyle[] = R"css(
#toolbar { display: flex; gap: 14px; align-items: center; margin: 8px 0; }
#toolbar input[type=search] { width: 260px; }
#viewer { display: flex; gap: 10px; height: 76vh; }
#graph { flex: 1; border: 1px solid #ccc; border-radius: 4px;
         background: #fafafa; cursor: grab; min-width: 0; }
#details { width: 340px; overflow: auto; font-size: 12px;
           border-left: 1px solid #eee; padding-left: 10px; }
#details ul { padding-left: 16px; }
#details li, #details p { overflow-wrap: anywhere; }
.finding.error { color: #b00020; }
#selftest { display: none; }
)css";

namespace {
/// Each string once, by index.
class StringTable {
public:
  int64_t operator[](StringRef text) {
    auto [it, added] = indices.try_emplace(text, strings.size());
    if (added)
      strings.push_back(text.str());
    return it->second;
  }
  ArrayRef<std::string> getStrings() const { return strings; }

private:
  llvm::StringMap<int64_t> indices;
  std::vector<std::string> strings;
};

/// Writes the page's data: the graphs, nodes and values as arrays.
class PageData {
public:
  explicit PageData(llvm::json::OStream &json) : json(json) {}
  void print(const GraphReport &report);

private:
  void printMethod(const MethodGraph &graph);
  void printNode(const Node &node);
  void printValue(const ValueInfo &value);
  void printDelegate(const DelegateInfo &info);
  /// The index of `info`'s payload graph among the page's, -1 for none.
  int64_t getPayloadIndex(const DelegateInfo &info);
  void printPayloadGraph(const delegate::DecodedPayload &payload);
  void printStrings(ArrayRef<std::string> texts) {
    json.array([&] {
      for (const std::string &text : texts)
        json.value(strings[text]);
    });
  }
  void printIds(ArrayRef<uint32_t> ids) {
    json.array([&] {
      for (uint32_t id : ids)
        json.value(int64_t(id));
    });
  }

  llvm::json::OStream &json;
  StringTable strings;
  /// The payload graphs the delegate nodes open into, once per stored
  /// payload.
  llvm::DenseMap<const delegate::DecodedPayload *, int64_t> payloadIndices;
  std::vector<const delegate::DecodedPayload *> payloads;
};
} // namespace

int64_t PageData::getPayloadIndex(const DelegateInfo &info) {
  const delegate::DecodedPayload *payload = info.payload.get();
  if (!payload || !payload->graph || payload->graph->nodes.empty())
    return -1;
  auto [it, added] = payloadIndices.try_emplace(payload, payloads.size());
  if (added)
    payloads.push_back(payload);
  return it->second;
}

/// A payload graph: its decoder; its nodes and values as rows
/// (kPayloadNodeFields, kPayloadValueFields).
void PageData::printPayloadGraph(const delegate::DecodedPayload &payload) {
  json.object([&] {
    json.attribute("decoder", payload.decoder);
    json.attributeArray("nodes", [&] {
      for (const delegate::DecodedNode &node : payload.graph->nodes)
        json.array([&] {
          json.value(strings[node.op]);
          printIds(node.inputs);
          printIds(node.outputs);
          std::string attrs;
          for (const delegate::Field &attr : node.attrs)
            attrs += (attrs.empty() ? "" : ", ") + attr.name + "=" +
                     attr.getText().str();
          json.value(strings[attrs]);
        });
    });
    json.attributeArray("values", [&] {
      for (const delegate::DecodedValue &value : payload.graph->values)
        json.array([&] {
          json.value(int64_t(value.id));
          std::string text = describeDecoded(value);
          if (value.constantBytes)
            text += ", constant " + std::to_string(*value.constantBytes) + " B";
          if (value.namedKey)
            text += ", named key '" + *value.namedKey + "'";
          if (value.externalInput)
            text += ", call input " + std::to_string(*value.externalInput);
          if (value.externalOutput)
            text += ", call output " + std::to_string(*value.externalOutput);
          json.value(strings[text]);
        });
    });
  });
}

void PageData::printDelegate(const DelegateInfo &info) {
  json.object([&] {
    json.attribute("backend", info.backend);
    json.attribute("index", int64_t(info.index));
    json.attribute("payload_bytes", int64_t(info.payloadBytes));
    json.attribute("storage", info.storage);
    json.attribute("data_index", int64_t(info.dataIndex));
    json.attribute("magic", info.magic);
    json.attributeArray("shared_with", [&] {
      for (const std::string &entry : info.sharedWith)
        json.value(entry);
    });
    json.attributeArray("compile_specs", [&] {
      for (const CompileSpecInfo &spec : info.compileSpecs)
        json.array([&] {
          json.value(spec.key);
          json.value(spec.describe());
        });
    });
    json.attributeArray("named_parts", [&] {
      for (const NamedPartInfo &part : info.namedParts)
        json.array([&] {
          json.value(part.part.name);
          json.value(describeNamedPart(part));
        });
    });
    int64_t graph = getPayloadIndex(info);
    json.attribute("payload_graph", graph);
    // This call's time per payload node, from its own events.
    if (graph >= 0 && !info.ownEvents.empty())
      json.attributeArray("payload_times", [&] {
        for (const std::optional<NodeTime> &time :
             sumPayloadNodeTimes(info, info.payload->graph->nodes.size()))
          json.value(int64_t(time ? time->totalNs : 0));
      });
  });
}

void PageData::printNode(const Node &node) {
  json.array([&] {
    json.value(int64_t(node.kind));
    json.value(strings[node.name]);
    json.value(int64_t(node.chain));
    json.value(int64_t(node.instruction));
    printIds(node.inputs);
    printIds(node.outputs);
    if (node.delegate)
      printDelegate(*node.delegate);
    else
      json.value(0);
    json.value(int64_t(node.time ? node.time->totalNs : 0));
    printStrings(node.problems);
  });
}

void PageData::printValue(const ValueInfo &value) {
  json.array([&] {
    json.value(strings[getValueKindName(value.kind)]);
    bool tensor = value.kind == ValueKind::Tensor;
    json.value(tensor ? strings[getDtypeName(value)] : -1);
    if (tensor) {
      std::string shape;
      llvm::raw_string_ostream os(shape);
      llvm::interleaveComma(value.shape, os);
      json.value(strings[shape]);
    } else {
      json.value(-1);
    }
    json.value(int64_t(value.bytes.value_or(0)));
    json.value(value.buffer ? int64_t(*value.buffer) : -1);
    json.value(int64_t(value.offset));
    json.value(value.lifetime ? int64_t(value.lifetime->first) : -1);
    json.value(value.lifetime ? int64_t(value.lifetime->last) : -1);
    json.value(value.constant ? strings[getConstantPlaceName(*value.constant)]
                              : -1);
    printStrings(value.problems);
    json.value(value.aliasOf ? int64_t(*value.aliasOf) : -1);
    json.value(value.name.empty() ? -1 : strings[value.name]);
    json.value(value.source.empty() ? -1 : strings[value.source]);
  });
}

void PageData::printMethod(const MethodGraph &graph) {
  json.object([&] {
    json.attribute("name", graph.name);
    json.attributeArray("inputs", [&] {
      for (int32_t value : graph.inputs)
        json.value(int64_t(value));
    });
    json.attributeArray("peaks", [&] {
      for (const BufferPeak &peak : graph.peaks)
        json.array([&] {
          json.value(int64_t(peak.peakBytes));
          json.value(int64_t(peak.peakAt));
          json.value(int64_t(peak.memoryId));
          json.value(int64_t(peak.bytes));
        });
    });
    json.attributeArray("nodes", [&] {
      for (const Node &node : graph.nodes)
        printNode(node);
    });
    json.attributeArray("values", [&] {
      for (const ValueInfo &value : graph.values)
        printValue(value);
    });
    // Flat: from, to, from, to, ...
    json.attributeArray("edges", [&] {
      for (const Edge &edge : graph.edges) {
        json.value(int64_t(edge.from));
        json.value(int64_t(edge.to));
      }
    });
  });
}

/// `names`, the fields of one kind of row.
template <size_t N>
static void printFieldNames(llvm::json::OStream &json, StringRef kind,
                            const char *const (&names)[N]) {
  json.attributeArray(kind, [&] {
    for (const char *name : names)
      json.value(name);
  });
}

void PageData::print(const GraphReport &report) {
  json.object([&] {
    json.attribute("file", report.file);
    json.attributeObject("fields", [&] {
      printFieldNames(json, "node", kNodeFields);
      printFieldNames(json, "value", kValueFields);
      printFieldNames(json, "peak", kPeakFields);
      printFieldNames(json, "payload_node", kPayloadNodeFields);
      printFieldNames(json, "payload_value", kPayloadValueFields);
    });
    json.attributeArray("methods", [&] {
      for (const MethodGraph &graph : report.methods)
        printMethod(graph);
    });
    json.attributeArray("payloads", [&] {
      for (const delegate::DecodedPayload *payload : payloads)
        printPayloadGraph(*payload);
    });
    // Last: every string the graphs named.
    json.attributeArray("strings", [&] {
      for (const std::string &text : strings.getStrings())
        json.value(text);
    });
  });
}

/// `aten 12, cortex_m 3`.
static std::string listCounts(const NameCounts &counts) {
  std::string text;
  for (const auto &[name, count] : counts)
    text += (text.empty() ? "" : ", ") +
            (name.empty() ? std::string("(no namespace)") : name) + " " +
            std::to_string(count);
  return escapeHTML(text);
}

/// Each backend's operators (`XnnpackBackend: Add 2, Conv2d 1`), and its
/// calls whose payload emit cannot open.
static std::string listDelegated(ArrayRef<DelegatedOperators> backends) {
  std::string text;
  for (const DelegatedOperators &backend : backends) {
    if (!text.empty())
      text += "; ";
    text += escapeHTML(backend.backend) + ": " + listCounts(backend.operators);
    if (backend.opaqueCalls)
      text += (backend.operators.empty() ? "" : ", ") +
              counted(backend.opaqueCalls, "opaque call");
  }
  return text;
}

/// What runs where, per method that calls anything; the methods that call
/// nothing (a program's constant getters) in one line.
static void printFallback(const GraphReport &report, raw_ostream &os) {
  printSectionStart(os, "fallback", "What runs where");
  printTableStart(os, {{"method"},
                       numberColumn("kernel calls"),
                       {"by operator namespace"},
                       {"operators that fell back"},
                       numberColumn("delegate calls"),
                       {"by backend"},
                       {"operators the backends run"}});
  std::vector<StringRef> idle;
  for (const MethodGraph &graph : report.methods) {
    const Fallback &calls = graph.fallback;
    if (!calls.kernelCalls && !calls.delegateCalls) {
      idle.push_back(graph.name);
      continue;
    }
    os << "<tr data-method=\"" << escapeHTML(graph.name) << "\"><td>"
       << escapeHTML(graph.name) << "</td><td class=\"num\">"
       << calls.kernelCalls << "</td><td>" << listCounts(calls.byNamespace)
       << "</td><td>" << listCounts(calls.byOperator)
       << "</td><td class=\"num\">" << calls.delegateCalls << "</td><td>"
       << listCounts(calls.byBackend) << "</td><td>"
       << listDelegated(calls.delegated) << "</td></tr>\n";
  }
  printTableEnd(os);
  if (!idle.empty()) {
    os << "<p class=\"muted\">" << counted(idle.size(), "method")
       << " call no kernel and no backend: ";
    llvm::interleaveComma(idle, os,
                          [&](StringRef name) { os << escapeHTML(name); });
    os << ".</p>\n";
  }
  os << "</section>\n";
}

static void printViewer(const GraphReport &report, raw_ostream &os) {
  bool timed = llvm::any_of(report.methods, [](const MethodGraph &graph) {
    return llvm::any_of(graph.nodes, [](const Node &n) { return !!n.time; });
  });
  os << "<section id=\"graphs\"><h2>Graphs</h2>\n<div id=\"toolbar\">"
        "<select id=\"method\">";
  for (auto [index, graph] : llvm::enumerate(report.methods))
    os << "<option value=\"" << index << "\">" << escapeHTML(graph.name)
       << "</option>";
  os << "</select><input type=\"search\" id=\"search\" placeholder=\""
        "operator or %value, Enter for the next\">"
        "<label><input type=\"checkbox\" id=\"runs\"> fold long runs</label>"
        "<label><input type=\"checkbox\" id=\"memory\"> memory</label>"
        "<label><input type=\"checkbox\" id=\"time\""
     << (timed ? "" : " disabled") << "> time</label>"
     << "<span id=\"status\" class=\"muted\"></span>"
        "<span id=\"legend\" class=\"muted\"></span></div>\n"
        "<div id=\"viewer\"><canvas id=\"graph\"></canvas><aside id=\""
        "details\"></aside></div></section>\n<pre id=\"selftest\"></pre>\n";
}

void graph::printGraphHTML(const GraphReport &report, raw_ostream &os) {
  printPageStart(os, "emit graph of " + escapeHTML(report.file), {kGraphStyle});
  os << "<h1>" << escapeHTML(report.file) << "</h1>\n<p class=\"lead\">"
     << counted(report.methods.size(), "method")
     << ", each as a graph: a node per instruction, values as edges.</p>\n";
  for (const std::string &problem : report.problems)
    os << "<p class=\"finding error\">" << escapeHTML(problem) << "</p>\n";
  printViewer(report, os);
  printFallback(report, os);
  // The data, with "</" broken so that no string closes the script.
  std::string data;
  llvm::raw_string_ostream text(data);
  llvm::json::OStream json(text);
  PageData(json).print(report);
  os << "<script type=\"application/json\" id=\"graph-data\">";
  for (size_t at = 0, next; at < data.size(); at = next + 2) {
    next = data.find("</", at);
    if (next == std::string::npos) {
      os << StringRef(data).substr(at);
      break;
    }
    os << StringRef(data).slice(at, next) << "<\\/";
  }
  // The viewer's files share one scope.
  os << "</script>\n<script>(function () {\n\"use strict\";\n"
     << kViewer << "})();</script>\n";
  printPageEnd(os);
}
