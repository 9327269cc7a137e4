//===- ProfileBaseline.cpp - A run against an older run -------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/ProfileBaseline.h"

#include "emit/Diff/Diff.h"
#include "emit/InitAll.h"
#include "emit/Support/PayloadFiles.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace emit;
using namespace emit::profile;

/// The methods of `report` that emit-diff finds the same in both programs.
static FailureOr<std::vector<std::string>>
findSameMethods(const ProfileReport &report, const ProfileOptions &options,
                StringRef baselineProgram,
                llvm::function_ref<void(StringRef)> diagnose) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::ScopedDiagnosticHandler diagnostics(&context, [&](mlir::Diagnostic &d) {
    diagnose(d.str());
    return success();
  });
  FailureOr<DiffReport> diff =
      diffFiles({baselineProgram.str(), {}},
                {options.program, options.dataFiles}, context);
  if (failed(diff))
    return failure();
  std::vector<std::string> same;
  for (const MethodProfile &method : report.methods)
    if (diff->isMethodUnchanged(method.name))
      same.push_back(method.name);
  return same;
}

LogicalResult
emit::compareWithBaselineRun(ProfileReport &report,
                             const ProfileOptions &options,
                             const BaselineRun &baseline, PayloadFiles &files,
                             llvm::function_ref<void(StringRef)> diagnose) {
  std::string error;
  std::shared_ptr<const FileBuffer> etdump = files.open(baseline.etdump, error);
  if (!etdump) {
    diagnose(cannotRead(baseline.etdump, error));
    return failure();
  }
  ProfileOptions old;
  old.program = baseline.program;
  FailureOr<ProfileReport> baselineReport =
      analyzeProfile(std::move(etdump), files, old, error);
  if (failed(baselineReport)) {
    diagnose(error);
    return failure();
  }
  FailureOr<std::vector<std::string>> same =
      findSameMethods(report, options, baseline.program, diagnose);
  if (failed(same))
    return failure();
  compareWithBaseline(report, *baselineReport, *same);
  return success();
}
