//===- Link.cpp - Link ExecuTorch programs and data files -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Link/Link.h"

#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/Layout.h"
#include "emit/Support/MLIRCompat.h"
#include "emit/Support/MappedMemory.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <numeric>

using namespace mlir;
using namespace emit;
using namespace emit::et;
using namespace emit::link;

/// The base name of an input file, which prefixes what it brings.
static std::string stemOf(StringRef path) {
  std::string stem = llvm::sys::path::stem(path).str();
  for (char &c : stem)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return stem.empty() ? std::string("input") : stem;
}

static uint64_t byteSize(BlobOp blob) {
  return cast<ShapedType>(blob.getData().getType()).getNumElements();
}

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

/// Keys and the bytes they hold, from whichever file had them first.
struct Linker::KeyTable {
  struct Source {
    std::string path;
    ArrayRef<char> bytes;
    TensorLayoutAttr layout;
  };
  llvm::StringMap<Source> keys;
  SplatStorage splats;

  /// Records `key` of `path`, or checks it against the record. Returns
  /// true for a new key, false for one already held with the same bytes
  /// and layout; fails with an error at `loc` for a conflict.
  FailureOr<bool> add(StringRef key, StringRef path, ElementsAttr data,
                      TensorLayoutAttr layout, Location loc) {
    std::optional<ArrayRef<char>> bytes = getPayloadBytes(data, splats);
    if (!bytes)
      return emitError(loc, "the bytes of key '")
             << key << "' in " << path << " are not available";
    auto [it, inserted] =
        keys.try_emplace(key, Source{path.str(), *bytes, layout});
    if (inserted)
      return true;
    const Source &first = it->second;
    if (first.bytes.size() != bytes->size() || !equalBytes(first.bytes, *bytes))
      return emitError(loc, "key '")
             << key << "' is in " << first.path << " (" << first.bytes.size()
             << " bytes) and in " << path << " (" << bytes->size()
             << " bytes) with different bytes; nothing was written";
    if (first.layout && layout && first.layout != layout)
      return emitError(loc, "key '")
             << key << "' has the layout " << first.layout << " in "
             << first.path << " and " << layout << " in " << path
             << "; nothing was written";
    return false;
  }
};

Linker::Linker() : gathered(std::make_unique<KeyTable>()) {}
Linker::~Linker() = default;

//===----------------------------------------------------------------------===//
// Merging programs
//===----------------------------------------------------------------------===//

namespace {
/// The constant segment of the merged program, built from the inputs'.
struct MergedConstants {
  SmallVector<BytePiece> pieces;
  SmallVector<int64_t> offsets{0}; // Entry 0 is the placeholder.
  uint64_t end = 0;
  uint64_t alignment = 1;
  SplatStorage splats;
};
} // namespace

/// Gives every blob of `program` a name no other input's blob has, and
/// points its references at the new names.
static void renameBlobs(ProgramOp program, StringRef path, StringRef stem,
                        StringRef merged, llvm::StringSet<> &used,
                        Linker::Origins &origins) {
  DenseMap<StringAttr, StringAttr> renames;
  for (BlobOp blob : program.getBlobs()) {
    std::string name = (stem + "_" + blob.getSymName()).str();
    for (unsigned suffix = 0; used.contains(name); ++suffix)
      name = (stem + "_" + blob.getSymName() + "_" + Twine(suffix)).str();
    used.insert(name);
    origins.blobs[{merged.str(), name}] = path.str();
    auto attr = StringAttr::get(program.getContext(), name);
    renames[blob.getSymNameAttr()] = attr;
    blob.setSymNameAttr(attr);
  }
  replaceBlobReferences(program, renames);
}

