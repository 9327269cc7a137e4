//===- DedupRewrite.cpp - Carry out --dedup-delegate-blobs ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Carries out a plan in the spirit of IREE's DeduplicateRodata: survivors
// take the merged blobs' alignments and locations, every reference is
// pointed at its survivor in one sweep, and the merged blobs go. Segments
// with duplicate entries are rebuilt from their entries, each once.
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

#include "emit/Dialect/ET/Transforms/BlobUtils.h"

#include "emit/Support/MappedMemory.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;
using namespace emit::et::dedup;

/// Whether `attr` may hold a symbol reference below its top level; false
/// only for kinds known to hold none, so unknown attributes take the
/// general rewrite.
static bool mayHoldSymbolRefs(Attribute attr) {
  if (isa<StringAttr, IntegerAttr, FloatAttr, UnitAttr, BoolAttr, TypeAttr,
          DenseArrayAttr, DenseElementsAttr, DenseResourceElementsAttr,
          CompileSpecAttr, et::BlobAttr, TensorLayoutAttr>(attr))
    return false;
  if (auto array = dyn_cast<ArrayAttr>(attr))
    return llvm::any_of(array, [](Attribute element) {
      return isa<SymbolRefAttr>(element) || mayHoldSymbolRefs(element);
    });
  return true;
}

// References in the ops' own attributes are rewritten in place; the general
// rewrite, which rebuilds every attribute, only runs where one could be
// nested.
void et::replaceBlobReferences(Operation *container,
                               const DenseMap<StringAttr, StringAttr> &map) {
  auto remap = [&](FlatSymbolRefAttr symbol) {
    auto it = map.find(symbol.getAttr());
    return it == map.end() ? symbol : FlatSymbolRefAttr::get(it->second);
  };
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](FlatSymbolRefAttr symbol) -> std::optional<Attribute> {
        FlatSymbolRefAttr mapped = remap(symbol);
        if (mapped == symbol)
          return std::nullopt;
        return mapped;
      });
  Dialect *etDialect = container->getContext()->getLoadedDialect<ETDialect>();
  container->walk([&](Operation *op) {
    // The dialect's own ops name blobs only in these four; any op may carry
    // discardable attributes that do.
    if (op->getDialect() == etDialect &&
        !isa<DelegateOp, ConstantSegmentOp, MutableDataSegmentOp, NamedDataOp>(
            op) &&
        op->getDiscardableAttrDictionary().empty())
      return;
    SmallVector<std::pair<StringAttr, Attribute>, 2> inherent, discardable;
    auto visit = [&](StringAttr name, Attribute value,
                     SmallVectorImpl<std::pair<StringAttr, Attribute>> &out) {
      if (auto symbol = dyn_cast<FlatSymbolRefAttr>(value)) {
        if (FlatSymbolRefAttr mapped = remap(symbol); mapped != symbol)
          out.push_back({name, mapped});
        return true;
      }
      return !mayHoldSymbolRefs(value);
    };
    bool simple = true;
    for (StringAttr name : op->getName().getAttributeNames())
      if (std::optional<Attribute> value = op->getInherentAttr(name))
        simple &= !*value || visit(name, *value, inherent);
    for (NamedAttribute named : op->getDiscardableAttrs())
      simple &= visit(named.getName(), named.getValue(), discardable);
    if (!simple) {
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
      return;
    }
    for (auto [name, value] : inherent)
      op->setInherentAttr(name, value);
    for (auto [name, value] : discardable)
      op->setDiscardableAttr(name, value);
  });
}

