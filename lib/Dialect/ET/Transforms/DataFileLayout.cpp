//===- DataFileLayout.cpp - Convert .ptd files between layouts --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// et-ptd-to-current-layout and et-ptd-to-0.6-layout: a data file's tensors
// as ExecuTorch 0.6 kept them (a name, a layout and an offset into a
// segment) and as 0.7 and later do (a key naming a whole segment, with a
// layout), for the runtime release a device ships.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#include "llvm/ADT/StringSet.h"
#include <map>
#include <tuple>

namespace emit::et {
#define GEN_PASS_DEF_PTDTOCURRENTLAYOUT
#define GEN_PASS_DEF_PTDTO0_6LAYOUT
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

/// 0.6's serializer aligned every tensor to this.
static constexpr int64_t kTensorAlignment0_6 = 16;

/// The bytes of one tensor of a 0.6 data file: a blob, an offset and a
/// size.
using TensorBytes = std::tuple<Operation *, uint64_t, uint64_t>;

/// A blob of `dataFile` (its symbols in `symbols`) holding exactly
/// `range`: its own blob when the range spans it, else a new one made
/// before it (one per range, in `made`).
static FailureOr<BlobOp>
getBlobOf(DataFileOp dataFile, mlir::SymbolTable &symbols, TensorBytes range,
          std::map<TensorBytes, BlobOp> &made, SplatStorage &splats) {
  auto [op, offset, size] = range;
  auto blob = cast<BlobOp>(op);
  uint64_t held = cast<ShapedType>(blob.getData().getType()).getNumElements();
  if (offset == 0 && size == held)
    return blob;
  if (BlobOp existing = made[range])
    return existing;
  std::string stem = (blob.getSymName() + "_" + Twine(offset)).str();
  std::string name = stem;
  for (unsigned suffix = 0; symbols.lookup(name); ++suffix)
    name = (stem + "_" + Twine(suffix)).str();
  OpBuilder builder(blob);
  int64_t alignment =
      std::max(blob.getAlignment(),
               dataFile.getTensorAlignment().value_or(kTensorAlignment0_6));
  // A range of the input file stays one: nothing is copied.
  ElementsAttr bytes = sliceBytes(blob.getData(), offset, size, name, splats);
  if (!bytes)
    return blob.emitOpError("data is not available (elided or released "
                            "resource); cannot split it into tensors");
  BlobOp slice = compat::create<BlobOp>(
      builder, blob.getLoc(), builder.getStringAttr(name),
      builder.getI64IntegerAttr(alignment), blob.getPlacementAttr(), bytes);
  symbols.insert(slice, Block::iterator(blob));
  return made[range] = slice;
}

/// Rewrites `dataFile`, in 0.6's layout, in the current one.
static LogicalResult toCurrentLayout(DataFileOp dataFile,
                                     SplatStorage &splats) {
  llvm::StringSet<> keys;
  for (NamedDataOp entry : dataFile.getNamedData())
    keys.insert(entry.getKey());
  std::map<TensorBytes, BlobOp> made;
  mlir::SymbolTable symbols(dataFile);
  for (DataTensorOp tensor :
       llvm::make_early_inc_range(dataFile.getDataTensors())) {
    if (keys.contains(tensor.getFqn()))
      return tensor.emitOpError("names '")
             << tensor.getFqn()
             << "', which is also a named data key: the current layout "
                "holds both in one table";
    auto blob = symbols.lookup<BlobOp>(tensor.getBlobAttr().getAttr());
    TensorBytes range{blob, static_cast<uint64_t>(tensor.getOffset()),
                      *tensor.getLayout().getByteSize()};
    FailureOr<BlobOp> target =
        getBlobOf(dataFile, symbols, range, made, splats);
    if (failed(target))
      return failure();
    OpBuilder builder(tensor);
    compat::create<NamedDataOp>(
        builder, tensor.getLoc(), tensor.getFqnAttr(),
        FlatSymbolRefAttr::get(target->getSymNameAttr()),
        tensor.getLayoutAttr());
    tensor.erase();
  }
  // A blob split into its tensors goes when nothing names it whole; one
  // nothing named before stays, as the file held it.
  llvm::SetVector<Operation *> split;
  for (auto &[range, blob] : made)
    split.insert(std::get<0>(range));
  for (Operation *blob : split)
    if (mlir::SymbolTable::symbolKnownUseEmpty(cast<BlobOp>(blob), dataFile))
      blob->erase();
  dataFile.setLayout_0_6(false);
  dataFile.removeTensorAlignmentAttr();
  return success();
}

/// Rewrites `dataFile`, in the current layout, in 0.6's.
static void to0_6Layout(DataFileOp dataFile) {
  for (NamedDataOp entry :
       llvm::make_early_inc_range(dataFile.getNamedData())) {
    TensorLayoutAttr layout = entry.getLayoutAttr();
    if (!layout)
      continue;
    OpBuilder builder(entry);
    compat::create<DataTensorOp>(builder, entry.getLoc(), entry.getKeyAttr(),
                                 entry.getBlobAttr(),
                                 builder.getI64IntegerAttr(0), layout);
    entry.erase();
  }
  dataFile.setLayout_0_6(true);
  dataFile.setTensorAlignmentAttr(
      OpBuilder(dataFile).getI64IntegerAttr(kTensorAlignment0_6));
}

namespace {
struct PTDToCurrentLayoutPass
    : public et::impl::PTDToCurrentLayoutBase<PTDToCurrentLayoutPass> {
  void runOnOperation() override {
    SplatStorage splats;
    for (DataFileOp dataFile : getOperation().getOps<DataFileOp>())
      if (dataFile.getLayout_0_6() && failed(toCurrentLayout(dataFile, splats)))
        return signalPassFailure();
  }
};

struct PTDTo0_6LayoutPass
    : public et::impl::PTDTo0_6LayoutBase<PTDTo0_6LayoutPass> {
  void runOnOperation() override {
    for (DataFileOp dataFile : getOperation().getOps<DataFileOp>())
      if (!dataFile.getLayout_0_6())
        to0_6Layout(dataFile);
  }
};
} // namespace