/// Appends `program`'s constant segment to `merged` and points its tensors
/// at their entries there.
static LogicalResult
appendConstants(ProgramOp program, StringRef path, MergedConstants &merged,
                llvm::StringMap<std::pair<unsigned, unsigned>> &entries) {
  if (ConstantBufferOp buffer = program.getConstantBuffer();
      buffer && !buffer.getEntries().empty())
    return buffer.emitError("cannot link ")
           << path << ": it keeps constants in the deprecated constant "
           << "buffer (ExecuTorch 0.1); re-export it";
  ConstantSegmentOp constants = program.getConstantSegment();
  if (!constants)
    return success();
  BlobOp blob;
  if (std::optional<StringRef> name = constants.getBlob())
    blob = mlir::SymbolTable(program).lookup<BlobOp>(*name);
  ArrayRef<int64_t> offsets = constants.getOffsets();
  if (blob && offsets.size() > 1) {
    std::optional<ArrayRef<char>> bytes =
        getPayloadBytes(blob.getData(), merged.splats);
    if (!bytes)
      return blob.emitError("the constants of ")
             << path << " are not available";
    // Entries stay as aligned as they were: each program's entries start
    // at a multiple of the alignment they share (the exporter's tensor
    // alignment, at least ExecuTorch's 16).
    SmallVector<uint64_t> starts(offsets.begin(), offsets.end());
    bool anyOffset = llvm::any_of(offsets, [](int64_t o) { return o != 0; });
    uint64_t alignment = std::max<uint64_t>(
        anyOffset ? layout::commonAlignment(starts, layout::kMaxEntryAlignment)
                  : 16,
        16);
    uint64_t base = layout::appendAligned(merged.end, bytes->size(), alignment);
    merged.alignment = std::lcm(merged.alignment, alignment);
    merged.pieces.push_back({*bytes, base});
    int64_t shift = merged.offsets.size() - 1;
    for (int64_t offset : offsets.drop_front())
      merged.offsets.push_back(offset + base);
    entries[path] = {shift + 1, merged.offsets.size() - 1};
    for (MethodOp method : program.getMethods())
      for (TensorOp tensor : method.getBody().front().getOps<TensorOp>()) {
        std::optional<int64_t> index = tensor.getDataIndex();
        TensorInfoAttr info = tensor.getInfoAttr();
        if (!index || *index <= 0 || tensor.getMemoryId() ||
            (info && info.getLocation() == TensorDataLocation::External))
          continue;
        tensor.setDataIndexAttr(IntegerAttr::get(
            IntegerType::get(program.getContext(), 64), *index + shift));
      }
  }
  constants.erase();
  if (blob && mlir::SymbolTable::symbolKnownUseEmpty(blob, program))
    blob.erase();
  return success();
}

/// Points `program`'s mutable tensors at their segments after `shift`
/// earlier ones.
static void shiftMutableSegments(ProgramOp program, uint64_t shift) {
  if (shift == 0)
    return;
  MLIRContext *context = program.getContext();
  for (MethodOp method : program.getMethods())
    for (TensorOp tensor : method.getBody().front().getOps<TensorOp>()) {
      std::optional<int64_t> index = tensor.getDataIndex();
      if (!index || *index <= 0 || !tensor.getMemoryId())
        continue;
      TensorInfoAttr info = tensor.getInfoAttr();
      tensor.setInfoAttr(
          info
              ? TensorInfoAttr::get(context, info.getMutableSegment() + shift,
                                    info.getFqn(), info.getLocation(),
                                    info.getDeviceType(), info.getDeviceIndex())
              : TensorInfoAttr::get(context, shift, StringAttr(),
                                    TensorDataLocation::Segment,
                                    DeviceType::CPU, 0));
    }
}

/// Erases the blobs of `candidates` that nothing in `container` names, and
/// counts their bytes into `bytes`. One walk for all of them.
static void eraseUnused(Operation *container, ArrayRef<BlobOp> candidates,
                        uint64_t &bytes) {
  if (candidates.empty())
    return;
  llvm::StringSet<> used;
  if (auto uses = mlir::SymbolTable::getSymbolUses(&container->getRegion(0)))
    for (const mlir::SymbolTable::SymbolUse &use : *uses)
      used.insert(use.getSymbolRef().getRootReference().getValue());
  DenseSet<Operation *> erased;
  for (BlobOp blob : candidates)
    if (!erased.contains(blob) && !used.contains(blob.getSymName())) {
      bytes += byteSize(blob);
      erased.insert(blob);
      blob.erase();
    }
}

