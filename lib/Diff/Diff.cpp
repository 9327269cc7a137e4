//===- Diff.cpp - What changed between two exports ------------ -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Imports both sides, payloads referred to in their files, and compares
// them: bytes by kind from the summary model of each file, named data by
// key here, methods in MethodDiff.cpp.
//
//===----------------------------------------------------------------------===//

#include "DiffInternal.h"

#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/CheckedFile.h"
#include "emit/Pipeline/Pipeline.h"
#include "emit/Summary/Summary.h"
#include "emit/Summary/SummaryModel.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>

using namespace mlir;
using namespace emit;
using namespace emit::diff;

StringRef emit::stringifyDiffChange(DiffChange change) {
  switch (change) {
  case DiffChange::Added:
    return "added";
  case DiffChange::Removed:
    return "removed";
  case DiffChange::Changed:
    return "changed";
  }
  return "";
}

bool DiffReport::sameContent() const {
  return methods.empty() && delegates.empty() && namedData.empty() &&
         constants.empty() && operators.empty() && testSuites.empty();
}

bool DiffReport::isMethodUnchanged(StringRef name) const {
  auto named = [&](const auto &entry) { return entry.method == name; };
  return llvm::none_of(
             methods,
             [&](const MethodDiff &diff) { return diff.name == name; }) &&
         llvm::none_of(delegates, named) && llvm::none_of(operators, named) &&
         llvm::none_of(constants, named);
}

//===----------------------------------------------------------------------===//
// Bytes
//===----------------------------------------------------------------------===//

std::optional<ArrayRef<char>> Side::blobBytes(Operation *container,
                                              StringRef symbol) {
  std::unique_ptr<SymbolTable> &table = symbols[container];
  if (!table)
    table = std::make_unique<SymbolTable>(container);
  auto blob = table->lookup<et::BlobOp>(symbol);
  return blob ? bytesOf(blob.getData()) : std::nullopt;
}

std::optional<ArrayRef<char>> Side::bytesOf(ElementsAttr data) {
  return et::getPayloadBytes(data, splats);
}

bool ByteComparator::equal(ArrayRef<char> oldBytes, ArrayRef<char> newBytes) {
  if (oldBytes.size() != newBytes.size())
    return false;
  auto [it, added] =
      known.try_emplace({oldBytes.data(), newBytes.data(), oldBytes.size()});
  if (!added)
    return it->second;
  auto follows = [](const char *previousEnd, ArrayRef<char> bytes) {
    return previousEnd && bytes.data() >= previousEnd &&
           size_t(bytes.data() - previousEnd) < kReadAheadSize;
  };
  it->second = equalBytes(oldBytes, newBytes, follows(oldEnd, oldBytes),
                          follows(newEnd, newBytes));
  oldEnd = oldBytes.end();
  newEnd = newBytes.end();
  return it->second;
}

//===----------------------------------------------------------------------===//
// Loading a side
//===----------------------------------------------------------------------===//

namespace {
/// The files of one side, and their IR.
struct LoadedSide {
  OwningOpRef<ModuleOp> module;
  Side side;
  /// The summary of each file: the program (or data file) first.
  std::vector<summary::Summary> summaries;
};
} // namespace

/// The summary of `container` with the sizes of `file`, its file.
static summary::Summary summarizeFile(Operation *container,
                                      const CheckedFile &file) {
  summary::Summary result = summary::summarizeContainer(container);
  PTESummaryOptions sizes = getSummaryOptionsFor(file, ReportFormat::Text);
  result.fileBytes = sizes.fileBytes;
  result.flatbufferBytes = sizes.flatbufferBytes;
  if (result.testSuites)
    result.testSuites->bytes = sizes.testSuiteBytes;
  return result;
}

