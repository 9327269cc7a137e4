//===- GraphDiffPage.cpp - Two exports' graphs side by side ---------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One self-contained page: per method pair, both graphs in execution order
// side by side, a row per matched pair (a removed node alone on the left,
// an added one alone on the right), each node with the nodes it reads
// from. A delegate call opens and closes its payload's operators on both
// sides; clicking a node selects its match. A long run of unchanged pairs
// is folded to its ends. The page checks itself at #self-test.
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/GraphDiff.h"

#include "emit/Support/Page.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace emit;
using namespace emit::graphdiff;

static const char kStyle[] = R"css(
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 2px 16px; }
.pair > .head { font-weight: 600; padding: 4px 0; }
.node { border: 1px solid #d0d7de; border-left-width: 4px; border-radius: 4px;
        padding: 3px 6px; font: 12px ui-monospace, monospace; cursor: pointer;
        overflow-wrap: anywhere; }
.node.payload { margin-left: 24px; }
.node.added { border-left-color: #1a7f37; background: #dafbe1; }
.node.removed { border-left-color: #cf222e; background: #ffebe9; }
.node.changed { border-left-color: #9a6700; background: #fff8c5; }
.node.selected { outline: 2px solid #0969da; }
.node .what { color: #9a6700; font-weight: 600; }
.node .reads { color: #57606a; }
.node .toggle { float: right; color: #0969da; }
.empty { min-height: 4px; }
.fold { grid-column: 1 / span 2; color: #57606a; font: 12px sans-serif;
        text-align: center; padding: 2px; }
.closed { display: none; }
#detail { position: sticky; bottom: 0; background: #f6f8fa;
          border-top: 1px solid #d0d7de; padding: 6px; white-space: pre-wrap;
          font: 12px ui-monospace, monospace; min-height: 2em; }
)css";

static const char kScript[] =
#include "GraphDiffViewer.inc"
    ;

/// Unchanged pairs shown at each end of a run longer than twice it.
constexpr size_t kFoldEnds = 3;

namespace {
/// What a row holds: a node of each side, or one of them.
struct Row {
  std::optional<uint32_t> oldNode, newNode;
  const NodeChange *change = nullptr;
};

/// Writes one method pair's rows.
class PairPrinter {
public:
  PairPrinter(const MethodGraphDiff &diff, size_t method, raw_ostream &os)
      : diff(diff), method(method), os(os) {}
  void print();

private:
  std::vector<Row> mergeRows() const;
  void printCell(const Row &row, bool isNew);
  void printRows(ArrayRef<Row> rows);

  const MethodGraphDiff &diff;
  size_t method;
  raw_ostream &os;
};
} // namespace

std::vector<Row> PairPrinter::mergeRows() const {
  llvm::DenseMap<uint32_t, const NodeChange *> changes;
  for (const NodeChange &change : diff.changed)
    changes[change.oldNode] = &change;
  std::vector<Row> rows;
  uint32_t a = 0, b = 0;
  auto flush = [&](uint32_t aEnd, uint32_t bEnd) {
    for (; a < aEnd; ++a)
      rows.push_back({a, std::nullopt});
    for (; b < bEnd; ++b)
      rows.push_back({std::nullopt, b});
  };
  for (auto [i, j] : diff.matching) {
    flush(i, j);
    rows.push_back({i, j, changes.lookup(i)});
    a = i + 1;
    b = j + 1;
  }
  flush(diff.oldNodes.size(), diff.newNodes.size());
  return rows;
}

/// The id of the delegate call a payload operator belongs to.
static StringRef getCallId(const DiffNode &node) {
  return StringRef(node.id).split('/').first;
}

void PairPrinter::printCell(const Row &row, bool isNew) {
  std::optional<uint32_t> at = isNew ? row.newNode : row.oldNode;
  if (!at) {
    os << "<div class=\"empty\"></div>";
    return;
  }
  const std::vector<DiffNode> &nodes = isNew ? diff.newNodes : diff.oldNodes;
  const DiffNode &node = nodes[*at];
  std::optional<uint32_t> match = isNew ? row.oldNode : row.newNode;
  StringRef state = row.change ? "changed"
                    : !match   ? (isNew ? "added" : "removed")
                               : "same";
  std::string side = isNew ? "new" : "old";
  os << "<div class=\"node " << state << (node.payloadNode ? " payload" : "")
     << "\" id=\"m" << method << "-" << side << "-" << escapeHTML(node.id)
     << "\" data-side=\"" << side << "\" data-id=\"" << escapeHTML(node.id)
     << "\"";
  if (match)
    os << " data-match=\""
       << escapeHTML((isNew ? diff.oldNodes : diff.newNodes)[*match].id)
       << "\"";
  if (node.payloadNode)
    os << " data-call=\"" << escapeHTML(getCallId(node)) << "\"";
  os << " title=\"" << escapeHTML(node.describe(*diff.tables)) << "\">";
  if (node.kind == graph::NodeKind::Delegate)
    os << "<span class=\"toggle\" data-call=\"" << escapeHTML(node.id)
       << "\">payload</span>";
  os << "<b>" << escapeHTML(node.id) << "</b> " << escapeHTML(node.op);
  if (!node.backend.empty() && node.kind != graph::NodeKind::Delegate)
    os << " <i>" << escapeHTML(node.backend) << "</i>";
  if (row.change) {
    os << " <span class=\"what\">";
    llvm::interleave(
        row.change->aspects, os,
        [&](NodeAspect aspect) { os << getNodeAspectName(aspect); }, ", ");
    os << "</span>";
  }
  if (!node.producers.empty()) {
    os << " <span class=\"reads\">&larr; ";
    llvm::interleave(
        node.producers, os,
        [&](uint32_t from) { os << escapeHTML(nodes[from].id); }, ", ");
    os << "</span>";
  }
  os << "</div>";
}

void PairPrinter::printRows(ArrayRef<Row> rows) {
  // A delegate call stays drawn, so that its payload can be opened.
  auto isSame = [&](const Row &row) {
    return row.oldNode && row.newNode && !row.change &&
           diff.oldNodes[*row.oldNode].kind != graph::NodeKind::Delegate;
  };
  for (size_t k = 0; k < rows.size();) {
    size_t run = k;
    while (run < rows.size() && isSame(rows[run]))
      ++run;
    size_t length = run - k;
    if (length > 2 * kFoldEnds + 1) {
      for (size_t r = k; r < k + kFoldEnds; ++r)
        printCell(rows[r], false), printCell(rows[r], true), os << "\n";
      os << "<div class=\"fold\">&hellip; " << length - 2 * kFoldEnds
         << " unchanged &hellip;</div>\n";
      k = run - kFoldEnds;
    }
    size_t end = std::max(run, k + 1);
    for (; k < end && k < rows.size(); ++k)
      printCell(rows[k], false), printCell(rows[k], true), os << "\n";
  }
}

void PairPrinter::print() {
  std::string title = escapeHTML(diff.newName);
  if (diff.oldName != diff.newName)
    title += " (was " + escapeHTML(diff.oldName) + ")";
  printSectionStart(os, "method-" + std::to_string(method), "Method " + title);
  os << "<p class=\"counts\" data-added=\"" << diff.added.size()
     << "\" data-removed=\"" << diff.removed.size() << "\" data-changed=\""
     << diff.changed.size() << "\">" << diff.added.size() << " added, "
     << diff.removed.size() << " removed, " << diff.changed.size()
     << " changed, " << diff.getUnchangedCount() << " unchanged";
  for (const BackendMoves &moves : diff.moves)
    os << "; " << moves.into << " moved into " << escapeHTML(moves.backend)
       << ", " << moves.outOf << " fell back";
  os << "</p>\n<div class=\"pair\" data-method=\"" << method
     << "\"><div class=\"head\">old: " << escapeHTML(diff.oldName)
     << "</div><div class=\"head\">new: " << escapeHTML(diff.newName)
     << "</div>\n";
  printRows(mergeRows());
  os << "</div></section>\n";
}

void graphdiff::printGraphDiffHTML(const GraphDiffReport &report,
                                   raw_ostream &os) {
  printPageStart(os,
                 "emit graph diff of " + escapeHTML(report.oldFile) + " and " +
                     escapeHTML(report.newFile),
                 {kStyle});
  os << "<h1>" << escapeHTML(report.oldFile) << " &rarr; "
     << escapeHTML(report.newFile) << "</h1>\n<p class=\"lead\">"
     << (report.isUnchanged() ? "Every graph unchanged."
                              : "Nodes added, removed and changed, side by "
                                "side; click a node to select its match.")
     << "</p>\n";
  for (const std::string &name : report.removedMethods)
    os << "<p>Method " << escapeHTML(name)
       << ": only in the old program.</p>\n";
  for (const std::string &name : report.addedMethods)
    os << "<p>Method " << escapeHTML(name)
       << ": only in the new program.</p>\n";
  for (size_t k = 0; k < report.methods.size(); ++k)
    PairPrinter(report.methods[k], k, os).print();
  os << "<div id=\"detail\"></div><pre id=\"self-test\"></pre>\n<script>"
     << kScript << "</script>\n";
  printPageEnd(os);
}
