//===- ImportFile.cpp - Import a .pte, .ptd or .bpte file -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// How a file is imported, shared by every front end: its payloads referred
// to where they lie, or embedded, and the importer its identifier names.
//
//===----------------------------------------------------------------------===//

#include "ImportReport.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/File/BundleFile.h"
#include "emit/File/DataFile.h"
#include "emit/File/ProgramFile.h"

#include "emit/Dialect/ET/Utils/Payloads.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace emit;

/// How to import `file`: its payloads as references to it, where it lies,
/// unless carried or it is bytes in memory.
static FailureOr<PTEReadOptions> getReadOptions(const CheckedFile &file,
                                                const ImportOptions &options,
                                                MLIRContext *context) {
  PTEReadOptions read;
  read.entryLocations = options.entryLocations;
  if (options.embedPayloads || !file.getBuffer()->isFile())
    return read;
  std::string error;
  FailureOr<FileReference> reference = et::getPayloadFiles(context).describe(
      file.getBuffer()->getFile().getName(), error);
  if (failed(reference))
    return emitError(UnknownLoc::get(context), error);
  read.payloadFile = *reference;
  return read;
}

OwningOpRef<ModuleOp> emit::importFile(const CheckedFile &file,
                                       MLIRContext *context,
                                       const ImportOptions &options) {
  FailureOr<PTEReadOptions> read = getReadOptions(file, options, context);
  if (failed(read))
    return nullptr;
  // The import builds on one thread, and a multithreaded context would also
  // file every new attribute in a thread-local cache beside its shard: for
  // 100,000 calls, tens of MiB and a lock per attribute for nothing.
  // Restored afterwards, so that passes still run on the thread pool.
  bool wasMultithreaded = context->isMultithreadingEnabled();
  context->disableMultithreading();
  OwningOpRef<ModuleOp> module;
  if (const auto *data = dynamic_cast<const DataFile *>(&file))
    module = importDataFile(*data, context, *read);
  else if (const auto *bundle = dynamic_cast<const BundleFile *>(&file))
    module = importBundle(*bundle, context, *read);
  else
    module =
        importProgram(static_cast<const ProgramFile &>(file), context, *read);
  context->disableMultithreading(!wasMultithreaded);
  return module;
}

/// Warns of each segment whose offset its layout in `segments` does not
/// reproduce.
static void
warnUnalignedSegments(const SegmentedFile &file,
                      const layout::InferredSegments &segments,
                      function_ref<Location(StringRef, uint64_t)> locate) {
  uint64_t previousEnd = 0;
  for (auto [index, placement] : llvm::enumerate(file.getSegmentPlacements())) {
    if (!segments.alignments[index])
      emitWarning(locate(("segments[" + Twine(index) + "]").str(),
                         file.getSegmentEntryOffset(index)))
          << "offset " << placement.offset << " does not follow from the "
          << "previous segment's end (" << previousEnd << ") by alignment; "
          << "the layout is normalized on export";
    previousEnd = placement.offset + placement.size;
  }
}

LogicalResult emit::reportImportFindings(
    const CheckedFile &file, MLIRContext *context,
    const std::optional<layout::InferredSegments> &segments, size_t from) {
  // A program embedded in a bundle is reported where it lies in the file.
  const FileBuffer &whole = file.getBuffer()->getFile();
  bool embedded = &whole != file.getBuffer().get();
  uint64_t shift = file.getBuffer()->getOffsetInFile();
  auto fileName = StringAttr::get(context, whole.getName());
  auto pathOf = [&](StringRef path) {
    return embedded ? (path.empty() ? "program" : "program." + path.str())
                    : path.str();
  };
  auto locate = [&](StringRef path, uint64_t offset) -> Location {
    return NameLoc::get(StringAttr::get(context, pathOf(path)),
                        FileLineColLoc::get(fileName, 0, offset + shift));
  };
  ArrayRef<Finding> findings = file.getFindings().findings;
  const auto *segmented = dyn_cast<SegmentedFile>(&file);
  std::optional<size_t> segmentTableEnd =
      segmented ? segmented->getSegmentTableEnd() : std::nullopt;
  for (size_t index = from; index <= findings.size(); ++index) {
    if (segments && index == segmentTableEnd)
      warnUnalignedSegments(*segmented, *segments, locate);
    if (index == findings.size())
      break;
    const Finding &finding = findings[index];
    switch (finding.import) {
    case ImportEffect::Refuses:
    case ImportEffect::Inexact:
      return emitError(FileLineColLoc::get(fileName, 0, 0))
             << "at byte " << finding.offset + shift << " ("
             << pathOf(finding.path) << "): " << finding.message;
    case ImportEffect::Warns:
      emitWarning(locate(finding.path, finding.offset)) << finding.message;
      break;
    case ImportEffect::Verifier:
    case ImportEffect::Ignores:
      break;
    }
  }
  return success();
}
