//===- MemoryPage.cpp - emit-memory's report as one HTML page -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The numbers a user sizes pools with first (per method: method allocator
// bytes per target, planned bytes, peaks), then per method a picture of
// each planned buffer: instructions left to right, offsets top to bottom,
// one box per tensor (its name, bytes and lifetime on hover), the tensors
// of an overlap in red. The page is self-contained: no script, no fetch.
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/MemoryReport.h"
#include "emit/Memory/RuntimeModel.h"
#include "emit/Support/Page.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"

using namespace emit;
using namespace emit::memory;

/// Boxes drawn per buffer: the largest tensors (and every one in an
/// overlap); the page says how many more there are.
static constexpr unsigned kPictureWidth = 1000, kPictureHeight = 220;

static const char kMemoryStyle[] = R"css(
svg.buffer { width: 100%; height: 220px; border: 1px solid #ccc;
             border-radius: 4px; background: #fafafa; }
svg.buffer rect { fill: #4e79a7; fill-opacity: 0.55; stroke: #2b4a6b;
                  stroke-width: 0.5; }
svg.buffer rect.overlap { fill: #e15759; fill-opacity: 0.85;
                          stroke: #8b1a1c; }
)css";
static const char kFindingStyle[] =
    ".finding.error { color: #b00020; } .finding.note { color: #555; }\n";

ArrayRef<TableColumn> memory::getAllocatorColumns() {
  // Built once; the columns point into the labels, all made first.
  struct Columns {
    std::vector<std::string> labels;
    std::vector<TableColumn> columns;
    Columns() {
      for (const RuntimeTarget &target : getRuntimeTargets())
        labels.push_back(("method allocator, " + target.name + "-bit").str());
      for (auto [target, label] : llvm::zip(getRuntimeTargets(), labels))
        columns.push_back(numberColumn(label, target.description));
    }
  };
  static const Columns built;
  return built.columns;
}

static void printSummaryTable(const MemoryReport &report, raw_ostream &os) {
  printSectionStart(os, "pools", "Pools");
  SmallVector<TableColumn> columns = {{"method"}};
  llvm::append_range(columns, getAllocatorColumns());
  llvm::append_range(
      columns, ArrayRef<TableColumn>{numberColumn("planned"),
                                     numberColumn("peak live"),
                                     numberColumn("instructions"),
                                     {"backends (allocate more in init)"}});
  printTableStart(os, columns);
  for (const MethodMemory &method : report.methods) {
    uint64_t peak = 0;
    for (const PlannedBuffer &buffer : method.buffers)
      peak += buffer.peakLiveBytes;
    os << "<tr class=\"method\" data-name=\"" << escapeHTML(method.name)
       << "\"><td>" << escapeHTML(method.name) << "</td>";
    for (uint64_t bytes : method.methodAllocatorBytes)
      os << "<td class=\"num\">" << exactBytes(bytes) << "</td>";
    os << "<td class=\"num\">" << exactBytes(method.getPlannedBytes())
       << "</td><td class=\"num\">" << exactBytes(peak)
       << "</td><td class=\"num\">" << withSeparators(method.instructions)
       << "</td><td>";
    for (auto [index, backend] : llvm::enumerate(method.backends))
      os << (index ? ", " : "") << escapeHTML(backend.id) << " &times;"
         << backend.delegates;
    os << "</td></tr>\n";
  }
  printTableEnd(os, /*section=*/true);
}

/// The tensors of buffer `memoryId` to draw: live ones, those of an
/// overlap first, then the largest.
static SmallVector<const PlannedTensor *>
tensorsToDraw(const MethodMemory &method, uint32_t memoryId,
              const llvm::DenseSet<uint32_t> &overlapping, size_t &total) {
  SmallVector<const PlannedTensor *> tensors;
  for (const PlannedTensor &tensor : method.tensors)
    if (tensor.memoryId == memoryId && tensor.lifetime)
      tensors.push_back(&tensor);
  total = tensors.size();
  llvm::stable_sort(tensors,
                    [&](const PlannedTensor *a, const PlannedTensor *b) {
                      bool aOverlaps = overlapping.contains(a->value);
                      bool bOverlaps = overlapping.contains(b->value);
                      if (aOverlaps != bOverlaps)
                        return aOverlaps;
                      return a->bytes > b->bytes;
                    });
  if (tensors.size() > kMaxPictureBoxes)
    tensors.resize(kMaxPictureBoxes);
  return tensors;
}

static void printBuffer(const MethodMemory &method, const PlannedBuffer &buffer,
                        const llvm::DenseSet<uint32_t> &overlapping,
                        raw_ostream &os) {
  size_t total = 0;
  SmallVector<const PlannedTensor *> tensors =
      tensorsToDraw(method, buffer.memoryId, overlapping, total);
  uint64_t steps = std::max(method.instructions, 1u);
  uint64_t bytes = std::max<uint64_t>(buffer.bytes, 1);
  for (const PlannedTensor *tensor : tensors)
    bytes = std::max(bytes, tensor->offset + tensor->bytes);
  os << "<h3>buffer " << buffer.memoryId << " (" << escapeHTML(buffer.device)
     << "): " << exactBytes(buffer.bytes) << ", at most "
     << exactBytes(buffer.peakLiveBytes) << " live at once</h3>\n";
  if (tensors.size() < total)
    os << "<p class=\"muted\">The " << tensors.size() << " largest of "
       << withSeparators(total) << " tensors.</p>\n";
  // One unit per instruction across, one per byte down, stretched to fit.
  os << "<svg class=\"buffer\" data-buffer=\"" << buffer.memoryId
     << "\" viewBox=\"0 0 " << steps << " " << bytes
     << "\" preserveAspectRatio=\"none\" width=\"" << kPictureWidth
     << "\" height=\"" << kPictureHeight
     << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (const PlannedTensor *tensor : tensors) {
    std::string label = "value " + std::to_string(tensor->value);
    if (!tensor->name.empty())
      label += (" '" + tensor->name + "'").str();
    bool overlaps = overlapping.contains(tensor->value);
    os << "<rect" << (overlaps ? " class=\"overlap\"" : "") << " data-value=\""
       << tensor->value << "\" x=\"" << tensor->lifetime->first << "\" y=\""
       << tensor->offset << "\" width=\""
       << tensor->lifetime->last - tensor->lifetime->first + 1 << "\" height=\""
       << std::max<uint64_t>(tensor->bytes, 1)
       << "\" vector-effect=\"non-scaling-stroke\"><title>" << escapeHTML(label)
       << ": " << exactBytes(tensor->bytes) << " at offset "
       << withSeparators(tensor->offset) << ", live at instructions "
       << tensor->lifetime->first << " to " << tensor->lifetime->last
       << (overlaps ? "; OVERLAPS" : "") << "</title></rect>\n";
  }
  os << "</svg>\n<div class=\"axis\"><span>instruction 0</span><span>"
        "instructions &rarr; (offsets top to bottom)</span><span>instruction "
     << steps - 1 << "</span></div>\n";
}

static void printMethod(const MethodMemory &method, raw_ostream &os) {
  os << "<section class=\"method-detail\" data-name=\""
     << escapeHTML(method.name) << "\"><h2>" << escapeHTML(method.name)
     << "</h2>\n<p class=\"muted\">" << withSeparators(method.instructions)
     << " instructions (" << withSeparators(method.kernelCalls)
     << " kernel calls, " << withSeparators(method.delegateCalls)
     << " delegate calls), " << withSeparators(method.tensors.size())
     << " planned tensors</p>\n";
  for (const Finding &finding : method.findings.findings)
    printFindingHTML(finding, /*labelled=*/true, os);
  llvm::DenseSet<uint32_t> overlapping;
  for (auto [a, b] : method.overlaps) {
    overlapping.insert(a);
    overlapping.insert(b);
  }
  for (const PlannedBuffer &buffer : method.buffers)
    printBuffer(method, buffer, overlapping, os);
  os << "</section>\n";
}

void memory::printMemoryHTML(const MemoryReport &report, raw_ostream &os) {
  printPageStart(os, "emit memory of " + escapeHTML(report.file),
                 {kMemoryStyle, kAxisStyle, kFindingStyle});
  os << "<h1>" << escapeHTML(report.file) << "</h1>\n<p class=\"lead\">"
     << "Memory per method: the method allocator pool each target needs "
        "(a bump allocator over a 64-byte-aligned pool, with a temp "
        "allocator given), and the planned buffers.</p>\n<p class=\"muted\">"
        "ExecuTorch runtime "
     << escapeHTML(getRuntimeRevision()) << "; "
     << report.count(Severity::Error) << " errors, "
     << report.count(Severity::Note) << " notes.</p>\n";
  // The file's findings the report holds are its errors.
  for (const Finding &finding : report.findings.findings)
    printFindingHTML(finding, /*labelled=*/false, os);
  printSummaryTable(report, os);
  for (const MethodMemory &method : report.methods)
    printMethod(method, os);
  printPageEnd(os);
}