namespace {
/// What merging has gathered from the inputs so far.
struct MergeState {
  llvm::StringSet<> blobNames, prefixes;
  llvm::StringMap<std::string> methodFrom; // Method -> input path.
  Linker::KeyTable keys;
  MergedConstants constants;
  uint64_t mutableSegments = 0, segmentAlignment = 0;
};
} // namespace

/// Moves the ops of `input`'s program to the end of `merged`: methods (named
/// `<stem>_<name>` with `prefixMethods`), blobs, mutable segments, and each
/// key's named data unless an earlier input held the same bytes under it.
/// Returns the blobs of the named data that were dropped.
static FailureOr<SmallVector<BlobOp>>
moveOps(const Input &input, StringRef stem, bool prefixMethods,
        ProgramOp merged, MergeState &state) {
  ProgramOp program = input.program;
  Block &body = merged.getBody().front();
  // Blobs move before the named data that names them is looked at.
  SmallVector<BlobOp> dropped;
  llvm::StringMap<BlobOp> blobs;
  for (BlobOp blob : program.getBlobs())
    blobs[blob.getSymName()] = blob;
  for (Operation &op : llvm::make_early_inc_range(program.getBody().front())) {
    if (auto method = dyn_cast<MethodOp>(op)) {
      if (prefixMethods)
        method.setSymName((stem + "_" + method.getSymName()).str());
      auto [it, inserted] =
          state.methodFrom.try_emplace(method.getSymName(), input.path);
      if (!inserted)
        return method.emitError("method '")
               << method.getSymName() << "' is in " << it->second << " and in "
               << input.path
               << "; nothing was written (--prefix-methods names each "
               << "input's methods after its file)";
    } else if (auto named = dyn_cast<NamedDataOp>(op)) {
      FailureOr<bool> added = state.keys.add(
          named.getKey(), input.path, blobs.lookup(named.getBlob()).getData(),
          {}, named.getLoc());
      if (failed(added))
        return failure();
      if (!*added) {
        // The same bytes under the same key: the first input's entry
        // serves both.
        dropped.push_back(blobs.lookup(named.getBlob()));
        named.erase();
        continue;
      }
    } else if (isa<MutableDataSegmentOp>(op)) {
      ++state.mutableSegments;
    }
    op.moveBefore(&body, body.end());
  }
  return dropped;
}

/// The constant segment of `program` from `constants`, at its start, if
/// there are any; its blob named unlike every name of `blobNames`.
static void createConstantSegment(ProgramOp program, MergedConstants &constants,
                                  const llvm::StringSet<> &blobNames) {
  MLIRContext *context = program.getContext();
  OpBuilder builder(context);
  Location loc = program->getParentOp()->getLoc();
  if (constants.pieces.empty())
    return;
  builder.setInsertionPointToStart(&program.getBody().front());
  std::string blobName = "constants";
  for (unsigned suffix = 0; blobNames.contains(blobName); ++suffix)
    blobName = "constants_" + std::to_string(suffix);
  compat::create<BlobOp>(
      builder, loc, builder.getStringAttr(blobName),
      builder.getI64IntegerAttr(constants.alignment),
      DataPlacementAttr::get(context, DataPlacement::Segment),
      gatherBytes(context, blobName, constants.end, constants.pieces));
  compat::create<ConstantSegmentOp>(
      builder, loc, FlatSymbolRefAttr::get(context, blobName),
      builder.getDenseI64ArrayAttr(constants.offsets),
      /*segment_index=*/IntegerAttr());
}

