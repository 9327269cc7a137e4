//===- DiffPrint.cpp - The diff as text and JSON --------------- -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/Diff.h"

#include "emit/Summary/SummaryModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace emit;

/// "+3,000 B", "-12 B", "0 B".
static std::string signedBytes(uint64_t oldBytes, uint64_t newBytes) {
  if (newBytes == oldBytes)
    return "0 B";
  return (newBytes > oldBytes ? "+" : "-") +
         exactBytes(newBytes > oldBytes ? newBytes - oldBytes
                                        : oldBytes - newBytes);
}

static std::string oldToNew(uint64_t oldBytes, uint64_t newBytes) {
  return oldBytes == newBytes
             ? exactBytes(oldBytes)
             : exactBytes(oldBytes) + " -> " + exactBytes(newBytes);
}

static std::string countsText(const MethodCounts &counts) {
  return (Twine(counts.instructions) + " instructions, " +
          Twine(counts.values) + " values, " + Twine(counts.delegateCalls) +
          " delegate calls, " + Twine(counts.kernelCalls) + " kernel calls")
      .str();
}

static std::string constantName(const ConstantDiff &constant) {
  if (!constant.name.empty())
    return "\"" + constant.name + "\"";
  return (constant.method + " value " + Twine(constant.value)).str();
}

static void printSides(const DiffReport &report, raw_ostream &os) {
  auto side = [&](StringRef label, const DiffSide &side) {
    os << label << side.file;
    for (const std::string &data : side.dataFiles)
      os << " + " << data;
    os << " (" << exactBytes(side.bytes) << ")\n";
  };
  side("old: ", report.oldSide);
  side("new: ", report.newSide);
  os << (report.sameContent() ? "same content (layout aside)\n"
                              : "content differs\n");
}

static void printKinds(const DiffReport &report, raw_ostream &os) {
  os << "\nbytes by kind:\n";
  auto row = [&](StringRef label, uint64_t oldBytes, uint64_t newBytes) {
    os << llvm::format("  %-22s %16s %16s %16s\n", label.str().c_str(),
                       exactBytes(oldBytes).c_str(),
                       exactBytes(newBytes).c_str(),
                       signedBytes(oldBytes, newBytes).c_str());
  };
  os << llvm::format("  %-22s %16s %16s %16s\n", (const char *)"",
                     (const char *)"old", (const char *)"new",
                     (const char *)"change");
  for (const DiffKindBytes &kind : report.byKind)
    row(kind.label, kind.oldBytes, kind.newBytes);
  row("total", report.oldSide.bytes, report.newSide.bytes);
}

static void printMethodsText(ArrayRef<MethodDiff> methods, raw_ostream &os) {
  os << "\nmethods:\n";
  for (const MethodDiff &method : methods) {
    os << "  " << stringifyDiffChange(method.change) << " " << method.name
       << ": ";
    if (method.change == DiffChange::Added)
      os << countsText(method.newCounts);
    else if (method.change == DiffChange::Removed)
      os << countsText(method.oldCounts);
    else if (method.oldCounts == method.newCounts)
      os << countsText(method.newCounts);
    else
      os << countsText(method.oldCounts) << " -> "
         << countsText(method.newCounts);
    if (!method.firstDifference.empty())
      os << "; first difference: " << method.firstDifference;
    os << "\n";
  }
}

static void printDelegatesText(ArrayRef<DelegateDiff> delegates,
                               raw_ostream &os) {
  os << "\ndelegate entries:\n";
  for (const DelegateDiff &entry : delegates) {
    os << "  " << stringifyDiffChange(entry.change) << " " << entry.method
       << "#" << entry.index << " (" << entry.backend << "): payload "
       << oldToNew(entry.oldBytes, entry.newBytes);
    if (entry.change == DiffChange::Changed) {
      if (entry.payloadChanged)
        os << ", bytes changed";
      if (entry.specsChanged)
        os << ", compile specs changed";
      if (!entry.oldBackend.empty())
        os << ", backend was " << entry.oldBackend;
    }
    os << "\n";
  }
}

static void printNamedDataText(ArrayRef<NamedDataDiff> namedData,
                               raw_ostream &os) {
  os << "\nnamed data:\n";
  for (const NamedDataDiff &data : namedData) {
    os << "  " << stringifyDiffChange(data.change) << " \"" << data.key
       << "\": " << oldToNew(data.oldBytes, data.newBytes);
    if (data.change == DiffChange::Changed && data.bytesChanged)
      os << ", bytes changed";
    if (data.layoutChanged)
      os << ", tensor layout changed";
    os << "\n";
  }
}

static void printConstantsText(ArrayRef<ConstantDiff> constants,
                               raw_ostream &os) {
  os << "\nconstants:\n";
  for (const ConstantDiff &constant : constants) {
    os << "  " << stringifyDiffChange(constant.change) << " "
       << constantName(constant) << ": "
       << oldToNew(constant.oldBytes, constant.newBytes);
    if (constant.typeChanged)
      os << ", type or shape changed";
    else if (constant.change == DiffChange::Changed && constant.bytesChanged)
      os << ", bytes changed";
    os << "\n";
  }
}

static void printOperatorsText(ArrayRef<OperatorDiff> operators,
                               raw_ostream &os) {
  os << "\noperators:\n";
  for (const OperatorDiff &op : operators)
    os << "  " << stringifyDiffChange(op.change) << " " << op.method << ": "
       << op.name << "\n";
}

