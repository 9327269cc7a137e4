//===- PTESummary.cpp - A readable summary of a program ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a program holds and where its bytes go: methods, delegate calls,
// blobs with their sizes and roles, which calls share which blob, and what
// --dedup-delegate-blobs would save. As text, or as a self-contained SVG
// page with a size breakdown.
//
//===----------------------------------------------------------------------===//

#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
struct BlobInfo {
  std::string name;
  uint64_t size = 0;
  uint64_t alignment = 1;
  bool inlineData = false;
  SmallVector<std::string, 2> roles;
  SmallVector<std::string> users; // "method#entry (backend)"
};

struct MethodInfo {
  std::string name;
  unsigned values = 0, chains = 0, instructions = 0, calls = 0, entries = 0;
};

struct Summary {
  std::string program;
  bool dataFile = false; // A .ptd: no methods, every blob named data.
  unsigned keys = 0;
  SmallVector<MethodInfo> methods;
  SmallVector<BlobInfo> blobs;
  uint64_t callCount = 0, entryCount = 0;
  uint64_t referencedBytes = 0; // Payload bytes counted once per entry.
  uint64_t storedPayloadBytes = 0;
  uint64_t storedBytes = 0; // All blobs something refers to.
};
} // namespace

/// What a data file holds: its segments and the keys that name them.
static Summary summarize(DataFileOp dataFile) {
  Summary summary;
  summary.program = dataFile.getSymName().str();
  summary.dataFile = true;
  llvm::StringMap<unsigned> blobIndex;
  for (BlobOp blob : dataFile.getBlobs()) {
    blobIndex[blob.getSymName()] = summary.blobs.size();
    BlobInfo info;
    info.name = blob.getSymName().str();
    info.size = cast<ShapedType>(blob.getData().getType()).getNumElements();
    info.alignment = blob.getAlignment();
    summary.blobs.push_back(std::move(info));
  }
  for (NamedDataOp named : dataFile.getNamedData()) {
    ++summary.keys;
    auto it = blobIndex.find(named.getBlob());
    if (it == blobIndex.end())
      continue;
    std::string role = ("\"" + named.getKey() + "\"").str();
    if (TensorLayoutAttr layout = named.getLayoutAttr()) {
      llvm::raw_string_ostream stream(role);
      stream << " " << layout;
    }
    summary.blobs[it->second].roles.push_back(std::move(role));
  }
  for (const BlobInfo &blob : summary.blobs)
    summary.storedBytes += blob.size;
  return summary;
}

static Summary summarize(ProgramOp program) {
  Summary summary;
  summary.program = program.getSymName().str();
  llvm::StringMap<unsigned> blobIndex;
  for (BlobOp blob : program.getBlobs()) {
    blobIndex[blob.getSymName()] = summary.blobs.size();
    BlobInfo info;
    info.name = blob.getSymName().str();
    info.size = cast<ShapedType>(blob.getData().getType()).getNumElements();
    info.alignment = blob.getAlignment();
    info.inlineData = blob.isInline();
    summary.blobs.push_back(std::move(info));
  }
  auto addRole = [&](std::optional<StringRef> blob, std::string role) {
    if (blob && blobIndex.count(*blob))
      summary.blobs[blobIndex[*blob]].roles.push_back(std::move(role));
  };
  if (ConstantSegmentOp segment = program.getConstantSegment())
    addRole(segment.getBlob(), "constant segment");
  for (auto [index, segment] :
       llvm::enumerate(program.getMutableDataSegments()))
    addRole(segment.getBlob(), "mutable data " + std::to_string(index));
  for (NamedDataOp named : program.getNamedData())
    addRole(named.getBlob(), ("named data \"" + named.getKey() + "\"").str());
  for (MethodOp method : program.getMethods()) {
    MethodInfo info;
    info.name = method.getSymName().str();
    info.values = method.getValueDecls().size();
    for (ChainOp chain : method.getChains()) {
      ++info.chains;
      info.instructions += chain.getBody().front().getOperations().size();
    }
    method.walk([&](CallDelegateOp) { ++info.calls; });
    summary.callCount += info.calls;
    for (DelegateOp entry : method.getDelegates()) {
      std::string user = (info.name + "#" + Twine(info.entries++) + " (" +
                          entry.getBackendId() + ")")
                             .str();
      ++summary.entryCount;
      if (FlatSymbolRefAttr symbol = entry.getPayloadSymbol()) {
        auto it = blobIndex.find(symbol.getValue());
        if (it != blobIndex.end()) {
          BlobInfo &blob = summary.blobs[it->second];
          if (blob.users.empty())
            blob.roles.push_back("delegate payload");
          blob.users.push_back(user);
          summary.referencedBytes += blob.size;
        }
      } else if (et::BlobAttr payload = entry.getInlinePayload()) {
        summary.referencedBytes +=
            cast<ShapedType>(payload.getData().getType()).getNumElements();
        summary.storedPayloadBytes +=
            cast<ShapedType>(payload.getData().getType()).getNumElements();
      }
    }
    summary.methods.push_back(std::move(info));
  }
  for (const BlobInfo &blob : summary.blobs) {
    if (blob.roles.empty())
      continue;
    summary.storedBytes += blob.size;
    if (!blob.users.empty())
      summary.storedPayloadBytes += blob.size;
  }
  return summary;
}

