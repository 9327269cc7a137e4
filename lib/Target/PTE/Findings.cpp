//===- Findings.cpp - The checks the importers make -------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the runtime does with each defect was read off ExecuTorch's loader
// (runtime/executor/program.cpp, method.cpp at cff6f4dd32e6): a check it
// makes at load is `Rejects`; a field it dereferences unchecked at load is
// `Crashes`; an index it only follows when a method runs is `Loads`.
//
//===----------------------------------------------------------------------===//

#include "FindingReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

using namespace emit;

static constexpr FileCheck kChecks[] = {
    // Headers and the flatbuffer.
    {"file-size", RuntimeLoad::Rejects, "the file is too short for a header"},
    {"file-identifier", RuntimeLoad::Rejects,
     "the file identifier is not the format's"},
    {"header-length", RuntimeLoad::Rejects,
     "the extended header's length is too short or runs past the file"},
    {"header-program-size", RuntimeLoad::Rejects,
     "the header's program_size is not within the file"},
    {"header-segment-base", RuntimeLoad::Rejects,
     "the header's segment_base_offset is outside the segment region"},
    {"header-segment-data-size", RuntimeLoad::Rejects,
     "the header's segment_data_size runs past the end of the file"},
    {"segment-data-end", RuntimeLoad::Loads,
     "the segment data does not end the file: the segment base is wrong"},
    {"program-size-alignment", RuntimeLoad::Loads,
     "program_size is not padded to the alignment of the inline data"},
    {"flatbuffer", RuntimeLoad::Rejects, "the flatbuffer fails verification"},
    {"missing-table", RuntimeLoad::Rejects,
     "a table the runtime requires is missing"},
    // Program data.
    {"segment-without-data", RuntimeLoad::Rejects,
     "a segment holds bytes, but the file has no segment data"},
    {"segment-range", RuntimeLoad::Rejects,
     "a segment runs past the end of the file"},
    {"segment-index", RuntimeLoad::Rejects, "a segment index is out of range"},
    {"segment-offset", RuntimeLoad::Rejects,
     "an offset into a segment is too large"},
    {"named-data-key", RuntimeLoad::Loads,
     "a named data key is missing, repeated or unmatchable"},
    {"tensor-layout-size", RuntimeLoad::Loads,
     "a tensor layout's size is not its segment's: a tensor read from it "
     "reads past its end"},
    // Values.
    {"value", RuntimeLoad::Rejects,
     "a value has no type, an unknown type, or no payload"},
    {"tensor", RuntimeLoad::Rejects,
     "a tensor's type, shape, dynamism or storage offset is not valid"},
    {"tensor-placement", RuntimeLoad::Rejects,
     "a tensor's memory plan or data location is not valid"},
    {"instruction-value-index", RuntimeLoad::Rejects,
     "an instruction names a value past the method's values"},
    {"list-item-index", RuntimeLoad::Rejects,
     "a list names a value past the method's values"},
    {"method-io-index", RuntimeLoad::Loads,
     "a method input or output names a value past the method's values"},
    {"chain-io-index", RuntimeLoad::Loads,
     "a chain input or output names a value past the method's values"},
    // Operators, delegates and instructions.
    {"operator-name", RuntimeLoad::Loads,
     "an operator has no name (the runtime resolves only the operators "
     "kernel calls name)"},
    {"method-name", RuntimeLoad::Rejects,
     "a method has no name, or one another method or a blob has"},
    {"delegate-id", RuntimeLoad::Rejects, "a delegate has no backend id"},
    {"delegate-processed", RuntimeLoad::Crashes,
     "a delegate has no payload reference, which the runtime follows "
     "unchecked"},
    {"delegate-data-index", RuntimeLoad::Rejects,
     "a delegate's payload index is out of range"},
    {"delegate-inline-table", RuntimeLoad::Crashes,
     "a delegate's payload is inline, but the program has no inline data "
     "table, which the runtime reads unchecked"},
    {"delegate-data-location", RuntimeLoad::Rejects,
     "a delegate's payload location is not valid"},
    {"compile-spec", RuntimeLoad::Crashes,
     "a compile spec has no key or no value, which the runtime copies "
     "unchecked"},
    {"operator-index", RuntimeLoad::Loads,
     "a kernel call names an operator past the operator table"},
    {"delegate-index", RuntimeLoad::Loads,
     "a delegate call names a delegate past the delegate table"},
    {"instruction", RuntimeLoad::Rejects,
     "an instruction has no arguments, no call args or an unknown type"},
    {"jump-destination", RuntimeLoad::Loads,
     "a jump's destination is outside its chain"},
    {"buffer-device", RuntimeLoad::Rejects,
     "a buffer's device type is not valid"},
    // What the IR verifier and the data file checks find.
    {"program-invariant", RuntimeLoad::Rejects,
     "the program breaks an invariant of the runtime's format (planned "
     "tensors inside their buffers, constant data in range, ...)"},
    {"reserved-buffer-size", RuntimeLoad::Loads,
     "non_const_buffer_sizes[0], which the runtime ignores, is not 0"},
    {"planned-buffer-size", RuntimeLoad::Rejects,
     "a planned buffer is larger than any device's memory (1 TiB)"},
    {"unused-data", RuntimeLoad::Loads,
     "bytes that nothing the runtime reads names (a warning)"},
    {"list-invariant", RuntimeLoad::Loads,
     "a list's items are not of its kind (the runtime checks them only "
     "when a kernel reads the list)"},
    {"external-data", RuntimeLoad::Rejects,
     "external tensor data is missing from the data files, or does not "
     "match"},
};

