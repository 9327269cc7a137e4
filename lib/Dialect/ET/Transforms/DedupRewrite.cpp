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

#include "emit/Dialect/ET/Utils/Blobs.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;
using namespace emit::et::dedup;

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

void dedup::applyBlobSharing(Plan &plan) {
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
}

void dedup::applySegmentSharing(SegmentPlan &plan) {
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
