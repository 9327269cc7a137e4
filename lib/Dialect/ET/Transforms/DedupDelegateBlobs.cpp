//===- DedupDelegateBlobs.cpp - Store identical data once -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stores each distinct piece of data once per program and per data file:
// delegate payloads, named data, constant and mutable tensor data. Every
// delegate entry keeps its own backend id and compile specs; only bytes are
// shared. The parts are in Dedup.h; this runs them.
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
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
                         raw_ostream &reportStream)
      : DedupDelegateBlobsBase(options), reportStream(&reportStream) {}
  void runOnOperation() override;

private:
  /// Where the report goes when the caller holds it, instead of `report`.
  raw_ostream *reportStream = nullptr;

  /// Moves the inline payloads that may be merged into program blobs.
  void hoistPayloads(ArrayRef<Operation *> programs);
};
} // namespace

void DedupDelegateBlobsPass::hoistPayloads(ArrayRef<Operation *> programs) {
  if (minSize == 0) {
    RewritePatternSet patterns(&getContext());
    ProgramOp::getCanonicalizationPatterns(patterns, &getContext());
    // The pattern hoists every inline payload of a program in one
    // application, so the driver converges.
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

void DedupDelegateBlobsPass::runOnOperation() {
  if (scope != "program" && scope != "method") {
    getOperation().emitError("invalid scope '")
        << scope << "' for --dedup-delegate-blobs: expected 'program' or "
        << "'method'";
    return signalPassFailure();
  }
  // Every payload this pass reads must be there as the IR recorded it.
  if (failed(checkPayloadFiles(getOperation())))
    return signalPassFailure();

  // Programs first, then data files, each in module order.
  SmallVector<Operation *> programs, dataFiles;
  for (ProgramOp program : getOperation().getOps<ProgramOp>())
    programs.push_back(program);
  for (DataFileOp dataFile : getOperation().getOps<DataFileOp>())
    dataFiles.push_back(dataFile);

  std::unique_ptr<llvm::ToolOutputFile> reportFile;
  raw_ostream *reportOS = reportStream;
  if (reportStream && !report.empty()) {
    getOperation().emitError("report='")
        << report << "' is not an option here: the report is returned";
    return signalPassFailure();
  }
  if (!report.empty()) {
    std::string error;
    reportFile = openOutputFile(report, &error);
    if (!reportFile) {
      getOperation().emitError("cannot write the report: ") << error;
      return signalPassFailure();
    }
    reportOS = &reportFile->os();
  }
  std::optional<llvm::json::OStream> json;
  if (reportOS)
    json.emplace(*reportOS, /*IndentSize=*/2);

  // A dry run works on copies, so that the report can describe the merge
  // that would happen without changing the input.
  SmallVector<OwningOpRef<Operation *>> copies;
  if (dryRun)
    for (auto *list : {&programs, &dataFiles})
      for (Operation *&op : *list) {
        copies.emplace_back(op->clone());
        op = copies.back().get();
      }
  hoistPayloads(programs);

  dedup::Policy policy;
  policy.methodScope = scope == "method";
  policy.sameBackend = sameBackend;
  policy.minSize = minSize;
  policy.compactSegments = compactSegments;
  // The report prints every blob's hash, so none is sampled.
  policy.grouping.hashWhole = json.has_value();
  policy.grouping.forceCollisions = testForceHashCollisions;
  llvm::ThreadPoolInterface *pool = getContext().isMultithreadingEnabled()
                                        ? &getContext().getThreadPool()
                                        : nullptr;
  auto run = [&](ArrayRef<Operation *> containers, StringRef reportKey) {
    if (json)
      json->attributeBegin(reportKey), json->arrayBegin();
    for (Operation *container : containers) {
      dedup::Plan plan =
          dedup::planDedup(container, policy, json.has_value(), pool);
      if (json)
        dedup::writeReport(plan, dryRun, *json);
      if (remarks)
        dedup::emitRemarks(plan);
      if (dryRun)
        continue;
      dedup::applyPlan(plan);
      if (auto program = dyn_cast<ProgramOp>(container);
          program && shareEntries)
        dedup::shareDelegateEntries(program, remarks);
    }
    if (json)
      json->arrayEnd(), json->attributeEnd();
  };
  if (json) {
    json->objectBegin();
    json->attribute("schema", "emit-dedup-report-2");
  }
  run(programs, "programs");
  run(dataFiles, "data_files");
  if (json) {
    json->objectEnd();
    *reportOS << "\n";
    if (reportFile)
      reportFile->keep();
  }
  if (dryRun)
    markAllAnalysesPreserved();
}

std::unique_ptr<Pass>
et::createDedupDelegateBlobs(const DedupDelegateBlobsOptions &options,
                             raw_ostream &report) {
  return std::make_unique<DedupDelegateBlobsPass>(options, report);
}