StringRef emit::getRuntimeLoadName(RuntimeLoad load) {
  switch (load) {
  case RuntimeLoad::Loads:
    return "loads";
  case RuntimeLoad::Rejects:
    return "rejects";
  case RuntimeLoad::Crashes:
    return "crashes";
  }
  llvm_unreachable("unknown runtime load");
}

ArrayRef<FileCheck> emit::getFileChecks() { return kChecks; }

const FileCheck &emit::getFileCheck(StringRef name) {
  // The readers name a check for every table they read: a hash lookup, not
  // a scan of the catalogue.
  static const llvm::StringMap<const FileCheck *> byName = [] {
    llvm::StringMap<const FileCheck *> map;
    for (const FileCheck &check : kChecks)
      map[check.name] = &check;
    return map;
  }();
  if (const FileCheck *check = byName.lookup(name))
    return *check;
  llvm::report_fatal_error("no file check named '" + name + "'");
}

bool FindingList::hasErrors() const {
  return llvm::any_of(findings, [](const Finding &finding) {
    return finding.severity == Severity::Error;
  });
}

FindingReport::~FindingReport() {
  os.flush();
  sink->report(*check, offset, path, message, runtime, severity);
}

void FindingSink::report(const FileCheck &check, uint64_t offset,
                         StringRef path, StringRef message,
                         std::optional<RuntimeLoad> runtime,
                         Severity severity) {
  if (list) {
    list->findings.push_back({severity, &check, fileName.str(), offset,
                              path.str(), message.str(),
                              runtime.value_or(check.runtime)});
    return;
  }
  mlir::emitError(location)
      << "at byte " << offset << " (" << path << "): " << message;
}

mlir::LogicalResult
FindingSink::capture(const Place &place,
                     llvm::function_ref<mlir::LogicalResult()> body) {
  if (!list)
    return body();
  mlir::ScopedDiagnosticHandler handler(
      location.getContext(), [&](mlir::Diagnostic &diag) {
        if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::success(); // Notes and warnings add nothing here.
        report(*place.check, place.offset, place.path, diag.str(),
               std::nullopt);
        return mlir::success();
      });
  return body();
}

mlir::FailureOr<StringRef>
emit::checkNamedDataKey(FindingSink &findings, StringRef file,
                        const void *entry, const flatbuffers::String *key,
                        StringRef where, unsigned index,
                        llvm::StringMap<unsigned> &keys) {
  auto offsetOf = [&](const void *object) -> uint64_t {
    return static_cast<const char *>(object) - file.data();
  };
  const FileCheck &check = getFileCheck("named-data-key");
  std::string path = (where + ".key").str();
  if (!key)
    return FindingReport(findings, check, offsetOf(entry), path)
           << "the key is missing";
  StringRef name = key->string_view();
  if (name.contains('\0'))
    return FindingReport(findings, check, offsetOf(key), path)
           << "the key holds a NUL byte, which the runtime's lookup cannot "
              "match";
  // The runtime merges a program's data files into one map and refuses a
  // key that is there twice, even within one file.
  if (!keys.try_emplace(name, index).second)
    return FindingReport(findings, check, offsetOf(entry), path)
           << "key '" << name << "' is also named_data[" << keys.lookup(name)
           << "]";
  return name;
}

void emit::reportUnnamedData(FindingSink &findings, StringRef table,
                             ArrayRef<uint64_t> offsets,
                             ArrayRef<uint64_t> sizes,
                             const llvm::BitVector &named) {
  if (!findings.collecting())
    return;
  const FileCheck &check = getFileCheck("unused-data");
  for (auto [index, size] : llvm::enumerate(sizes)) {
    if ((index < named.size() && named.test(index)) || size == 0)
      continue; // An empty entry costs its table row only.
    findings.report(check, offsets[index],
                    (table + "[" + Twine(index) + "]").str(),
                    ("nothing names these " + Twine(size) +
                     " bytes: the file carries them for nothing")
                        .str(),
                    std::nullopt, Severity::Warning);
  }
}