/// Rebuilds `segment`'s blob from its entries, each once, and points the
/// segment's offsets at the new places.
static void rebuildSegment(const SegmentEntries &segment,
                           SplatStorage &splats) {
  ArrayRef<char> old = *getPayloadBytes(segment.blob.getData(), splats);
  SmallVector<BytePiece> pieces;
  for (auto [from, size, to] : segment.pieces)
    pieces.push_back({old.slice(from, size), to});
  segment.blob.setDataAttr(gatherBytes(segment.blob.getContext(),
                                       segment.blob.getSymName(),
                                       segment.bytesAfter, pieces));
  auto offsets =
      DenseI64ArrayAttr::get(segment.blob.getContext(), segment.newOffsets);
  if (auto constants = dyn_cast<ConstantSegmentOp>(segment.op))
    constants.setOffsetsAttr(offsets);
  else
    cast<MutableDataSegmentOp>(segment.op).setOffsetsAttr(offsets);
}

ElementsAttr et::gatherBytes(MLIRContext *context, StringRef name,
                             uint64_t size, ArrayRef<BytePiece> pieces) {
  auto type = RankedTensorType::get({static_cast<int64_t>(size)},
                                    IntegerType::get(context, 8));
  if (size == 0)
    return DenseElementsAttr::get(type, ArrayRef<int8_t>());
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(size, alignof(uint64_t),
                                                       /*dataIsMutable=*/true);
  MutableArrayRef<char> bytes = blob.getMutableData();
  std::fill(bytes.begin(), bytes.end(), 0);
  for (const BytePiece &piece : pieces) {
    char *out = bytes.data() + piece.offset;
    forEachChunk(piece.bytes, [&](ArrayRef<char> chunk) {
      out = std::copy(chunk.begin(), chunk.end(), out);
    });
  }
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

void dedup::applyPlan(Plan &plan) {
  MLIRContext *context = plan.container->getContext();
  DenseMap<StringAttr, StringAttr> replacement; // Merged -> survivor.
  for (const Merge &merge : plan.merges) {
    BlobOp survivor = plan.candidates[merge.survivor].blob;
    if (merge.alignment != static_cast<uint64_t>(survivor.getAlignment()))
      survivor.setAlignment(merge.alignment);
    if (merge.merged.empty())
      continue;
    SmallVector<Location> locations{survivor.getLoc()};
    for (unsigned index : merge.merged) {
      BlobOp merged = plan.candidates[index].blob;
      locations.push_back(merged.getLoc());
      replacement[merged.getSymNameAttr()] = survivor.getSymNameAttr();
    }
    survivor->setLoc(FusedLoc::get(context, locations));
  }
  if (!replacement.empty())
    replaceBlobReferences(plan.container, replacement);
  // Only the merged blobs go: a blob nothing named before stays, as the
  // file had it.
  for (const Merge &merge : plan.merges)
    for (unsigned index : merge.merged)
      plan.candidates[index].blob.erase();
  for (const SegmentEntries &segment : plan.segments)
    rebuildSegment(segment, plan.splats);
}

void dedup::shareDelegateEntries(ProgramOp program, bool remarks) {
  for (MethodOp method : program.getMethods()) {
    // Equal entries are found by their attributes, which MLIR uniques, so
    // equal parts are the same pointers.
    DenseMap<std::tuple<Attribute, Attribute, Attribute>, DelegateOp> first;
    for (DelegateOp entry : llvm::make_early_inc_range(method.getDelegates())) {
      if (!entry.getPayloadSymbol())
        continue; // An inline payload is its own: compared by no one.
      auto key = std::make_tuple(Attribute(entry.getBackendIdAttr()),
                                 Attribute(entry.getCompileSpecsAttr()),
                                 entry.getPayload());
      auto [it, inserted] = first.try_emplace(key, entry);
      if (inserted)
        continue;
      if (remarks)
        it->second.emitRemark()
            << "shares this delegate entry with an equal one, which is "
            << "removed: the backend is initialized once for both";
      entry.getResult().replaceAllUsesWith(it->second.getResult());
      it->second->setLoc(FusedLoc::get(program.getContext(),
                                       {it->second.getLoc(), entry.getLoc()}));
      entry.erase();
    }
  }
}
