//===- ConstantPlacement.cpp - Rewrites for older runtimes
//-----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Rewrites of how a program stores what older runtimes read differently:
// where it keeps its constants, the deprecated constant buffer inside the
// flatbuffer (ExecuTorch 0.1) or a constant segment after it (0.2 on), each
// entry keeping its index; and compile spec lists that runtimes before 1.3
// need present. Each makes a program load on the runtime it is rewritten
// for.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Support/Layout.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

namespace emit::et {
#define GEN_PASS_DEF_CONSTANTSTOSEGMENT
#define GEN_PASS_DEF_CONSTANTSTOBUFFER
#define GEN_PASS_DEF_EXPLICITCOMPILESPECS
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

/// The constant segment's blob of `program`, if it names one.
static BlobOp getSegmentBlob(ProgramOp program, ConstantSegmentOp segment) {
  std::optional<StringRef> name = segment ? segment.getBlob() : std::nullopt;
  return name ? mlir::SymbolTable(program).lookup<BlobOp>(*name) : BlobOp();
}

/// A blob name of `program` no symbol has yet, from `stem`.
static std::string getFreeBlobName(ProgramOp program, StringRef stem) {
  mlir::SymbolTable symbols(program);
  std::string name = stem.str();
  for (unsigned suffix = 0; symbols.lookup(name); ++suffix)
    name = (stem + "_" + Twine(suffix)).str();
  return name;
}

/// Moves `program`'s constant buffer into a new constant segment.
static LogicalResult moveBufferToSegment(ProgramOp program,
                                         SplatStorage &splats) {
  ConstantBufferOp buffer = program.getConstantBuffer();
  if (!buffer)
    return success();
  ConstantSegmentOp segment = program.getConstantSegment();
  if (segment && segment.getOffsets().size() > 1 &&
      buffer.getEntries().size() > 1)
    return buffer.emitError("the program keeps constants both in the "
                            "constant buffer and in the constant segment, "
                            "which the runtime refuses");
  uint64_t alignment = buffer.getAlignment().value_or(16);
  SmallVector<BytePiece> pieces;
  SmallVector<int64_t> offsets{0};
  uint64_t end = 0;
  for (auto entry :
       llvm::drop_begin(buffer.getEntries().getAsRange<ElementsAttr>())) {
    std::optional<ArrayRef<char>> bytes = getPayloadBytes(entry, splats);
    if (!bytes)
      return buffer.emitError("the bytes of a constant buffer entry are not "
                              "available");
    uint64_t offset = layout::appendAligned(end, bytes->size(), alignment);
    pieces.push_back({*bytes, offset});
    offsets.push_back(offset);
  }
  MLIRContext *context = program.getContext();
  OpBuilder builder(buffer);
  std::string name = getFreeBlobName(program, "constants");
  compat::create<BlobOp>(
      builder, buffer.getLoc(), builder.getStringAttr(name),
      builder.getI64IntegerAttr(alignment),
      DataPlacementAttr::get(context, DataPlacement::Segment),
      gatherBytes(context, name, end, pieces));
  compat::create<ConstantSegmentOp>(builder, buffer.getLoc(),
                                    FlatSymbolRefAttr::get(context, name),
                                    builder.getDenseI64ArrayAttr(offsets),
                                    /*segment_index=*/IntegerAttr());
  BlobOp old = getSegmentBlob(program, segment);
  if (segment)
    segment.erase();
  if (old && mlir::SymbolTable::symbolKnownUseEmpty(old, program))
    old.erase();
  buffer.erase();
  return success();
}

/// Moves `program`'s constant segment into a constant buffer.
static LogicalResult moveSegmentToBuffer(ProgramOp program,
                                         SplatStorage &splats) {
  ConstantSegmentOp segment = program.getConstantSegment();
  if (!segment)
    return success();
  if (ConstantBufferOp buffer = program.getConstantBuffer();
      buffer && buffer.getEntries().size() > 1)
    return segment.emitError("the program keeps constants both in the "
                             "constant buffer and in the constant segment, "
                             "which the runtime refuses");
  BlobOp blob = getSegmentBlob(program, segment);
  ArrayRef<int64_t> offsets = segment.getOffsets();
  std::optional<ArrayRef<char>> bytes =
      blob ? getPayloadBytes(blob.getData(), splats)
           : std::optional<ArrayRef<char>>(ArrayRef<char>());
  if (!bytes)
    return segment.emitError("the constant segment's bytes are not available");
  MLIRContext *context = program.getContext();
  auto byteType = [&](int64_t size) {
    return RankedTensorType::get({size}, IntegerType::get(context, 8));
  };
  SmallVector<Attribute> entries{
      DenseElementsAttr::get(byteType(0), ArrayRef<int8_t>())};
  for (size_t index = 1; index < offsets.size(); ++index) {
    uint64_t begin = offsets[index];
    uint64_t end =
        index + 1 < offsets.size() ? offsets[index + 1] : bytes->size();
    if (begin > end || end > bytes->size())
      return segment.emitError("constant segment entry ")
             << index << " lies outside the segment";
    ArrayRef<char> entry = bytes->slice(begin, end - begin);
    entries.push_back(DenseElementsAttr::get(
        byteType(entry.size()),
        ArrayRef<int8_t>(reinterpret_cast<const int8_t *>(entry.data()),
                         entry.size())));
  }
  OpBuilder builder(segment);
  if (ConstantBufferOp old = program.getConstantBuffer())
    old.erase();
  compat::create<ConstantBufferOp>(builder, segment.getLoc(),
                                   builder.getArrayAttr(entries),
                                   builder.getI64IntegerAttr(16));
  segment.erase();
  if (blob && mlir::SymbolTable::symbolKnownUseEmpty(blob, program))
    blob.erase();
  return success();
}

namespace {
struct ConstantsToSegmentPass
    : public et::impl::ConstantsToSegmentBase<ConstantsToSegmentPass> {
  void runOnOperation() override {
    SplatStorage splats;
    for (ProgramOp program : getPrograms(getOperation()))
      if (failed(moveBufferToSegment(program, splats)))
        return signalPassFailure();
  }
};

struct ExplicitCompileSpecsPass
    : public et::impl::ExplicitCompileSpecsBase<ExplicitCompileSpecsPass> {
  void runOnOperation() override {
    ArrayAttr none = ArrayAttr::get(&getContext(), {});
    getOperation().walk([&](DelegateOp entry) {
      if (!entry.getCompileSpecsAttr())
        entry.setCompileSpecsAttr(none);
    });
  }
};

struct ConstantsToBufferPass
    : public et::impl::ConstantsToBufferBase<ConstantsToBufferPass> {
  void runOnOperation() override {
    SplatStorage splats;
    for (ProgramOp program : getPrograms(getOperation()))
      if (failed(moveSegmentToBuffer(program, splats)))
        return signalPassFailure();
  }
};
} // namespace
