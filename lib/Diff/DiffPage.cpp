//===- DiffPage.cpp - The diff as one HTML page ---------------- -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Self-contained (no network, no script), in the summary page's style: the
// bytes of both sides as two bars by kind, then a table per list, each row
// carrying its figures as data attributes.
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/Diff.h"

#include "emit/Summary/SummaryModel.h"

#include "llvm/Support/Format.h"

using namespace emit;

static const char kDiffStyle[] = R"css(
.bars { display: grid; grid-template-columns: 48px 1fr; gap: 6px 10px;
        align-items: center; }
.added { color: #1a7f37; } .removed { color: #cf222e; }
.changed { color: #9a6700; }
.same { color: #1a7f37; font-weight: 600; }
.differs { color: #cf222e; font-weight: 600; }
td.what { white-space: nowrap; font-weight: 600; }
)css";

static void printBar(const DiffReport &report, bool isNew, raw_ostream &os) {
  uint64_t total = std::max<uint64_t>(
      1, std::max(report.oldSide.bytes, report.newSide.bytes));
  os << "<span class=\"muted\">" << (isNew ? "new" : "old")
     << "</span><div class=\"bar\">";
  for (const DiffKindBytes &kind : report.byKind) {
    uint64_t bytes = isNew ? kind.newBytes : kind.oldBytes;
    if (bytes)
      os << "<span class=\"k-" << kind.key
         << "\" style=\"width:" << llvm::format("%.3f", 100.0 * bytes / total)
         << "%\" title=\"" << kind.label << ": " << humanBytes(bytes)
         << "\"></span>";
  }
  os << "</div>\n";
}

static void printKinds(const DiffReport &report, raw_ostream &os) {
  printSectionStart(os, "kinds", "Where the bytes go");
  os << "<div class=\"bars\">";
  printBar(report, /*isNew=*/false, os);
  printBar(report, /*isNew=*/true, os);
  os << "</div>\n";
  printTableStart(os, {{"kind"},
                       numberColumn("old"),
                       numberColumn("new"),
                       numberColumn("change")});
  auto row = [&](StringRef key, StringRef label, uint64_t oldBytes,
                 uint64_t newBytes) {
    int64_t change = int64_t(newBytes) - int64_t(oldBytes);
    os << "<tr class=\"kind\" data-kind=\"" << key << "\" data-old=\""
       << oldBytes << "\" data-new=\"" << newBytes << "\"><td>";
    if (key != "total")
      os << "<i class=\"swatch k-" << key << "\"></i>";
    os << escapeHTML(label) << "</td><td class=\"num\">" << exactBytes(oldBytes)
       << "</td><td class=\"num\">" << exactBytes(newBytes)
       << "</td><td class=\"num\">"
       << (change > 0   ? "+"
           : change < 0 ? "&minus;"
                        : "")
       << exactBytes(change < 0 ? -change : change) << "</td></tr>\n";
  };
  for (const DiffKindBytes &kind : report.byKind)
    row(kind.key, kind.label, kind.oldBytes, kind.newBytes);
  row("total", "total", report.oldSide.bytes, report.newSide.bytes);
  printTableEnd(os, /*section=*/true);
}

/// A section of changes: a heading, a header row (after the change's own
/// column), one row per item.
template <typename T, typename Fn>
static void printSection(raw_ostream &os, StringRef id, StringRef title,
                         ArrayRef<TableColumn> header,
                         const std::vector<T> &items, Fn &&cells) {
  if (items.empty())
    return;
  printSectionStart(os, id, title);
  SmallVector<TableColumn> columns = {{""}};
  llvm::append_range(columns, header);
  printTableStart(os, columns);
  for (const T &item : items) {
    StringRef change = stringifyDiffChange(item.change);
    os << "<tr class=\"" << id << "\" data-change=\"" << change
       << "\"><td class=\"what " << change << "\">" << change << "</td>";
    cells(item);
    os << "</tr>\n";
  }
  printTableEnd(os, /*section=*/true);
}

static std::string bytesCell(uint64_t bytes) {
  return "<td class=\"num\">" + exactBytes(bytes) + "</td>";
}

static void printMethods(const DiffReport &report, raw_ostream &os) {
  printSection(
      os, "method", "Methods",
      {{"method"},
       numberColumn("instructions"),
       numberColumn("values"),
       numberColumn("delegate calls"),
       numberColumn("kernel calls"),
       {"first difference"}},
      report.methods, [&](const MethodDiff &method) {
        auto counts = [&](unsigned oldCount, unsigned newCount) {
          os << "<td class=\"num\">";
          if (method.change == DiffChange::Added)
            os << newCount;
          else if (method.change == DiffChange::Removed || oldCount == newCount)
            os << oldCount;
          else
            os << oldCount << " &rarr; " << newCount;
          os << "</td>";
        };
        const MethodCounts &a = method.oldCounts, &b = method.newCounts;
        os << "<td data-name=\"" << escapeHTML(method.name) << "\">"
           << escapeHTML(method.name) << "</td>";
        counts(a.instructions, b.instructions);
        counts(a.values, b.values);
        counts(a.delegateCalls, b.delegateCalls);
        counts(a.kernelCalls, b.kernelCalls);
        os << "<td>" << escapeHTML(method.firstDifference) << "</td>";
      });
}

static void printDelegates(const DiffReport &report, raw_ostream &os) {
  printSection(os, "delegate", "Delegate entries",
               {{"entry"},
                {"backend"},
                numberColumn("old payload"),
                numberColumn("new payload"),
                {"what"}},
               report.delegates, [&](const DelegateDiff &entry) {
                 os << "<td>" << escapeHTML(entry.method) << "#" << entry.index
                    << "</td><td>" << escapeHTML(entry.backend) << "</td>"
                    << bytesCell(entry.oldBytes) << bytesCell(entry.newBytes)
                    << "<td>";
                 if (entry.payloadChanged)
                   os << "bytes changed ";
                 if (entry.specsChanged)
                   os << "compile specs changed ";
                 if (!entry.oldBackend.empty())
                   os << "backend was " << escapeHTML(entry.oldBackend);
                 os << "</td>";
               });
}

static void printNamedData(const DiffReport &report, raw_ostream &os) {
  printSection(os, "named-data", "Named data",
               {{"key"}, numberColumn("old"), numberColumn("new"), {"what"}},
               report.namedData, [&](const NamedDataDiff &data) {
                 os << "<td data-key=\"" << escapeHTML(data.key) << "\">"
                    << escapeHTML(data.key) << "</td>"
                    << bytesCell(data.oldBytes) << bytesCell(data.newBytes)
                    << "<td>"
                    << (data.bytesChanged && data.change == DiffChange::Changed
                            ? "bytes changed "
                            : "")
                    << (data.layoutChanged ? "tensor layout changed" : "")
                    << "</td>";
               });
}

static void printConstants(const DiffReport &report, raw_ostream &os) {
  printSection(
      os, "constant", "Constants",
      {{"constant"}, numberColumn("old"), numberColumn("new"), {"what"}},
      report.constants, [&](const ConstantDiff &constant) {
        os << "<td>"
           << escapeHTML(constant.name.empty()
                             ? constant.method + " value " +
                                   std::to_string(constant.value)
                             : constant.name)
           << "</td>" << bytesCell(constant.oldBytes)
           << bytesCell(constant.newBytes) << "<td>"
           << (constant.typeChanged ? "type or shape changed"
               : constant.bytesChanged && constant.change == DiffChange::Changed
                   ? "bytes changed"
                   : "")
           << "</td>";
      });
}

static void printOperators(const DiffReport &report, raw_ostream &os) {
  printSection(os, "operator", "Operators", {{"method"}, {"operator"}},
               report.operators, [&](const OperatorDiff &op) {
                 os << "<td>" << escapeHTML(op.method) << "</td><td>"
                    << escapeHTML(op.name) << "</td>";
               });
}

static void printTestSuites(const DiffReport &report, raw_ostream &os) {
  printSection(os, "test-suite", "Test suites",
               {{"method"},
                numberColumn("old"),
                numberColumn("new"),
                {"first difference"}},
               report.testSuites, [&](const TestSuiteDiff &suite) {
                 os << "<td>" << escapeHTML(suite.method)
                    << "</td><td class=\"num\">" << suite.oldCases
                    << "</td><td class=\"num\">" << suite.newCases
                    << "</td><td>" << escapeHTML(suite.firstDifference)
                    << "</td>";
               });
}

void emit::printDiffHTML(const DiffReport &report, raw_ostream &os) {
  auto sideName = [](const DiffSide &side) {
    std::string name = side.file;
    for (const std::string &data : side.dataFiles)
      name += " + " + data;
    return escapeHTML(name);
  };
  printPageStart(os,
                 escapeHTML(report.oldSide.file) + " &rarr; " +
                     escapeHTML(report.newSide.file),
                 {kDiffStyle});
  os << "<h1>" << sideName(report.oldSide) << " &rarr; "
     << sideName(report.newSide) << "</h1>\n<p class=\"lead\">";
  if (report.sameContent())
    os << "<span id=\"verdict\" class=\"same\">Same content</span>, "
          "layout aside. ";
  else
    os << "<span id=\"verdict\" class=\"differs\">Content differs</span>. ";
  os << humanBytes(report.oldSide.bytes) << " &rarr; "
     << humanBytes(report.newSide.bytes) << ".</p>\n";
  printKinds(report, os);

  printMethods(report, os);
  printDelegates(report, os);
  printNamedData(report, os);
  printConstants(report, os);
  printOperators(report, os);
  printTestSuites(report, os);
  printPageEnd(os);
}
