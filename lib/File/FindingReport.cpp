//===- FindingReport.cpp - How the file layer records a finding -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FindingReport.h"

#include "emit/File/ETDumpFile.h"
#include "emit/Support/OtherFormats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

using namespace emit;

FindingReport::FindingReport(FindingSink &sink, Check check, uint64_t offset,
                             const llvm::Twine &path)
    : sink(&sink) {
  const FileCheck &entry = getFileCheck(check);
  finding.severity = Severity::Error;
  finding.check = &entry;
  finding.offset = offset;
  finding.path = path.str();
  finding.runtime = entry.runtime;
  finding.import = ImportEffect::Refuses;
  finding.method = sink.getMethod();
  finding.chain = sink.getSite().chain;
  finding.instruction = sink.getSite().instruction;
  finding.value = sink.getSite().value;
}

FindingReport::~FindingReport() {
  os.flush();
  sink->report(std::move(finding));
}

void FindingSink::report(Finding finding) {
  finding.file = fileName.str();
  list.findings.push_back(std::move(finding));
}

mlir::FailureOr<StringRef> emit::checkNamedDataKey(
    FindingSink &findings, StringRef file, const void *entry,
    const flatbuffers::String *key, StringRef where, unsigned index,
    llvm::StringMap<unsigned> &keys, StringRef table, StringRef field) {
  auto offsetOf = [&](const void *object) -> uint64_t {
    return static_cast<const char *>(object) - file.data();
  };
  const Check check = Check::NamedDataKey;
  std::string path = (where + "." + field).str();
  if (!key)
    return FindingReport(findings, check, offsetOf(entry), path)
           << "the " << field << " is missing";
  StringRef name = key->string_view();
  if (name.contains('\0'))
    return FindingReport(findings, check, offsetOf(key), path)
           << "the key holds a NUL byte, which the runtime's lookup cannot "
              "match";
  // The runtime merges a program's data files into one map and refuses a
  // key that is there twice, even within one file.
  if (!keys.try_emplace(name, index).second)
    return FindingReport(findings, check, offsetOf(entry), path)
           << field << " '" << name << "' is also " << table << "["
           << keys.lookup(name) << "]";
  return name;
}

void emit::reportUnnamedData(FindingSink &findings, StringRef table,
                             ArrayRef<uint64_t> offsets,
                             ArrayRef<uint64_t> sizes,
                             const llvm::BitVector &named) {
  for (auto [index, size] : llvm::enumerate(sizes)) {
    if ((index < named.size() && named.test(index)) || size == 0)
      continue; // An empty entry costs its table row only.
    FindingReport(findings, Check::UnusedData, offsets[index],
                  table + "[" + Twine(index) + "]")
            .warning()
        << "nothing names these " << size
        << " bytes: the file carries them for nothing";
  }
}

/// Why a file of identifier `found` is not one of `expected`, if it is a
/// file of another kind.
static StringRef getKindHint(StringRef expected, StringRef found) {
  static constexpr std::pair<const char *, const char *> kPrograms[] = {
      {pte::kBundledIdentifier,
       ": this is a bundled program (.bpte), not a .pte; its program is "
       "embedded in it"},
      {ptd::kIdentifier, ": this is a data file (.ptd), not a program (.pte)"}};
  static constexpr std::pair<const char *, const char *> kDataFiles[] = {
      {pte::kIdentifier, ": this is a program (.pte), not a data file (.ptd)"}};
  static constexpr std::pair<const char *, const char *> kBundles[] = {
      {pte::kIdentifier,
       ": this is a program (.pte), not a bundled program (.bpte)"},
      {ptd::kIdentifier,
       ": this is a data file (.ptd), not a bundled program (.bpte)"}};
  ArrayRef<std::pair<const char *, const char *>> hints = kPrograms;
  if (expected == ptd::kIdentifier)
    hints = kDataFiles;
  else if (expected == pte::kBundledIdentifier)
    hints = kBundles;
  for (auto [identifier, hint] : hints)
    if (found == identifier)
      return hint;
  return "";
}

mlir::LogicalResult emit::checkIdentifier(FindingSink &findings,
                                          StringRef bytes, StringRef expected,
                                          StringRef kind, uint64_t minSize) {
  uint64_t size = bytes.size();
  if (size < minSize) {
    FindingReport report(findings, Check::FileSize, 0, "file");
    report << "the file has " << size << " bytes; a " << kind
           << " has at least " << minSize;
    if (minSize > 8)
      report << " (the runtime reads its first " << minSize << ")";
    return report;
  }
  StringRef identifier = bytes.substr(4, 4);
  if (identifier == expected)
    return mlir::success();
  FindingReport report(findings, Check::FileIdentifier, 4, "file identifier");
  report << "expected '" << expected << "', found '" << llvm::toHex(identifier)
         << "' (hex)";
  if (llvm::all_of(identifier, llvm::isPrint))
    report << ", '" << identifier << "'";
  report << getKindHint(expected, identifier);
  if (isETDumpBuffer(bytes))
    report
        << ": this is a run's profile (ETDump, .etdp); emit-profile reads it";
  else if (std::string other = describeOtherFormat(bytes); !other.empty())
    report << ": " << other;
  return report;
}

void emit::reportSegmentDataEnd(FindingSink &findings, uint64_t fieldOffset,
                                StringRef headerName, uint64_t base,
                                uint64_t end, uint64_t fileSize,
                                bool recordedSize) {
  // Writers put nothing after the segment data, and the runtime reads
  // nothing there: bytes past it mean the base is too small, and that
  // every segment would be read from the wrong place.
  FindingReport(findings, Check::SegmentDataEnd, fieldOffset,
                headerName + " segment_base_offset" +
                    (recordedSize ? " and segment_data_size" : ""))
          .ignoredByRuntime()
          .detail(", or the file has bytes after its segment data, which the "
                  "runtime ignores and emit cannot import")
      << "the segment data ends at byte " << end << " (base " << base << " + "
      << (recordedSize ? "segment_data_size " : "the last segment's end ")
      << end - base << "), but the file has " << fileSize
      << " bytes; segment_base_offset"
      << (recordedSize ? " or segment_data_size" : "")
      << " is wrong, and segments would be read from the wrong place";
}