FailureOr<ProgramOp> Linker::mergePrograms(ModuleOp module,
                                           ArrayRef<Input> inputs,
                                           StringRef name, bool prefixMethods) {
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  auto merged = compat::create<ProgramOp>(builder, module.getLoc(), name);
  MergeState state;
  for (const Input &input : inputs) {
    ProgramOp program = input.program;
    // Each input's prefix; a second input of the same base name gets
    // `<name>_<n>`.
    std::string stem = stemOf(input.path);
    for (unsigned suffix = 1; !state.prefixes.insert(stem).second; ++suffix)
      stem = stemOf(input.path) + "_" + std::to_string(suffix);
    renameBlobs(program, input.path, stem, merged.getSymName(), state.blobNames,
                origins);
    if (failed(appendConstants(program, input.path, state.constants,
                               origins.constantEntries)))
      return failure();
    shiftMutableSegments(program, state.mutableSegments);
    uint64_t alignment =
        program.getSegmentAlignment().value_or(pte::kDefaultSegmentAlignment);
    state.segmentAlignment = state.segmentAlignment
                                 ? std::lcm(state.segmentAlignment, alignment)
                                 : alignment;
    FailureOr<SmallVector<BlobOp>> dropped =
        moveOps(input, stem, prefixMethods, merged, state);
    if (failed(dropped))
      return failure();
    program.erase();
    eraseUnused(merged, *dropped, origins.sharedKeyBytes[input.path]);
  }
  merged.setSegmentAlignmentAttr(builder.getI64IntegerAttr(
      state.segmentAlignment ? state.segmentAlignment
                             : pte::kDefaultSegmentAlignment));
  createConstantSegment(merged, state.constants, state.blobNames);
  return merged;
}

//===----------------------------------------------------------------------===//
// Gathering named data
//===----------------------------------------------------------------------===//

/// Adds `key` with `blob`'s bytes to `target` unless it has it; a clone of
/// the blob (the same bytes, no copy) under a name of its own.
/// Names a copy of `blob` (the same bytes, no copy of them), stored as a
/// segment and called `<stem of path>_<name>`, `key` at the end of
/// `container` (a program or data file). Returns the copy.
static BlobOp addNamedCopy(Operation *container, StringRef key, BlobOp blob,
                           TensorLayoutAttr layout, StringRef path,
                           Location loc) {
  MLIRContext *context = container->getContext();
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(&container->getRegion(0).front());
  auto copy = cast<BlobOp>(builder.clone(*blob));
  copy.setPlacementAttr(
      DataPlacementAttr::get(context, DataPlacement::Segment));
  copy.setSymName((stemOf(path) + "_" + blob.getSymName()).str());
  mlir::SymbolTable(container).insert(copy); // Renames on a clash.
  compat::create<NamedDataOp>(builder, loc, builder.getStringAttr(key),
                              FlatSymbolRefAttr::get(copy.getSymNameAttr()),
                              layout);
  return copy;
}

/// Adds `key` with `blob`'s bytes to `target` unless it has it.
static LogicalResult addToTarget(DataFileOp target, StringRef key, BlobOp blob,
                                 TensorLayoutAttr layout, StringRef path,
                                 Location loc, Linker::KeyTable &keys,
                                 Linker::Origins &origins) {
  FailureOr<bool> added = keys.add(key, path, blob.getData(), layout, loc);
  if (failed(added))
    return failure();
  if (!*added) {
    origins.sharedKeyBytes[path] += byteSize(blob);
    return success();
  }
  BlobOp copy = addNamedCopy(target, key, blob, layout, path, loc);
  origins.blobs[{target.getSymName().str(), copy.getSymName().str()}] =
      path.str();
  return success();
}