static std::string bytes(uint64_t count) {
  std::string digits = std::to_string(count), result;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      result += ',';
    result += digits[i];
  }
  return result + " B";
}

static void printText(const Summary &before, const Summary &after,
                      raw_ostream &os) {
  if (before.dataFile) {
    os << "data file " << before.program << ": " << before.blobs.size()
       << " segments, " << before.keys << " keys, " << bytes(before.storedBytes)
       << " stored\n";
    os << "segments:\n";
    for (const BlobInfo &blob : before.blobs)
      os << "  " << blob.name << ": " << bytes(blob.size) << ", align "
         << blob.alignment << "; "
         << (blob.roles.empty() ? std::string("no key")
                                : "keys " + llvm::join(blob.roles, ", "))
         << "\n";
    os << "after --dedup-delegate-blobs: " << after.blobs.size()
       << " segments, " << bytes(after.storedBytes) << " stored (saves "
       << bytes(before.storedBytes - after.storedBytes) << ")\n";
    return;
  }
  os << "program " << before.program << ": " << before.methods.size()
     << " methods, " << before.entryCount << " delegate entries, "
     << before.callCount << " delegate calls, " << before.blobs.size()
     << " blobs\n";
  os << "  delegate payloads: " << bytes(before.referencedBytes)
     << " referenced by entries, " << bytes(before.storedPayloadBytes)
     << " stored\n";
  os << "methods:\n";
  for (const MethodInfo &method : before.methods)
    os << "  " << method.name << ": " << method.values << " values, "
       << method.chains << " chains, " << method.instructions
       << " instructions, " << method.entries << " delegate entries, "
       << method.calls << " delegate calls\n";
  os << "blobs:\n";
  for (const BlobInfo &blob : before.blobs) {
    os << "  " << blob.name << ": " << bytes(blob.size) << ", align "
       << blob.alignment << (blob.inlineData ? ", inline" : "") << "; "
       << (blob.roles.empty() ? std::string("unused")
                              : llvm::join(blob.roles, ", "));
    if (blob.users.size() > 1)
      os << "; shared by " << blob.users.size() << " entries";
    if (!blob.users.empty())
      os << ": " << llvm::join(blob.users, ", ");
    os << "\n";
  }
  os << "after --dedup-delegate-blobs: " << after.blobs.size() << " blobs, "
     << bytes(after.storedPayloadBytes) << " of payloads stored (saves "
     << bytes(before.storedPayloadBytes - after.storedPayloadBytes) << ")\n";
}

static std::string escape(StringRef text) {
  std::string result;
  for (char c : text) {
    switch (c) {
    case '&':
      result += "&amp;";
      break;
    case '<':
      result += "&lt;";
      break;
    case '>':
      result += "&gt;";
      break;
    case '"':
      result += "&quot;";
      break;
    default:
      result += c;
    }
  }
  return result;
}