static void printTestSuitesText(ArrayRef<TestSuiteDiff> suites,
                                raw_ostream &os) {
  os << "\ntest suites:\n";
  for (const TestSuiteDiff &suite : suites) {
    os << "  " << stringifyDiffChange(suite.change) << " " << suite.method
       << ": " << suite.oldCases << " -> " << suite.newCases << " test cases";
    if (!suite.firstDifference.empty())
      os << "; first difference: " << suite.firstDifference;
    os << "\n";
  }
}

void emit::printDiffText(const DiffReport &report, raw_ostream &os) {
  printSides(report, os);
  printKinds(report, os);
  // A section per table that changed.
  if (!report.methods.empty())
    printMethodsText(report.methods, os);
  if (!report.delegates.empty())
    printDelegatesText(report.delegates, os);
  if (!report.namedData.empty())
    printNamedDataText(report.namedData, os);
  if (!report.constants.empty())
    printConstantsText(report.constants, os);
  if (!report.operators.empty())
    printOperatorsText(report.operators, os);
  if (!report.testSuites.empty())
    printTestSuitesText(report.testSuites, os);
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static void printCounts(llvm::json::OStream &json, StringRef key,
                        const MethodCounts &counts) {
  json.attributeObject(key, [&] {
    json.attribute("instructions", counts.instructions);
    json.attribute("values", counts.values);
    json.attribute("delegate_calls", counts.delegateCalls);
    json.attribute("kernel_calls", counts.kernelCalls);
  });
}

template <typename T, typename Fn>
static void printList(llvm::json::OStream &json, StringRef key,
                      const std::vector<T> &items, Fn &&fields) {
  json.attributeArray(key, [&] {
    for (const T &item : items)
      json.object([&] {
        json.attribute("change", stringifyDiffChange(item.change));
        fields(item);
      });
  });
}

void emit::printDiffJSON(const DiffReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("schema", "emit-diff-1");
    auto side = [&](StringRef key, const DiffSide &side) {
      json.attributeObject(key, [&] {
        json.attribute("file", side.file);
        json.attribute("bytes", side.bytes);
        json.attributeArray("data_files", [&] {
          for (const std::string &data : side.dataFiles)
            json.value(data);
        });
      });
    };
    side("old", report.oldSide);
    side("new", report.newSide);
    json.attribute("same_content", report.sameContent());
    json.attributeObject("by_kind", [&] {
      for (const DiffKindBytes &kind : report.byKind)
        json.attributeObject(kind.key, [&] {
          json.attribute("old", kind.oldBytes);
          json.attribute("new", kind.newBytes);
        });
    });
    printList(json, "methods", report.methods, [&](const MethodDiff &method) {
      json.attribute("name", method.name);
      if (method.change != DiffChange::Added)
        printCounts(json, "old", method.oldCounts);
      if (method.change != DiffChange::Removed)
        printCounts(json, "new", method.newCounts);
      if (!method.firstDifference.empty())
        json.attribute("first_difference", method.firstDifference);
    });
    printList(json, "delegates", report.delegates,
              [&](const DelegateDiff &entry) {
                json.attribute("method", entry.method);
                json.attribute("index", entry.index);
                json.attribute("backend", entry.backend);
                if (!entry.oldBackend.empty())
                  json.attribute("old_backend", entry.oldBackend);
                json.attribute("old_bytes", entry.oldBytes);
                json.attribute("new_bytes", entry.newBytes);
                json.attribute("payload_changed", entry.payloadChanged);
                json.attribute("specs_changed", entry.specsChanged);
              });
    printList(json, "named_data", report.namedData,
              [&](const NamedDataDiff &data) {
                json.attribute("key", data.key);
                json.attribute("old_bytes", data.oldBytes);
                json.attribute("new_bytes", data.newBytes);
                json.attribute("bytes_changed", data.bytesChanged);
                json.attribute("layout_changed", data.layoutChanged);
              });
    printList(json, "operators", report.operators, [&](const OperatorDiff &op) {
      json.attribute("method", op.method);
      json.attribute("name", op.name);
    });
    printList(json, "constants", report.constants,
              [&](const ConstantDiff &constant) {
                if (!constant.name.empty())
                  json.attribute("name", constant.name);
                json.attribute("method", constant.method);
                json.attribute("value", constant.value);
                json.attribute("old_bytes", constant.oldBytes);
                json.attribute("new_bytes", constant.newBytes);
                json.attribute("bytes_changed", constant.bytesChanged);
                json.attribute("type_changed", constant.typeChanged);
              });
    printList(json, "test_suites", report.testSuites,
              [&](const TestSuiteDiff &suite) {
                json.attribute("method", suite.method);
                json.attribute("old_test_cases", suite.oldCases);
                json.attribute("new_test_cases", suite.newCases);
                if (!suite.firstDifference.empty())
                  json.attribute("first_difference", suite.firstDifference);
              });
  });
  os << "\n";
}

void DiffReport::print(ReportFormat format, raw_ostream &os) const {
  switch (format) {
  case ReportFormat::JSON:
    return printDiffJSON(*this, os);
  case ReportFormat::HTML:
    return printDiffHTML(*this, os);
  default:
    return printDiffText(*this, os);
  }
}
