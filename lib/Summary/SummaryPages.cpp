//===- SummaryPages.cpp - The summary as SVG and HTML --------- -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Both are self-contained (no network, no script) and stay readable however
// many blobs a program has: past a few dozen rows, the smallest items are
// aggregated into one.
//
//===----------------------------------------------------------------------===//

#include "emit/Summary/SummaryModel.h"

#include "emit/Memory/MemoryReport.h"
#include "emit/Memory/RuntimeModel.h"
#include "emit/Support/Report.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace emit;
using namespace emit::summary;

/// Rows past which the smallest items are shown as one.
static constexpr unsigned kMaxRows = 60;
/// Identical groups shown before the rest are summed up.
static constexpr unsigned kMaxGroups = 20;

/// "1 method", "10,000 methods": every count on the page has separators.
static std::string countOf(uint64_t value, StringRef noun,
                           StringRef plural = "") {
  return counted(value, noun, plural, /*separators=*/true);
}

/// `part` of `whole` as "12.5%".
static std::string percent(uint64_t part, uint64_t whole) {
  return formatPercent(whole ? 100.0 * part / whole : 0.0);
}

/// The indices of the blobs to draw, in program order: all of them, or the
/// kMaxRows - 1 largest when there are more.
static SmallVector<unsigned> rowsToDraw(const Summary &summary) {
  SmallVector<unsigned> rows(summary.blobs.size());
  std::iota(rows.begin(), rows.end(), 0);
  if (rows.size() <= kMaxRows)
    return rows;
  llvm::stable_sort(rows, [&](unsigned a, unsigned b) {
    return summary.blobs[a].size > summary.blobs[b].size;
  });
  rows.resize(kMaxRows - 1);
  llvm::sort(rows);
  return rows;
}

