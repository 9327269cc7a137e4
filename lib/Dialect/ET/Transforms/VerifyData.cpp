//===- VerifyData.cpp - Check a program against its data files --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the runtime checks when it loads a program with data files
// (Method::init, MergedDataMap, validateTensorLayout in the .ptd format
// notes), checked ahead of time on the IR, with every finding located.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace emit::et {
#define GEN_PASS_DEF_VERIFYDATA
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
/// A key of some data file: a named data entry, or a tensor of a file in
/// 0.6's layout (which 0.6's runtime looks external tensors up in).
struct StoredKey {
  DataFileOp file;
  Operation *entry;
  TensorLayoutAttr layout;
  FlatSymbolRefAttr blob;
  uint64_t offset = 0;
};
} // namespace

/// The keys of `file` an external tensor can find its data under.
static SmallVector<std::pair<StringRef, StoredKey>> getKeys(DataFileOp file) {
  SmallVector<std::pair<StringRef, StoredKey>> keys;
  if (file.getLayout_0_6()) {
    for (DataTensorOp tensor : file.getDataTensors())
      keys.push_back({tensor.getFqn(),
                      {file, tensor, tensor.getLayout(), tensor.getBlobAttr(),
                       static_cast<uint64_t>(tensor.getOffset())}});
    return keys;
  }
  for (NamedDataOp entry : file.getNamedData())
    keys.push_back({entry.getKey(),
                    {file, entry, entry.getLayoutAttr(), entry.getBlobAttr()}});
  return keys;
}

/// Checks one external tensor against the data file entry its name finds.
static LogicalResult checkExternalTensor(TensorOp tensor, StringRef fqn,
                                         StoredKey stored) {
  TensorLayoutAttr layout = stored.layout;
  if (!layout)
    return (tensor.emitOpError("finds its data under '")
            << fqn << "' in data file @" << stored.file.getSymName()
            << ", which stores it without a tensor layout; the runtime "
            << "needs one to load the tensor")
               .attachNote(stored.entry->getLoc())
           << "stored here";
  if (layout.getScalarType() != tensor.getScalarType() ||
      layout.getSizes() != tensor.getSizes() ||
      layout.getDimOrder() != tensor.getDimOrder())
    return (tensor.emitOpError("finds its data under '")
            << fqn << "' in data file @" << stored.file.getSymName()
            << ", stored as " << layout
            << ", which differs from the tensor's element type, sizes or "
            << "dim order; the runtime refuses it")
               .attachNote(stored.entry->getLoc())
           << "stored here";
  auto blob =
      SymbolTable::lookupNearestSymbolFrom<BlobOp>(stored.entry, stored.blob);
  std::optional<uint64_t> needed = layout.getByteSize();
  uint64_t held =
      blob ? cast<ShapedType>(blob.getData().getType()).getNumElements() : 0;
  held -= std::min(held, stored.offset);
  if (blob && (!needed || *needed > held))
    return (tensor.emitOpError("needs ")
            << (needed ? Twine(*needed).str() : std::string("too many"))
            << " bytes, but '" << fqn << "' in data file @"
            << stored.file.getSymName() << " holds " << held
            << "; the runtime would read past them")
               .attachNote(stored.entry->getLoc())
           << "stored here";
  return success();
}

LogicalResult et::verifyDataFiles(ModuleOp module) {
  SmallVector<DataFileOp> files = llvm::to_vector(module.getOps<DataFileOp>());
  if (files.empty())
    return success();

  // One map of every data file's keys, as the runtime merges them.
  llvm::StringMap<StoredKey> keys;
  bool failedAny = false;
  for (DataFileOp file : files)
    for (auto [key, stored] : getKeys(file)) {
      auto [it, inserted] = keys.try_emplace(key, stored);
      if (inserted)
        continue;
      InFlightDiagnostic diag = stored.entry->emitOpError("key '")
                                << key << "' is also in data file @"
                                << it->second.file.getSymName()
                                << "; the runtime refuses to load a program "
                                   "with both";
      diag.attachNote(it->second.entry->getLoc()) << "first here";
      failedAny = true;
    }

  std::string fileNames;
  for (DataFileOp file : files)
    fileNames += (fileNames.empty() ? "@" : ", @") + file.getSymName().str();
  for (ProgramOp program : getPrograms(module)) {
    for (NamedDataOp entry : program.getNamedData())
      if (auto it = keys.find(entry.getKey()); it != keys.end()) {
        InFlightDiagnostic diag =
            entry.emitWarning("key '")
            << entry.getKey() << "' is also in data file @"
            << it->second.file.getSymName()
            << ", whose bytes backends get instead of these";
        diag.attachNote(it->second.entry->getLoc()) << "the data file's entry";
      }
    for (MethodOp method : program.getMethods())
      for (TensorOp tensor : method.getBody().front().getOps<TensorOp>()) {
        TensorInfoAttr info = tensor.getInfoAttr();
        if (!info || info.getLocation() != TensorDataLocation::External)
          continue;
        if (!info.getFqn()) {
          tensor.emitOpError("has an external location but no fully "
                             "qualified name to find its data by");
          failedAny = true;
          continue;
        }
        StringRef fqn = info.getFqn().getValue();
        auto it = keys.find(fqn);
        if (it == keys.end()) {
          tensor.emitOpError("finds its data under '")
              << fqn << "', which none of the data files (" << fileNames
              << ") has";
          failedAny = true;
          continue;
        }
        failedAny |= failed(checkExternalTensor(tensor, fqn, it->second));
      }
  }
  return failure(failedAny);
}

namespace {
struct VerifyDataPass : public et::impl::VerifyDataBase<VerifyDataPass> {
  void runOnOperation() override {
    if (failed(verifyDataFiles(getOperation())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
