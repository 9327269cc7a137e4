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
  // What the program's canonicalization does when every payload is hoisted,
  // without a pattern driver's pass over every op of the program.
  IRRewriter rewriter(&getContext());
  uint64_t threshold = minSize;
  auto shouldHoist = [threshold](DelegateOp entry) {
    return cast<ShapedType>(entry.getInlinePayload().getData().getType())
               .getNumElements() >= static_cast<int64_t>(threshold);
  };
  for (ProgramOp program : getPrograms(getOperation()))
    hoistInlinePayloads(program, rewriter,
                        threshold ? function_ref<bool(DelegateOp)>(shouldHoist)
                                  : nullptr);
}
