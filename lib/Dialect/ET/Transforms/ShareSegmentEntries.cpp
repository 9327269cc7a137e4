//===- ShareSegmentEntries.cpp - Equal segment entries once -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stores the equal entries of each program's constant and mutable segments
// once: plans with the policy, states the plan, rebuilds the segments.
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

namespace emit::et {
#define GEN_PASS_DEF_SHARESEGMENTENTRIES
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
struct ShareSegmentEntriesPass
    : public et::impl::ShareSegmentEntriesBase<ShareSegmentEntriesPass> {
  using ShareSegmentEntriesBase::ShareSegmentEntriesBase;
  ShareSegmentEntriesPass(const ShareSegmentEntriesOptions &options,
                          dedup::Driven driven)
      : ShareSegmentEntriesBase(options), driven(driven) {}
  void runOnOperation() override;

private:
  dedup::Driven driven;
};
} // namespace

void ShareSegmentEntriesPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<dedup::Policy> policy = dedup::startSharing(
      module, getArgument(), scope, minSize, testForceHashCollisions, driven);
  if (failed(policy))
    return signalPassFailure();
  policy->compactSegments = compact;
  llvm::ThreadPoolInterface *pool = dedup::getThreadPool(&getContext());
  for (ProgramOp program : getPrograms(module)) {
    dedup::SegmentPlan plan = dedup::planSegmentSharing(program, *policy, pool);
    if (driven.result)
      dedup::describeSegmentSharing(plan, driven.result->of(program));
    if (remarks)
      dedup::emitSegmentRemarks(plan);
    dedup::applySegmentSharing(plan);
  }
}

std::unique_ptr<Pass>
dedup::createShareSegmentEntries(const ShareSegmentEntriesOptions &options,
                                 Driven driven) {
  return std::make_unique<ShareSegmentEntriesPass>(options, driven);
}
