//===- ShareBlobs.cpp - Store blobs of equal bytes once ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stores the blobs of equal bytes of each program and data file once: plans
// with the policy, states the plan, carries it out.
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

namespace emit::et {
#define GEN_PASS_DEF_SHAREBLOBS
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
struct ShareBlobsPass : public et::impl::ShareBlobsBase<ShareBlobsPass> {
  using ShareBlobsBase::ShareBlobsBase;
  ShareBlobsPass(const ShareBlobsOptions &options, dedup::Driven driven)
      : ShareBlobsBase(options), driven(driven) {}
  void runOnOperation() override;

private:
  dedup::Driven driven;
};
} // namespace

void ShareBlobsPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<dedup::Policy> policy = dedup::startSharing(
      module, getArgument(), scope, minSize, testForceHashCollisions, driven);
  if (failed(policy))
    return signalPassFailure();
  policy->sameBackend = sameBackend;
  llvm::ThreadPoolInterface *pool = dedup::getThreadPool(&getContext());
  auto share = [&](Operation *container) {
    dedup::Plan plan = dedup::planBlobSharing(
        container, *policy, /*needUsers=*/driven.result != nullptr, pool);
    if (driven.result)
      dedup::describeBlobSharing(plan, driven.result->of(container));
    if (remarks)
      dedup::emitBlobRemarks(plan);
    dedup::applyBlobSharing(plan);
  };
  // Programs first, then data files, each in module order.
  for (ProgramOp program : getPrograms(module))
    share(program);
  for (DataFileOp dataFile : module.getOps<DataFileOp>())
    share(dataFile);
}

std::unique_ptr<Pass> dedup::createShareBlobs(const ShareBlobsOptions &options,
                                              Driven driven) {
  return std::make_unique<ShareBlobsPass>(options, driven);
}