static LogicalResult load(const DiffInput &input, MLIRContext &context,
                          LoadedSide &loaded) {
  std::string error;
  std::unique_ptr<CheckedFile> file =
      openFile(et::getPayloadFiles(&context), input.path, OpenAs::Any, error);
  if (!file)
    return emitError(UnknownLoc::get(&context))
           << cannotRead(input.path, error);
  loaded.module = importFile(*file, &context);
  if (!loaded.module)
    return failure();
  ModuleOp module = *loaded.module;
  SmallVector<et::ProgramOp> programs = et::getPrograms(module);
  if (!programs.empty()) {
    loaded.side.program = programs.front();
    loaded.side.bundle =
        dyn_cast<et::BundleOp>(loaded.side.program->getParentOp());
  } else if (!input.dataFiles.empty()) {
    return emitError(UnknownLoc::get(&context), "'")
           << input.path
           << "' is a data file: data files go with a program only";
  }
  // The program's data files follow it in the module, in the given order.
  std::vector<std::unique_ptr<CheckedFile>> dataFileViews;
  if (failed(importDataFiles(module, input.dataFiles, /*embed=*/false,
                             &dataFileViews)))
    return failure();
  for (auto dataFile : module.getOps<et::DataFileOp>())
    loaded.side.dataFiles.push_back(dataFile);

  Operation *first = loaded.side.program
                         ? loaded.side.program.getOperation()
                         : loaded.side.dataFiles.front().getOperation();
  loaded.summaries.push_back(summarizeFile(first, *file));
  auto dataFiles = ArrayRef(loaded.side.dataFiles);
  if (!loaded.side.program)
    dataFiles = dataFiles.drop_front();
  for (auto [dataFile, view] : llvm::zip_equal(dataFiles, dataFileViews))
    loaded.summaries.push_back(summarizeFile(dataFile, *view));
  return success();
}

//===----------------------------------------------------------------------===//
// Bytes by kind
//===----------------------------------------------------------------------===//

static void addSizes(const LoadedSide &loaded, const DiffInput &input,
                     DiffSide &side) {
  side.file = input.path;
  side.dataFiles = input.dataFiles;
  for (const summary::Summary &file : loaded.summaries)
    side.bytes += file.fileBytes.value_or(0);
}

/// Every kind either side has bytes of, largest first.
static std::vector<DiffKindBytes> compareKinds(const LoadedSide &oldSide,
                                               const LoadedSide &newSide) {
  std::vector<DiffKindBytes> kinds;
  auto add = [&](const summary::Summary &file, bool isNew) {
    for (const summary::BytePart &part : summary::getByteParts(file)) {
      auto it = llvm::find_if(kinds, [&](const DiffKindBytes &kind) {
        return kind.key == part.key;
      });
      if (it == kinds.end())
        it = kinds.insert(kinds.end(), {part.key, part.label, 0, 0});
      (isNew ? it->newBytes : it->oldBytes) += part.bytes;
    }
  };
  for (const summary::Summary &file : oldSide.summaries)
    add(file, /*isNew=*/false);
  for (const summary::Summary &file : newSide.summaries)
    add(file, /*isNew=*/true);
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const DiffKindBytes &a, const DiffKindBytes &b) {
                     return std::max(a.oldBytes, a.newBytes) >
                            std::max(b.oldBytes, b.newBytes);
                   });
  return kinds;
}

//===----------------------------------------------------------------------===//
// Named data
//===----------------------------------------------------------------------===//

namespace {
struct KeyedData {
  ArrayRef<char> bytes;
  et::TensorLayoutAttr layout;
};
} // namespace

