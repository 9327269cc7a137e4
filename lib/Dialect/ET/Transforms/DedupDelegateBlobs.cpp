//===- DedupDelegateBlobs.cpp - Store identical data once -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stores each distinct piece of data once per program and per data file, by
// running the passes that each do one part of it, and gathers what they did
// in one result: written as the report, or handed to the caller.
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

#include "emit/Dialect/ET/Utils/Payloads.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace emit::et {
#define GEN_PASS_DEF_DEDUPDELEGATEBLOBS
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
struct DedupDelegateBlobsPass
    : public et::impl::DedupDelegateBlobsBase<DedupDelegateBlobsPass> {
  using DedupDelegateBlobsBase::DedupDelegateBlobsBase;
  DedupDelegateBlobsPass(const DedupDelegateBlobsOptions &options,
                         dedup::Result &result)
      : DedupDelegateBlobsBase(options), callerResult(&result) {}
  void runOnOperation() override;

private:
  /// The options a sharing pass has in common with this one.
  template <typename Options>
  Options sharingOptions() const {
    Options options;
    options.scope = scope;
    options.minSize = minSize;
    options.remarks = remarks;
    options.testForceHashCollisions = testForceHashCollisions;
    return options;
  }
  /// The pipeline of passes that does the job, filling `result` if given.
  void buildPipeline(OpPassManager &pm, dedup::Result *result);
  /// Runs the pipeline on `module`, or on a copy of it for a dry run.
  LogicalResult runPipelineOn(ModuleOp module, dedup::Result *result);
  /// Writes `result` to the `report` file.
  LogicalResult writeReportFile(const dedup::Result &result);

  /// Where the result goes when the caller holds it.
  dedup::Result *callerResult = nullptr;
};
} // namespace

void DedupDelegateBlobsPass::buildPipeline(OpPassManager &pm,
                                           dedup::Result *result) {
  // Every sharing pass reads payloads this pass has already checked.
  dedup::Driven driven{result, /*payloadsChecked=*/true};
  HoistInlinePayloadsOptions hoist;
  hoist.minSize = minSize;
  pm.addPass(createHoistInlinePayloads(hoist));
  auto blobs = sharingOptions<ShareBlobsOptions>();
  blobs.sameBackend = sameBackend;
  pm.addPass(dedup::createShareBlobs(blobs, driven));
  auto entries = sharingOptions<ShareSegmentEntriesOptions>();
  entries.compact = compactSegments;
  pm.addPass(dedup::createShareSegmentEntries(entries, driven));
  // Sharing entries changes what backends see; a dry run reports bytes only.
  if (shareEntries && !dryRun) {
    ShareDelegateEntriesOptions delegates;
    delegates.remarks = remarks;
    pm.addPass(createShareDelegateEntries(delegates));
  }
}

LogicalResult DedupDelegateBlobsPass::runPipelineOn(ModuleOp module,
                                                    dedup::Result *result) {
  if (!dryRun) {
    OpPassManager pm(ModuleOp::getOperationName());
    buildPipeline(pm, result);
    return runPipeline(pm, module);
  }
  // A dry run works on a copy, so that the result can describe the sharing
  // that would happen without changing the input.
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(&getContext());
  pm.enableVerifier(false);
  buildPipeline(pm, result);
  return pm.run(*copy);
}

LogicalResult
DedupDelegateBlobsPass::writeReportFile(const dedup::Result &result) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(report, &error);
  if (!file)
    return getOperation().emitError("cannot write the report: ") << error;
  {
    llvm::json::OStream json(file->os(), /*IndentSize=*/2);
    dedup::writeReport(result, json);
  }
  file->os() << "\n";
  file->keep();
  return success();
}

void DedupDelegateBlobsPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(dedup::checkScope(module, scope, getArgument())))
    return signalPassFailure();
  if (callerResult && !report.empty()) {
    module.emitError("report='")
        << report << "' is not an option here: the report is returned";
    return signalPassFailure();
  }
  // Every payload the passes read must be there as the IR recorded it.
  if (failed(checkPayloadFiles(module)))
    return signalPassFailure();

  dedup::Result fileResult;
  dedup::Result *result =
      callerResult ? callerResult : (report.empty() ? nullptr : &fileResult);
  if (result)
    result->clear();
  if (failed(runPipelineOn(module, result)))
    return signalPassFailure();
  if (result)
    for (auto *list : {&result->programs, &result->dataFiles})
      for (dedup::ContainerResult &container : *list)
        container.dryRun = dryRun;
  if (!report.empty() && failed(writeReportFile(fileResult)))
    return signalPassFailure();
  if (dryRun)
    markAllAnalysesPreserved();
}

std::unique_ptr<Pass>
et::createDedupDelegateBlobs(const DedupDelegateBlobsOptions &options,
                             dedup::Result &result) {
  return std::make_unique<DedupDelegateBlobsPass>(options, result);
}