LogicalResult Linker::gatherNamedData(ArrayRef<Input> programs,
                                      ArrayRef<DataInput> dataFiles,
                                      DataFileOp target) {
  for (const Input &input : programs) {
    ProgramOp program = input.program;
    mlir::SymbolTable symbols(program);
    SmallVector<BlobOp> named;
    for (NamedDataOp entry :
         llvm::make_early_inc_range(program.getNamedData())) {
      auto blob = symbols.lookup<BlobOp>(entry.getBlob());
      if (failed(addToTarget(target, entry.getKey(), blob, {}, input.path,
                             entry.getLoc(), *gathered, origins)))
        return failure();
      named.push_back(blob);
      entry.erase();
    }
    // Blobs only named data used go with it; others (a payload that was
    // also named data) stay.
    uint64_t moved = 0;
    eraseUnused(program, named, moved);
  }
  for (const DataInput &input : dataFiles) {
    DataFileOp dataFile = input.dataFile;
    mlir::SymbolTable symbols(dataFile);
    for (NamedDataOp entry : dataFile.getNamedData())
      if (failed(addToTarget(target, entry.getKey(),
                             symbols.lookup<BlobOp>(entry.getBlob()),
                             entry.getLayoutAttr(), input.path, entry.getLoc(),
                             *gathered, origins)))
        return failure();
    dataFile.erase();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Externalizing constants
//===----------------------------------------------------------------------===//

/// `bytes` as a resource that aliases them (the program's constants stay
/// alive in the context).
static ElementsAttr viewOf(MLIRContext *context, StringRef name,
                           ArrayRef<char> bytes) {
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                                    IntegerType::get(context, 8));
  if (bytes.empty())
    return DenseElementsAttr::get(type, ArrayRef<int8_t>());
  return DenseResourceElementsAttr::get(
      type, name, UnmanagedAsmResourceBlob::allocateWithAlign(bytes, 1));
}

LogicalResult Linker::externalizeConstants(const Input &input,
                                           DataFileOp target,
                                           uint64_t minBytes) {
  ProgramOp program = input.program;
  ConstantSegmentOp constants = program.getConstantSegment();
  if (!constants || !constants.getBlob())
    return success();
  auto blob = mlir::SymbolTable(program).lookup<BlobOp>(*constants.getBlob());
  std::optional<ArrayRef<char>> bytes =
      getPayloadBytes(blob.getData(), gathered->splats);
  if (!bytes)
    return blob.emitError("the constants of ")
           << input.path << " are not available";
  MLIRContext *context = program.getContext();
  ArrayRef<int64_t> offsets = constants.getOffsets();
  for (MethodOp method : program.getMethods())
    for (TensorOp tensor : method.getBody().front().getOps<TensorOp>()) {
      std::optional<int64_t> index = tensor.getDataIndex();
      TensorInfoAttr info = tensor.getInfoAttr();
      if (!index || *index <= 0 || tensor.getMemoryId() || !info ||
          !info.getFqn() || info.getFqn().getValue().empty() ||
          info.getLocation() == TensorDataLocation::External ||
          static_cast<uint64_t>(*index) >= offsets.size())
        continue;
      std::optional<uint64_t> size =
          getTensorByteSize(tensor.getScalarType(), tensor.getSizes());
      if (!size || *size < minBytes)
        continue;
      StringRef fqn = info.getFqn().getValue();
      auto layout =
          TensorLayoutAttr::get(context, tensor.getScalarType(),
                                tensor.getSizes(), tensor.getDimOrder());
      // A temporary blob to add: the bytes are a view of the segment.
      OpBuilder builder(context);
      OwningOpRef<BlobOp> view = compat::create<BlobOp>(
          builder, tensor.getLoc(), builder.getStringAttr("constant"),
          builder.getI64IntegerAttr(1), DataPlacementAttr(),
          viewOf(context, fqn, bytes->slice(offsets[*index], *size)));
      if (failed(addToTarget(target, fqn, *view, layout, input.path,
                             tensor.getLoc(), *gathered, origins)))
        return failure();
      tensor.setInfoAttr(
          TensorInfoAttr::get(context, info.getMutableSegment(), info.getFqn(),
                              TensorDataLocation::External,
                              info.getDeviceType(), info.getDeviceIndex()));
    }
  return success();
}

//===----------------------------------------------------------------------===//
// Internalizing data
//===----------------------------------------------------------------------===//

/// The constant tensors of `program` whose data lies in a data file, by
/// the key (fully qualified name) they find it under.
static llvm::MapVector<StringRef, SmallVector<TensorOp>>
externalTensorsByKey(ProgramOp program) {
  llvm::MapVector<StringRef, SmallVector<TensorOp>> byKey;
  for (MethodOp method : program.getMethods())
    for (TensorOp tensor : method.getBody().front().getOps<TensorOp>())
      if (TensorInfoAttr info = tensor.getInfoAttr();
          info && info.getLocation() == TensorDataLocation::External &&
          info.getFqn())
        byKey[info.getFqn().getValue()].push_back(tensor);
  return byKey;
}

namespace {
/// A key of a data file being internalized.
struct DataFileKey {
  BlobOp blob;
  StringRef path;
  Location loc;
};
} // namespace

/// Every key of `dataFiles`, each once, checked in `table` against the keys
/// of `input`'s program and each other (a conflict is an error).
static FailureOr<llvm::MapVector<StringRef, DataFileKey>>
collectDataFileKeys(const Input &input, ArrayRef<DataInput> dataFiles,
                    Linker::KeyTable &table) {
  ProgramOp program = input.program;
  mlir::SymbolTable programSymbols(program);
  for (NamedDataOp entry : program.getNamedData())
    if (failed(
            table.add(entry.getKey(), input.path,
                      programSymbols.lookup<BlobOp>(entry.getBlob()).getData(),
                      {}, entry.getLoc())))
      return failure();
  llvm::MapVector<StringRef, DataFileKey> keys;
  for (const DataInput &data : dataFiles) {
    DataFileOp dataFile = data.dataFile;
    mlir::SymbolTable symbols(dataFile);
    for (NamedDataOp entry : dataFile.getNamedData()) {
      auto blob = symbols.lookup<BlobOp>(entry.getBlob());
      FailureOr<bool> added =
          table.add(entry.getKey(), data.path, blob.getData(),
                    entry.getLayoutAttr(), entry.getLoc());
      if (failed(added))
        return failure();
      if (*added)
        keys.insert({entry.getKey(), {blob, data.path, entry.getLoc()}});
    }
  }
  return keys;
}

/// Appends the bytes of each key of `tensors` to `constants`, once however
/// many tensors read them, and makes those tensors read them there.
static LogicalResult appendExternalConstants(
    llvm::MapVector<StringRef, SmallVector<TensorOp>> &tensors,
    llvm::MapVector<StringRef, DataFileKey> &keys, MergedConstants &constants,
    SplatStorage &splats) {
  constants.alignment = std::max<uint64_t>(constants.alignment, 16);
  for (auto &[key, readers] : tensors) {
    auto it = keys.find(key);
    if (it == keys.end())
      return readers.front().emitError("the tensor finds its data under '")
             << key << "', which none of the data files holds; nothing was "
             << "written";
    std::optional<ArrayRef<char>> bytes =
        getPayloadBytes(it->second.blob.getData(), splats);
    if (!bytes)
      return it->second.blob.emitError("the bytes of key '")
             << key << "' in " << it->second.path << " are not available";
    uint64_t offset = layout::appendAligned(constants.end, bytes->size(),
                                            constants.alignment);
    constants.pieces.push_back({*bytes, offset});
    constants.offsets.push_back(offset);
    MLIRContext *context = readers.front().getContext();
    auto index = IntegerAttr::get(IntegerType::get(context, 64),
                                  constants.offsets.size() - 1);
    for (TensorOp tensor : readers) {
      TensorInfoAttr info = tensor.getInfoAttr();
      tensor.setDataIndexAttr(index);
      tensor.setInfoAttr(
          TensorInfoAttr::get(context, info.getMutableSegment(), info.getFqn(),
                              TensorDataLocation::Segment, info.getDeviceType(),
                              info.getDeviceIndex()));
    }
  }
  return success();
}

LogicalResult Linker::internalizeData(const Input &input,
                                      ArrayRef<DataInput> dataFiles) {
  ProgramOp program = input.program;
  FailureOr<llvm::MapVector<StringRef, DataFileKey>> keys =
      collectDataFileKeys(input, dataFiles, *gathered);
  if (failed(keys))
    return failure();
  // Constants that were external go at the end of the constant segment.
  llvm::MapVector<StringRef, SmallVector<TensorOp>> tensors =
      externalTensorsByKey(program);
  MergedConstants constants;
  if (failed(appendConstants(program, input.path, constants,
                             origins.constantEntries)) ||
      failed(
          appendExternalConstants(tensors, *keys, constants, gathered->splats)))
    return failure();
  llvm::StringSet<> blobNames;
  for (BlobOp blob : program.getBlobs())
    blobNames.insert(blob.getSymName());
  createConstantSegment(program, constants, blobNames);
  // Every other key becomes the program's named data, which backends then
  // read.
  for (auto &[key, entry] : *keys)
    if (!tensors.count(key))
      addNamedCopy(program, key, entry.blob, {}, entry.path, entry.loc);
  for (const DataInput &data : dataFiles) {
    DataFileOp dataFile = data.dataFile;
    dataFile.erase();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Splitting a data file
//===----------------------------------------------------------------------===//

namespace {
/// A blob and the keys that name it: what a split keeps together.
struct DataUnit {
  BlobOp blob;
  SmallVector<NamedDataOp, 1> keys;
};
} // namespace

/// The units of `dataFile`, in the order of their first key.
static SmallVector<DataUnit> dataUnits(DataFileOp dataFile) {
  mlir::SymbolTable symbols(dataFile);
  SmallVector<DataUnit> units;
  DenseMap<Operation *, unsigned> unitOf;
  for (NamedDataOp entry : dataFile.getNamedData()) {
    auto blob = symbols.lookup<BlobOp>(entry.getBlob());
    auto [it, added] = unitOf.try_emplace(blob, units.size());
    if (added)
      units.push_back({blob, {}});
    units[it->second].keys.push_back(entry);
  }
  return units;
}

/// At least what adding `unit` to a data file whose segments are aligned
/// to `segmentAlignment` adds to its .ptd: the bytes, padding before them
/// and before the segment base, and the flatbuffer tables of its keys and
/// its segment, each as large as FlatBuffers can make them.
static uint64_t growthBound(DataUnit &unit, uint64_t segmentAlignment) {
  uint64_t alignment =
      std::max<uint64_t>(unit.blob.getAlignment(), segmentAlignment);
  uint64_t bound = byteSize(unit.blob) + 2 * alignment + 64;
  for (NamedDataOp key : unit.keys) {
    bound += 128 + key.getKey().size();
    if (TensorLayoutAttr layout = key.getLayoutAttr())
      bound += 64 + 8 * layout.getSizes().size();
  }
  return bound;
}

static void moveUnit(DataUnit &unit, DataFileOp part) {
  Block &body = part.getBody().front();
  unit.blob->moveBefore(&body, body.end());
  for (NamedDataOp key : unit.keys)
    key->moveBefore(&body, body.end());
}

FailureOr<SmallVector<DataFileOp>>
Linker::splitDataFile(DataFileOp dataFile, uint64_t maxBytes,
                      uint64_t segmentAlignment, DataFileSize sizeOf) {
  OpBuilder builder(dataFile.getContext());
  builder.setInsertionPointAfter(dataFile);
  SmallVector<DataFileOp> parts;
  auto newPart = [&] {
    auto part = compat::create<DataFileOp>(
        builder, dataFile.getLoc(),
        (dataFile.getSymName() + "_" + Twine(parts.size() + 1)).str());
    part.setSegmentAlignmentAttr(dataFile.getSegmentAlignmentAttr());
    part.setVersionAttr(dataFile.getVersionAttr());
    parts.push_back(part);
    return part;
  };
  // Units go into the current part while it stays within `maxBytes`, the
  // first that does not starts the next. A part is measured as written
  // only when a bound of its size passes `maxBytes`: near each split.
  DataFileOp part;
  uint64_t bound = 0;
  for (DataUnit &unit : dataUnits(dataFile)) {
    uint64_t growth = growthBound(unit, segmentAlignment);
    if (part && bound + growth <= maxBytes) {
      moveUnit(unit, part);
      bound += growth;
      continue;
    }
    if (part) {
      moveUnit(unit, part);
      FailureOr<uint64_t> size = sizeOf(part);
      if (failed(size))
        return failure();
      if (*size <= maxBytes) {
        bound = *size;
        continue;
      }
    }
    // The unit starts a part (alone, it may be larger than `maxBytes`).
    part = newPart();
    moveUnit(unit, part);
    FailureOr<uint64_t> size = sizeOf(part);
    if (failed(size))
      return failure();
    bound = *size;
  }
  // Blobs no key names stay out: a data file holds named data only.
  dataFile.erase();
  // The blobs first, in order, then the keys, as the importer orders them.
  for (DataFileOp each : parts) {
    Block &body = each.getBody().front();
    Operation *firstKey = (*body.getOps<NamedDataOp>().begin()).getOperation();
    for (BlobOp blob : llvm::make_early_inc_range(body.getOps<BlobOp>()))
      blob->moveBefore(firstKey);
  }
  return parts;
}
