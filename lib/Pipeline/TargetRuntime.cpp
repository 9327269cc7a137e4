//===- TargetRuntime.cpp - Rewrite a program for a runtime release --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--pte-to-pte --target-runtime=RELEASE`: what the release does with the
// input, by the release table (emit/Releases/Releases.h); each feature it
// does not load becomes the rewrite pass the table names, and a feature no
// rewrite removes refuses the whole job before anything is written.
//
//===----------------------------------------------------------------------===//

#include "emit/Pipeline/Pipeline.h"

#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/Releases/Releases.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace emit;

/// The rewrite pass whose argument is `name`.
static std::unique_ptr<Pass> createRewrite(StringRef name) {
  std::unique_ptr<Pass> candidates[] = {et::createConstantsToSegment(),
                                        et::createConstantsToBuffer(),
                                        et::createExplicitCompileSpecs()};
  for (std::unique_ptr<Pass> &pass : candidates)
    if (pass->getArgument() == name)
      return std::move(pass);
  return nullptr;
}

LogicalResult emit::addTargetRuntimePasses(const CheckedFile &input,
                                           unsigned dataFiles, unsigned release,
                                           OpPassManager &passes,
                                           MLIRContext *context) {
  const ProgramFile *program = getProgramOf(input);
  if (!program || !program->isReadable())
    return emitError(UnknownLoc::get(context))
           << "--target-runtime rewrites a readable program (.pte); '"
           << input.getName() << "' is not one";
  ReleaseReport report =
      judgeReleases(program, dataFiles, ReleaseVerdict::Loads);
  const ReleaseJudgement &judgement = report.releases[release];
  llvm::SetVector<StringRef> rewrites;
  std::string refused;
  for (const ReleaseReason &reason : judgement.reasons) {
    if (!reason.rewrite.empty()) {
      rewrites.insert(reason.rewrite);
      continue;
    }
    refused += ("\n  " + reason.feature + ": " +
                getReleaseVerdictName(reason.verdict) + ", " + reason.effect +
                "; " + reason.where)
                   .str();
  }
  if (!refused.empty())
    return emitError(UnknownLoc::get(context))
           << "runtime " << judgement.release << " cannot load '"
           << input.getName()
           << "' and no rewrite removes what it lacks; nothing was written:"
           << refused;
  for (StringRef name : rewrites)
    passes.addPass(createRewrite(name));
  return success();
}
