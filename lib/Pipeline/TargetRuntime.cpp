//===- TargetRuntime.cpp - Rewrite a program for a runtime release --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `--pte-to-pte --target-runtime=RELEASE`: what the release does with the
// input, by the release table (emit/Releases/Releases.h); each feature it
// does not load becomes the rewrite pass the table names, and a feature no
// rewrite removes refuses the whole job before anything is written. A data
// file is converted to the layout the release reads.
//
//===----------------------------------------------------------------------===//

#include "emit/Pipeline/Pipeline.h"

#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/DataFile.h"
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

/// The conversion that makes `dataFile` readable by release `release`.
static LogicalResult addDataFilePasses(const DataFile &dataFile,
                                       unsigned release, OpPassManager &passes,
                                       MLIRContext *context) {
  StringRef name = getReleaseNames()[release];
  if (release < *findRelease("0.6"))
    return emitError(UnknownLoc::get(context))
           << "runtime " << name << " reads no data files (.ptd), which "
           << "ExecuTorch 0.6 introduced; nothing was written";
  bool layout0_6 = dataFile.getLayout() == DataFileLayout::Release0_6;
  if (release == *findRelease("0.6") && !layout0_6)
    passes.addPass(et::createPTDTo0_6Layout());
  else if (release != *findRelease("0.6") && layout0_6)
    passes.addPass(et::createPTDToCurrentLayout());
  return success();
}

/// The data files at `paths`, by layout; one that does not read counts
/// as current (the import refuses it).
static DataFileCounts countLayouts(ArrayRef<std::string> paths,
                                   MLIRContext *context) {
  DataFileCounts counts;
  for (const std::string &path : paths) {
    std::string error;
    std::unique_ptr<CheckedFile> file =
        openFile(et::getPayloadFiles(context), path, OpenAs::DataFile, error);
    auto *dataFile = dyn_cast_or_null<DataFile>(file.get());
    bool layout0_6 =
        dataFile && dataFile->getLayout() == DataFileLayout::Release0_6;
    ++(layout0_6 ? counts.layout0_6 : counts.current);
  }
  return counts;
}

LogicalResult emit::addTargetRuntimePasses(const CheckedFile &input,
                                           ArrayRef<std::string> dataFiles,
                                           unsigned release,
                                           OpPassManager &passes,
                                           MLIRContext *context) {
  if (const auto *dataFile = dyn_cast<DataFile>(&input);
      dataFile && dataFile->isReadable())
    return addDataFilePasses(*dataFile, release, passes, context);
  const ProgramFile *program = getProgramOf(input);
  if (!program || !program->isReadable())
    return emitError(UnknownLoc::get(context))
           << "--target-runtime rewrites a readable program (.pte) or data "
           << "file (.ptd); '" << input.getName() << "' is not one";
  ReleaseReport report = judgeReleases(
      program, countLayouts(dataFiles, context), ReleaseVerdict::Loads);
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