/// Every key of `side`'s program and data files, with its bytes; the
/// first of a key named twice.
static llvm::StringMap<KeyedData>
collectNamedData(Side &side, SmallVector<StringRef> &keys) {
  llvm::StringMap<KeyedData> data;
  auto collect = [&](Operation *container, auto entries) {
    for (et::NamedDataOp entry : entries) {
      std::optional<ArrayRef<char>> bytes =
          side.blobBytes(container, entry.getBlob());
      if (!bytes || !data.try_emplace(entry.getKey(),
                                      KeyedData{*bytes, entry.getLayoutAttr()})
                         .second)
        continue;
      keys.push_back(entry.getKey());
    }
  };
  // A tensor of a file in 0.6's layout: its bytes at its offset.
  auto collectTensors = [&](et::DataFileOp dataFile) {
    for (et::DataTensorOp tensor : dataFile.getDataTensors()) {
      std::optional<ArrayRef<char>> bytes =
          side.blobBytes(dataFile, tensor.getBlob());
      std::optional<uint64_t> size = tensor.getLayout().getByteSize();
      if (!bytes || !size ||
          !data.try_emplace(tensor.getFqn(),
                            KeyedData{bytes->slice(tensor.getOffset(), *size),
                                      tensor.getLayoutAttr()})
               .second)
        continue;
      keys.push_back(tensor.getFqn());
    }
  };
  if (side.program)
    collect(side.program, side.program.getNamedData());
  for (et::DataFileOp dataFile : side.dataFiles) {
    collectTensors(dataFile);
    collect(dataFile, dataFile.getNamedData());
  }
  return data;
}

void diff::compareNamedData(Side &oldSide, Side &newSide, ByteComparator &bytes,
                            DiffReport &report) {
  SmallVector<StringRef> oldKeys, newKeys;
  llvm::StringMap<KeyedData> oldData = collectNamedData(oldSide, oldKeys);
  llvm::StringMap<KeyedData> newData = collectNamedData(newSide, newKeys);
  std::vector<NamedDataDiff> diffs;
  for (StringRef key : oldKeys) {
    const KeyedData &old = oldData.find(key)->second;
    auto it = newData.find(key);
    if (it == newData.end()) {
      diffs.push_back({DiffChange::Removed, key.str(), old.bytes.size(), 0});
      continue;
    }
    const KeyedData &now = it->second;
    NamedDataDiff diff{DiffChange::Changed, key.str(), old.bytes.size(),
                       now.bytes.size()};
    diff.layoutChanged = old.layout != now.layout;
    diff.bytesChanged = !bytes.equal(old.bytes, now.bytes);
    if (diff.layoutChanged || diff.bytesChanged)
      diffs.push_back(std::move(diff));
  }
  for (StringRef key : newKeys)
    if (!oldData.count(key))
      diffs.push_back({DiffChange::Added, key.str(), 0,
                       newData.find(key)->second.bytes.size()});
  std::stable_sort(diffs.begin(), diffs.end(),
                   [](const NamedDataDiff &a, const NamedDataDiff &b) {
                     return std::max(a.oldBytes, a.newBytes) >
                            std::max(b.oldBytes, b.newBytes);
                   });
  report.namedData = std::move(diffs);
}

//===----------------------------------------------------------------------===//
// The diff
//===----------------------------------------------------------------------===//

FailureOr<DiffReport> emit::diffFiles(const DiffInput &oldInput,
                                      const DiffInput &newInput,
                                      MLIRContext &context) {
  LoadedSide oldSide, newSide;
  if (failed(load(oldInput, context, oldSide)) ||
      failed(load(newInput, context, newSide)))
    return failure();
  if (bool(oldSide.side.program) != bool(newSide.side.program))
    return emitError(UnknownLoc::get(&context), "cannot compare ")
           << (oldSide.side.program ? "a program ('" : "a data file ('")
           << oldInput.path << "') with "
           << (newSide.side.program ? "a program ('" : "a data file ('")
           << newInput.path << "')";

  DiffReport report;
  report.dataFiles = !oldSide.side.program;
  addSizes(oldSide, oldInput, report.oldSide);
  addSizes(newSide, newInput, report.newSide);
  report.byKind = compareKinds(oldSide, newSide);
  ByteComparator bytes;
  compareNamedData(oldSide.side, newSide.side, bytes, report);
  if (!report.dataFiles) {
    compareMethods(oldSide.side, newSide.side, bytes, report);
    compareTestSuites(oldSide.side, newSide.side, bytes, report);
  }
  return report;
}