/// "prefill#0 (QnnBackend), decode#0 (QnnBackend) and 10 more".
static std::string firstFew(ArrayRef<std::string> items, unsigned shown = 3) {
  SmallVector<StringRef> first;
  for (const std::string &item : items.take_front(shown))
    first.push_back(item);
  std::string text = llvm::join(first, ", ");
  if (items.size() > shown)
    text += " and " + withSeparators(items.size() - shown) + " more";
  return text;
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

namespace {
/// A colour of the bars, and what it means.
struct Swatch {
  const char *color, *meaning;
};
} // namespace

// Every colour, explained, on one line that the image is wide enough for.
static const Swatch kLegend[] = {
    {"#4e79a7", "delegate payload"},
    {"#f28e2b", "payload shared by several entries"},
    {"#59a14f", "named, constant or mutable data"},
    {"#e15759", "identical to another blob"},
    {"#bab0ac", "unused"}};
static constexpr unsigned kRowHeight = 26, kBarWidth = 520;

/// The title, the totals and the legend.
static void printSVGHeader(const Summary &summary, unsigned width,
                           unsigned height, uint64_t largest, raw_ostream &os) {
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " "
     << height << "\" font-family=\"sans-serif\" font-size=\"13\">\n";
  os << "<title>emit summary of " << escapeHTML(summary.name) << "</title>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  os << "<text x=\"16\" y=\"28\" font-size=\"18\" font-weight=\"bold\">"
     << escapeHTML(summary.name) << "</text>\n";
  os << "<text x=\"16\" y=\"52\" id=\"totals\">"
     << countOf(summary.blobs.size(), "blob") << ", "
     << humanBytes(summary.storedBytes) << " stored; "
     << humanBytes(summary.storedBytesAfterDedup)
     << " after --dedup-delegate-blobs (saves "
     << humanBytes(summary.dedupSaves()) << ")";
  if (summary.releases)
    os << "; loads on runtime releases "
       << escapeHTML(summary.releases->loading);
  os << "</text>\n";
  unsigned x = 16;
  for (const Swatch &swatch : kLegend) {
    os << "<rect x=\"" << x << "\" y=\"68\" width=\"12\" height=\"12\" fill=\""
       << swatch.color << "\"/><text x=\"" << x + 16 << "\" y=\"79\">"
       << swatch.meaning << "</text>\n";
    x += 24 + std::strlen(swatch.meaning) * 15 / 2;
  }
  os << "<text x=\"16\" y=\"104\" fill=\"#555555\">bar length: bytes, "
        "scaled to the largest blob ("
     << humanBytes(largest) << ")</text>\n";
}

/// One blob's bar at `y`, its length scaled to `largest`.
static void printSVGRow(const Blob &blob, unsigned y, unsigned barLeft,
                        uint64_t largest, raw_ostream &os) {
  unsigned length = std::max<unsigned>(
      1, static_cast<unsigned>(double(blob.size) / largest * kBarWidth));
  const char *color = blob.identical          ? "#e15759"
                      : blob.users.size() > 1 ? "#f28e2b"
                      : !blob.users.empty()   ? "#4e79a7"
                      : blob.roles.empty()    ? "#bab0ac"
                                              : "#59a14f";
  std::string roles =
      blob.roles.empty() ? "unused" : llvm::join(blob.roles, ", ");
  os << "<g class=\"blob\" data-name=\"" << escapeHTML(blob.name)
     << "\" data-size=\"" << blob.size << "\" data-users=\""
     << blob.users.size() << "\">\n";
  os << "  <title>" << escapeHTML(blob.name) << ": " << exactBytes(blob.size)
     << ", align " << blob.alignment << "; " << escapeHTML(roles);
  if (!blob.users.empty())
    os << "; used by " << escapeHTML(llvm::join(blob.users, ", "));
  os << "</title>\n";
  os << "  <text x=\"16\" y=\"" << y + 15 << "\">" << escapeHTML(blob.name)
     << "</text>\n";
  os << "  <rect x=\"" << barLeft << "\" y=\"" << y << "\" width=\"" << length
     << "\" height=\"" << kRowHeight - 6 << "\" fill=\"" << color << "\"/>\n";
  os << "  <text x=\"" << barLeft + length + 6 << "\" y=\"" << y + 15 << "\">"
     << humanBytes(blob.size)
     << (blob.users.size() > 1
             ? ", " + std::to_string(blob.users.size()) + " entries"
             : std::string())
     << "</text>\n";
  os << "</g>\n";
}

void summary::printSVG(const Summary &summary, raw_ostream &os) {
  SmallVector<unsigned> rows = rowsToDraw(summary);
  uint64_t hiddenCount = summary.blobs.size() - rows.size(), hiddenBytes = 0;
  if (hiddenCount) {
    DenseSet<unsigned> shown(rows.begin(), rows.end());
    for (auto [index, blob] : llvm::enumerate(summary.blobs))
      if (!shown.contains(index))
        hiddenBytes += blob.size;
  }
  // Names get the column they need (about 7.5 px a character at 13 px).
  size_t longest = 12;
  for (unsigned row : rows)
    longest = std::max(longest, summary.blobs[row].name.size());
  const unsigned barLeft = 24 + std::min<size_t>(longest, 48) * 15 / 2;
  unsigned legendWidth = 2 * 16; // Both margins.
  for (const Swatch &swatch : kLegend)
    legendWidth += 24 + std::strlen(swatch.meaning) * 15 / 2;
  const unsigned width = std::max(barLeft + kBarWidth + 260, legendWidth);
  unsigned drawnRows = rows.size() + (hiddenCount ? 1 : 0);
  unsigned height = 150 + kRowHeight * drawnRows;
  uint64_t largest = 1;
  for (const Blob &blob : summary.blobs)
    largest = std::max(largest, blob.size);
  printSVGHeader(summary, width, height, largest, os);

  unsigned y = 118;
  for (unsigned row : rows) {
    printSVGRow(summary.blobs[row], y, barLeft, largest, os);
    y += kRowHeight;
  }
  if (hiddenCount)
    os << "<text x=\"16\" y=\"" << y + 15 << "\" fill=\"#555555\" id=\"more\">"
       << countOf(hiddenCount, "more blob") << ", " << humanBytes(hiddenBytes)
       << " in all</text>\n";
  os << "</svg>\n";
}

//===----------------------------------------------------------------------===//
// HTML
//===----------------------------------------------------------------------===//

static void printKinds(const Summary &summary, raw_ostream &os) {
  SmallVector<BytePart> parts = getByteParts(summary);
  uint64_t total = 0;
  for (const BytePart &part : parts)
    total += part.bytes;
  printSectionStart(os, "kinds", "Where the bytes go");
  os << "<div class=\"bar\">";
  for (const BytePart &part : parts)
    if (part.bytes)
      os << "<span class=\"k-" << part.key << "\" style=\"width:"
         << llvm::format("%.3f",
                         100.0 * part.bytes / std::max<uint64_t>(total, 1))
         << "%\" title=\"" << part.label << ": " << humanBytes(part.bytes)
         << "\"></span>";
  os << "</div>\n<div class=\"legend\">\n";
  for (const BytePart &part : parts)
    os << "<span class=\"part\" data-kind=\"" << part.key << "\" data-bytes=\""
       << part.bytes << "\"><i class=\"swatch k-" << part.key << "\"></i>"
       << part.label << " <b>" << humanBytes(part.bytes) << "</b> ("
       << percent(part.bytes, total) << ")</span>\n";
  os << "</div></section>\n";
}

static void printIdentical(const Summary &summary, raw_ostream &os) {
  StringRef items = summary.dataFile ? "segments" : "blobs";
  printSectionStart(os, "identical", "Identical data");
  if (summary.identical.empty()) {
    os << "<p>No two " << items << " hold the same bytes.</p></section>\n";
    return;
  }
  uint64_t saving = 0;
  for (const IdenticalGroup &group : summary.identical)
    saving += group.size * (group.blobs.size() - 1);
  os << "<p>" << countOf(summary.identical.size(), "group") << " of " << items
     << (summary.identical.size() == 1 ? " holds" : " hold")
     << " byte-identical data: storing each once would save "
     << humanBytes(saving) << ". <code>--dedup-delegate-blobs</code> saves "
     << humanBytes(summary.dedupSaves());
  if (summary.dedupSaves() != saving)
    os << " of it: it keeps inline payloads apart from segments, and a "
          "segment's entries count as one blob here";
  os << ".</p>\n";
  std::string described =
      (items + " and " + (summary.dataFile ? "their keys" : "what uses them"))
          .str();
  printTableStart(os, {numberColumn("copies"),
                       numberColumn("size each"),
                       numberColumn("would save"),
                       {described}});
  uint64_t restSaving = 0, restGroups = 0;
  for (auto [index, group] : llvm::enumerate(summary.identical)) {
    uint64_t saves = group.size * (group.blobs.size() - 1);
    if (index >= kMaxGroups) {
      restSaving += saves;
      ++restGroups;
      continue;
    }
    os << "<tr class=\"group\" data-copies=\"" << group.blobs.size()
       << "\" data-size=\"" << group.size << "\"><td class=\"num\">"
       << group.blobs.size() << "</td><td class=\"num\">"
       << humanBytes(group.size) << "</td><td class=\"num\">"
       << humanBytes(saves) << "</td><td>";
    for (auto [position, blob] : llvm::enumerate(group.blobs)) {
      if (position == 6) {
        os << " and " << group.blobs.size() - 6 << " more";
        break;
      }
      const Blob &info = summary.blobs[blob];
      os << (position ? "; " : "") << "<b>" << escapeHTML(info.name) << "</b>";
      // Delegate entries use a payload; data is used by its keys.
      ArrayRef<std::string> uses =
          info.users.empty() ? ArrayRef(info.roles) : ArrayRef(info.users);
      if (!uses.empty())
        os << " (" << escapeHTML(firstFew(uses, 2)) << ")";
    }
    os << "</td></tr>\n";
  }
  if (restGroups)
    os << "<tr class=\"more\"><td colspan=\"4\">and "
       << countOf(restGroups, "more group") << ", saving "
       << humanBytes(restSaving) << "</td></tr>\n";
  printTableEnd(os, /*section=*/true);
}

static void printMethods(const Summary &summary, raw_ostream &os) {
  if (summary.methods.empty())
    return;
  uint64_t largest = 1;
  for (const Method &method : summary.methods)
    largest = std::max(largest, method.referencedBytes);
  printSectionStart(os, "methods", "By method");
  SmallVector<TableColumn> columns = {{"method"},
                                      numberColumn("instructions"),
                                      numberColumn("kernel calls"),
                                      numberColumn("planned")};
  llvm::append_range(columns, memory::getAllocatorColumns());
  llvm::append_range(columns,
                     ArrayRef<TableColumn>{numberColumn("delegate calls"),
                                           numberColumn("entries"),
                                           numberColumn("payloads referenced"),
                                           numberColumn("distinct"),
                                           {"", false, "", "width:20%"}});
  printTableStart(os, columns);
  for (const Method &method : summary.methods) {
    os << "<tr class=\"method\" data-name=\"" << escapeHTML(method.name)
       << "\"><td>" << escapeHTML(method.name) << "</td><td class=\"num\">"
       << withSeparators(method.instructions) << "</td><td class=\"num\">"
       << withSeparators(method.kernelCalls) << "</td><td class=\"num\">"
       << exactBytes(method.plannedBytes) << "</td>";
    for (size_t index = 0; index < memory::getRuntimeTargets().size(); ++index)
      os << "<td class=\"num\">"
         << (index < method.methodAllocatorBytes.size()
                 ? exactBytes(method.methodAllocatorBytes[index])
                 : std::string("-"))
         << "</td>";
    os << "<td class=\"num\">" << withSeparators(method.calls)
       << "</td><td class=\"num\">" << withSeparators(method.entries)
       << "</td><td class=\"num\">" << humanBytes(method.referencedBytes)
       << "</td><td class=\"num\">" << humanBytes(method.distinctBytes)
       << "</td><td><div class=\"meter k-delegate\" style=\"width:"
       << llvm::format("%.1f", 100.0 * method.referencedBytes / largest)
       << "%\"></div></td></tr>\n";
  }
  printTableEnd(os, /*section=*/true);
}

static void printBackends(const Summary &summary, raw_ostream &os) {
  if (summary.backends.empty())
    return;
  printSectionStart(os, "backends", "By backend");
  printTableStart(os, {{"backend"},
                       numberColumn("entries"),
                       {"methods"},
                       numberColumn("payloads referenced"),
                       numberColumn("distinct")});
  for (const Backend &backend : summary.backends)
    os << "<tr class=\"backend\" data-id=\"" << escapeHTML(backend.id)
       << "\"><td>" << escapeHTML(backend.id) << "</td><td class=\"num\">"
       << withSeparators(backend.entries) << "</td><td>"
       << escapeHTML(llvm::join(backend.methods, ", "))
       << "</td><td class=\"num\">" << humanBytes(backend.referencedBytes)
       << "</td><td class=\"num\">" << humanBytes(backend.distinctBytes)
       << "</td></tr>\n";
  printTableEnd(os, /*section=*/true);
}

static void printBlobs(const Summary &summary, raw_ostream &os) {
  SmallVector<unsigned> rows(summary.blobs.size());
  std::iota(rows.begin(), rows.end(), 0);
  llvm::stable_sort(rows, [&](unsigned a, unsigned b) {
    return summary.blobs[a].size > summary.blobs[b].size;
  });
  uint64_t largest =
      rows.empty() ? 1 : std::max<uint64_t>(1, summary.blobs[rows[0]].size);
  printSectionStart(os, "blobs",
                    summary.dataFile ? "Largest segments" : "Largest blobs");
  printTableStart(os, {{summary.dataFile ? "segment" : "blob"},
                       {"what"},
                       numberColumn("size"),
                       {"", false, "", "width:20%"},
                       {summary.dataFile ? "" : "used by"}});
  // As in the SVG: at most kMaxRows rows, the last one summing up the rest.
  const size_t shown = rows.size() <= kMaxRows ? rows.size() : kMaxRows - 1;
  uint64_t restBytes = 0, restCount = 0;
  for (auto [position, index] : llvm::enumerate(rows)) {
    const Blob &blob = summary.blobs[index];
    if (position >= shown) {
      restBytes += blob.size;
      ++restCount;
      continue;
    }
    os << "<tr class=\"blob\" data-name=\"" << escapeHTML(blob.name)
       << "\" data-size=\"" << blob.size << "\"><td>" << escapeHTML(blob.name)
       << "</td><td><i class=\"swatch k-" << getKindKey(blob.kind) << "\"></i>"
       << escapeHTML(blob.roles.empty() ? std::string("unused")
                                        : llvm::join(blob.roles, ", "))
       << (blob.inlineData ? " (inline)" : "");
    if (blob.identical)
      os << " <span class=\"dup\">identical to "
         << summary.identical[*blob.identical].blobs.size() - 1 << " other"
         << (summary.identical[*blob.identical].blobs.size() > 2 ? "s" : "")
         << "</span>";
    os << "</td><td class=\"num\" title=\"" << exactBytes(blob.size) << "\">"
       << humanBytes(blob.size) << "</td><td><div class=\"meter k-"
       << getKindKey(blob.kind) << "\" style=\"width:"
       << llvm::format("%.1f", 100.0 * blob.size / largest)
       << "%\"></div></td><td>" << escapeHTML(firstFew(blob.users))
       << "</td></tr>\n";
  }
  if (restCount)
    os << "<tr class=\"more\"><td colspan=\"5\">and "
       << countOf(restCount, "more blob") << ", " << humanBytes(restBytes)
       << " in all</td></tr>\n";
  printTableEnd(os, /*section=*/true);
}

void summary::printHTML(const Summary &summary, raw_ostream &os) {
  printPageStart(os, "emit: " + escapeHTML(summary.name));
  os << "<h1>" << escapeHTML(summary.name) << "</h1>\n";
  os << "<p class=\"lead\" id=\"headline\">"
     << (summary.dataFile ? "Data file" : "Program");
  if (summary.fileBytes)
    os << " of " << humanBytes(*summary.fileBytes);
  if (summary.dataFile)
    os << ": " << countOf(summary.blobs.size(), "segment") << ", "
       << countOf(summary.keys, "key") << ".";
  else
    os << ": " << countOf(summary.methods.size(), "method") << ", "
       << countOf(summary.entryCount, "delegate entry", "delegate entries")
       << ", " << countOf(summary.callCount, "delegate call") << ", "
       << countOf(summary.blobs.size(), "blob") << ".";
  os << " <strong id=\"saves\" data-bytes=\"" << summary.dedupSaves()
     << "\">Deduplication would save " << humanBytes(summary.dedupSaves())
     << "</strong>";
  if (summary.storedBytes)
    os << " (" << percent(summary.dedupSaves(), summary.storedBytes)
       << " of the " << humanBytes(summary.storedBytes) << " of data stored)";
  os << ".</p>\n";
  if (!summary.dataFile && summary.referencedBytes)
    os << "<p class=\"muted\">Delegate payloads: "
       << humanBytes(summary.referencedBytes) << " referenced by entries, "
       << humanBytes(summary.storedPayloadBytes) << " stored.</p>\n";
  if (summary.releases)
    os << "<p class=\"muted\" id=\"releases\">Runtime releases that load "
          "it: "
       << escapeHTML(summary.releases->loading)
       << " (<code>emit-verify --runtime=all</code> says why).</p>\n";
  if (const auto &kernels = summary.kernels) {
    os << "<p class=\"muted\" id=\"kernels\">Kernels ("
       << escapeHTML(kernels->build) << ", " << escapeHTML(kernels->release)
       << "): " << kernels->kernelCalls << " kernel calls besides prim ops, "
       << kernels->countMissingCalls() << " with no kernel in the build.</p>\n";
    if (!kernels->missing.empty()) {
      os << "<ul class=\"missing-kernels\">\n";
      for (const kernels::MissingKernelCalls &calls : kernels->missing)
        os << "<li>" << escapeHTML(kernels::describeMissingCalls(calls))
           << "</li>\n";
      os << "</ul>\n";
    }
  }
  printKinds(summary, os);
  printIdentical(summary, os);
  printMethods(summary, os);
  printBackends(summary, os);
  printBlobs(summary, os);
  os << "<p class=\"muted\">Written by <code>emit-translate --pte-summary "
        "--pte-summary-format=html</code>.</p>\n";
  printPageEnd(os);
}