/// One bar per blob, scaled to the largest; shared payloads stand out.
static void printSVG(const Summary &before, const Summary &after,
                     raw_ostream &os) {
  const unsigned width = 960, barLeft = 260, barWidth = 560, rowHeight = 26;
  unsigned height = 110 + rowHeight * before.blobs.size();
  uint64_t largest = 1;
  for (const BlobInfo &blob : before.blobs)
    largest = std::max(largest, blob.size);
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " "
     << height << "\" font-family=\"sans-serif\" font-size=\"13\">\n";
  os << "<title>emit summary of " << escape(before.program) << "</title>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  os << "<text x=\"16\" y=\"28\" font-size=\"18\" font-weight=\"bold\">"
     << escape(before.program) << "</text>\n";
  os << "<text x=\"16\" y=\"52\" id=\"totals\">" << before.methods.size()
     << " methods, " << before.entryCount << " delegate entries; payloads "
     << bytes(before.storedPayloadBytes) << " stored, "
     << bytes(after.storedPayloadBytes)
     << " after --dedup-delegate-blobs</text>\n";
  os << "<text x=\"16\" y=\"76\" fill=\"#555555\">bar length: bytes; "
        "orange: payload shared by several delegate entries</text>\n";
  for (auto [row, blob] : llvm::enumerate(before.blobs)) {
    unsigned y = 96 + row * rowHeight;
    unsigned length = std::max<unsigned>(
        1, static_cast<unsigned>(double(blob.size) / largest * barWidth));
    const char *color = blob.users.size() > 1 ? "#f28e2b"
                        : !blob.users.empty() ? "#4e79a7"
                        : blob.roles.empty()  ? "#bab0ac"
                                              : "#59a14f";
    std::string roles =
        blob.roles.empty() ? "unused" : llvm::join(blob.roles, ", ");
    os << "<g class=\"blob\" data-name=\"" << escape(blob.name)
       << "\" data-size=\"" << blob.size << "\" data-users=\""
       << blob.users.size() << "\">\n";
    os << "  <title>" << escape(blob.name) << ": " << bytes(blob.size)
       << ", align " << blob.alignment << "; " << escape(roles);
    if (!blob.users.empty())
      os << "; used by " << escape(llvm::join(blob.users, ", "));
    os << "</title>\n";
    os << "  <text x=\"16\" y=\"" << y + 15 << "\">" << escape(blob.name)
       << "</text>\n";
    os << "  <rect x=\"" << barLeft << "\" y=\"" << y << "\" width=\"" << length
       << "\" height=\"" << rowHeight - 6 << "\" fill=\"" << color << "\"/>\n";
    os << "  <text x=\"" << barLeft + length + 6 << "\" y=\"" << y + 15 << "\">"
       << bytes(blob.size)
       << (blob.users.size() > 1
               ? " x" + std::to_string(blob.users.size()) + " entries"
               : std::string())
       << "</text>\n";
    os << "</g>\n";
  }
  os << "</svg>\n";
}

LogicalResult emit::printPTESummary(ModuleOp module, raw_ostream &os,
                                    PTESummaryFormat format) {
  // The module's program, or else its data file.
  auto summarizeModule = [](ModuleOp module) -> std::optional<Summary> {
    auto programs = llvm::to_vector(module.getOps<ProgramOp>());
    auto dataFiles = llvm::to_vector(module.getOps<DataFileOp>());
    if (programs.size() == 1)
      return summarize(programs.front());
    if (programs.empty() && dataFiles.size() == 1)
      return summarize(dataFiles.front());
    return std::nullopt;
  };
  std::optional<Summary> before = summarizeModule(module);
  if (!before)
    return mlir::emitError(module.getLoc(), "expected one 'et.program' or "
                                            "one 'et.data_file' to summarize");

  // What deduplication would store: run the pass on a copy.
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(module.getContext());
  pm.addPass(et::createDedupDelegateBlobs());
  if (failed(pm.run(*copy)))
    return failure();
  Summary after = *summarizeModule(*copy);

  if (format == PTESummaryFormat::SVG)
    printSVG(*before, after, os);
  else
    printText(*before, after, os);
  return success();
}
