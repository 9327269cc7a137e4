//===- LinkReport.cpp - What linking saved, per input -----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Link/LinkReport.h"

using namespace mlir;
using namespace emit;
using namespace emit::link;
namespace dedup = emit::et::dedup;

namespace {
/// Finds the input file a blob or a constant entry came from.
class OriginFinder {
public:
  OriginFinder(const Linker::Origins &origins, ArrayRef<Input> programs)
      : origins(origins) {
    for (const Input &program : programs)
      programFiles[et::ProgramOp(program.program).getSymName().str()] =
          program.path;
  }

  /// The input of `blob` in `container`: where the linker took it from, or
  /// the file of the program that holds it.
  std::string ofBlob(StringRef container, StringRef blob) const {
    if (StringRef origin = origins.blobOrigin(container, blob); !origin.empty())
      return origin.str();
    auto program = programFiles.find(container.str());
    return program == programFiles.end() ? std::string() : program->second;
  }

  /// The input whose entry of the merged constant segment `entry` is, or
  /// "" when the segment was not merged.
  std::string ofConstantEntry(uint64_t entry) const {
    for (const auto &range : origins.constantEntries)
      if (entry >= range.second.first && entry <= range.second.second)
        return range.first().str();
    return std::string();
  }

  /// The input of a shared entry of `segment` in `container`.
  std::string ofSegmentEntry(StringRef container,
                             const dedup::SegmentSharing &segment,
                             uint64_t entry) const {
    // A merged constant segment holds every input's entries.
    std::string origin = ofConstantEntry(entry);
    if (origin.empty() || !origins.blobOrigin(container, segment.blob).empty())
      origin = ofBlob(container, segment.blob);
    return origin;
  }

private:
  const Linker::Origins &origins;
  std::map<std::string, std::string> programFiles;
};
} // namespace

Savings link::attributeSavings(const dedup::Result &dedup,
                               const Linker::Origins &origins,
                               ArrayRef<Input> programs) {
  OriginFinder find(origins, programs);
  Savings saved;
  for (const auto *list : {&dedup.programs, &dedup.dataFiles})
    for (const dedup::ContainerResult &container : *list) {
      for (const dedup::BlobGroup &group : container.groups)
        for (const std::string &merged : group.merged)
          saved[find.ofBlob(container.name, merged)]
               [et::stringifyDataKind(group.kind).str()] += group.size;
      for (const dedup::SegmentSharing &segment : container.segments)
        for (const dedup::SharedEntry &shared : segment.sharedEntries)
          saved[find.ofSegmentEntry(container.name, segment, shared.entry)]
               [et::stringifyDataKind(segment.kind).str()] += shared.size;
    }
  for (const auto &shared : origins.sharedKeyBytes)
    if (shared.second)
      saved[shared.first().str()]
           [et::stringifyDataKind(et::DataKind::NamedData).str()] +=
          shared.second;
  return saved;
}

void link::writeLinkReport(ArrayRef<std::string> files, const Savings &savings,
                           const dedup::Result &dedup,
                           llvm::json::OStream &json) {
  std::map<std::string, uint64_t> totals;
  json.object([&] {
    json.attribute("schema", "emit-link-report-1");
    json.attributeArray("inputs", [&] {
      for (const std::string &file : files)
        json.object([&] {
          json.attribute("file", file);
          json.attributeObject("bytes_saved", [&] {
            auto it = savings.find(file);
            if (it == savings.end())
              return;
            for (const auto &[kind, bytes] : it->second) {
              json.attribute(kind, bytes);
              totals[kind] += bytes;
            }
          });
        });
    });
    json.attributeObject("bytes_saved", [&] {
      for (const auto &[kind, bytes] : totals)
        json.attribute(kind, bytes);
    });
    json.attributeBegin("dedup");
    dedup::writeReport(dedup, json);
    json.attributeEnd();
  });
}
