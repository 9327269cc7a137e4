//===- HoistInlinePayloads.cpp - Inline payloads into blobs -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Moves inline delegate payloads into program blobs, so that the sharing
// passes see every payload as a blob.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/PatternMatch.h"

namespace emit::et {
#define GEN_PASS_DEF_HOISTINLINEPAYLOADS
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
struct HoistInlinePayloadsPass
    : public et::impl::HoistInlinePayloadsBase<HoistInlinePayloadsPass> {
  using HoistInlinePayloadsBase::HoistInlinePayloadsBase;
  void runOnOperation() override;
};
} // namespace

void HoistInlinePayloadsPass::runOnOperation() {
  SmallVector<Operation *> programs;
  for (ProgramOp program : getOperation().getOps<ProgramOp>())
    programs.push_back(program);
  if (minSize == 0) {
    // The program's canonicalization hoists every inline payload in one
    // application, so the driver converges.
    RewritePatternSet patterns(&getContext());
    ProgramOp::getCanonicalizationPatterns(patterns, &getContext());
    (void)compat::applyToExistingOps(programs, std::move(patterns));
    return;
  }
  IRRewriter rewriter(&getContext());
  uint64_t threshold = minSize;
  for (Operation *program : programs)
    hoistInlinePayloads(
        cast<ProgramOp>(program), rewriter, [threshold](DelegateOp entry) {
          return cast<ShapedType>(entry.getInlinePayload().getData().getType())
                     .getNumElements() >= static_cast<int64_t>(threshold);
        });
}
