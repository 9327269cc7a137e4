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
#include "emit/Link/Passes.h"
#include "emit/Releases/Releases.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace emit;

/// Every rewrite the release table names, in the order they run: the data
/// files' data moved in first, so that the constant placement after it
/// sees every constant.
static SmallVector<std::unique_ptr<Pass>> createRewrites() {
  SmallVector<std::unique_ptr<Pass>> rewrites;
  rewrites.push_back(link::createInternalizeData());
  rewrites.push_back(et::createConstantsToSegment());
  rewrites.push_back(et::createConstantsToBuffer());
  rewrites.push_back(et::createExplicitCompileSpecs());
  return rewrites;
}

/// Adds the rewrites named in `names` to `passes`, in their order; for a
/// release before 0.2, which reads constants only from the constant
/// buffer, the moved-in data then goes there.
static void addRewrites(llvm::SetVector<StringRef> names, unsigned release,
                        OpPassManager &passes) {
  StringRef internalize = link::createInternalizeData()->getArgument();
  if (names.contains(internalize) && release < *findRelease("0.2"))
    names.insert(et::createConstantsToBuffer()->getArgument());
  for (std::unique_ptr<Pass> &pass : createRewrites())
    if (names.contains(pass->getArgument()))
      passes.addPass(std::move(pass));
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

/// What the data files at `paths` hold, as the release table asks.
static DataFileCounts countDataFilesAt(ArrayRef<std::string> paths,
                                       MLIRContext *context) {
  std::vector<std::unique_ptr<CheckedFile>> opened;
  SmallVector<const DataFile *> files;
  for (const std::string &path : paths) {
    std::string error;
    opened.push_back(
        openFile(et::getPayloadFiles(context), path, OpenAs::DataFile, error));
    const auto *data = dyn_cast_or_null<DataFile>(opened.back().get());
    files.push_back(data && data->isReadable() ? data : nullptr);
  }
  return countDataFiles(files);
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
  ReleaseReport report =
      judgeReleases(program, countDataFilesAt(dataFiles, context));
  const ReleaseJudgement &judgement = report.releases[release];
  llvm::SetVector<StringRef> rewrites;
  std::string refused;
  std::string internalize = link::createInternalizeData()->getArgument().str();
  for (const ReleaseReason &reason : judgement.reasons) {
    // Moving data in needs the data files it is in.
    bool needsData = reason.rewrite == internalize && dataFiles.empty();
    if (!reason.rewrite.empty() && !needsData) {
      rewrites.insert(reason.rewrite);
      continue;
    }
    refused += ("\n  " + reason.feature + ": " +
                getReleaseVerdictName(reason.verdict) + ", " + reason.effect +
                "; " + reason.where +
                (needsData ? " (et-internalize-data moves their data into "
                             "the program when the data files that hold it "
                             "are given with --pte-data)"
                           : ""))
                   .str();
  }
  if (!refused.empty())
    return emitError(UnknownLoc::get(context))
           << "runtime " << judgement.release << " cannot load '"
           << input.getName()
           << "' and no rewrite removes what it lacks; nothing was written:"
           << refused;
  addRewrites(rewrites, release, passes);
  return success();
}
