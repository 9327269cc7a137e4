//===- Releases.cpp - Which ExecuTorch runtime releases load a program ----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ReleaseFeatures.h"

#include "emit/File/DataFile.h"
#include "emit/File/NamedData.h"
#include "emit/File/ProgramFile.h"

#include "llvm/ADT/StringExtras.h"

using namespace emit;

const char emit::kReleaseBuild[] =
    "each release's CMake build, as its pip wheel (from 1.3 "
    "ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0), Program::load with "
    "InternalConsistency verification; operators other than prim ops "
    "taken as registered";

const char emit::kReleaseBuildWithKernels[] =
    "each release's CMake build, as its pip wheel (from 1.3 "
    "ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0), Program::load with "
    "InternalConsistency verification; the kernels --kernels names";

const char emit::kMainBuild[] = "main, as its CMake build and pip wheel";

StringRef emit::getReleaseVerdictName(ReleaseVerdict verdict) {
  switch (verdict) {
  case ReleaseVerdict::Loads:
    return "loads";
  case ReleaseVerdict::Misreads:
    return "misreads";
  case ReleaseVerdict::Rejects:
    return "rejects";
  case ReleaseVerdict::Crashes:
    return "crashes";
  }
  llvm_unreachable("unknown verdict");
}

std::optional<unsigned> emit::findRelease(StringRef name) {
  name.consume_front("v");
  // "1.2.1" names the minor release 1.2.
  SmallVector<StringRef> parts;
  name.split(parts, '.');
  if (parts.size() == 3 && !parts[2].empty() &&
      llvm::all_of(parts[2], llvm::isDigit))
    name = name.drop_back(parts[2].size() + 1);
  ArrayRef<StringRef> names = getReleaseNames();
  const StringRef *found = llvm::find(names, name);
  if (found == names.end())
    return std::nullopt;
  return found - names.begin();
}

FailureOr<std::optional<unsigned>>
emit::parseRuntimeOption(StringRef option, StringRef value,
                         std::string &error) {
  if (value == "all")
    return std::optional<unsigned>();
  if (std::optional<unsigned> release = findRelease(value))
    return release;
  error = (option + "=" + value + ": not a release emit knows (all, " +
           llvm::join(getReleaseNames(), ", ") + ")")
              .str();
  return failure();
}

namespace {
/// The releases that honour a feature: the run [first, last] that reaches
/// the newest release, else the last run; none when no release does.
struct Honoured {
  std::optional<unsigned> first;
  unsigned last = 0;
};
} // namespace

/// What each release does with `use` of `feature`: the use's own effects
/// where it has them, else the feature's (an end of kUseFirstRelease is the
/// use's first release).
static SmallVector<UseEffect, kMaxEffects>
getUseEffects(const ReleaseFeature &feature, const FeatureUse &use) {
  if (!use.effects.empty())
    return SmallVector<UseEffect, kMaxEffects>(use.effects.begin(),
                                               use.effects.end());
  SmallVector<UseEffect, kMaxEffects> effects;
  for (const ReleaseEffect &effect : feature.effects)
    if (effect.effect)
      effects.push_back(
          {effect.from,
           effect.until == kUseFirstRelease ? use.firstRelease : effect.until,
           effect.verdict, effect.effect});
  for (UseEffect &effect : effects)
    effect.until = std::min<unsigned>(effect.until, getReleaseNames().size());
  return effects;
}

/// The releases that honour a use: those none of its effects covers. A
/// feature honoured, dropped and honoured again (a check added and turned
/// round) is honoured from its last run.
static Honoured getHonoured(ArrayRef<UseEffect> effects) {
  unsigned count = getReleaseNames().size();
  SmallVector<bool, 16> covered(count, false);
  for (const UseEffect &effect : effects)
    for (unsigned release = effect.from; release < effect.until; ++release)
      covered[release] = true;
  Honoured honoured;
  for (unsigned release = 0; release < count; ++release) {
    if (covered[release])
      continue;
    if (release == 0 || covered[release - 1])
      honoured.first = release;
    honoured.last = release;
  }
  return honoured;
}

/// Adds to `report` what each release does with `use` of `feature`.
static void applyUse(const ReleaseFeature &feature, const FeatureUse &use,
                     ReleaseReport &report) {
  ArrayRef<StringRef> names = getReleaseNames();
  SmallVector<UseEffect, kMaxEffects> effects = getUseEffects(feature, use);
  Honoured honoured = getHonoured(effects);
  for (const UseEffect &effect : effects) {
    for (unsigned release = effect.from; release < effect.until; ++release) {
      ReleaseJudgement &judgement = report.releases[release];
      ReleaseReason reason{feature.name,
                           honoured.first ? names[*honoured.first] : "none",
                           std::nullopt,
                           effect.verdict,
                           effect.effect,
                           use.where + ": " + use.what,
                           feature.source,
                           feature.dependsOnBuild,
                           feature.rewrite ? feature.rewrite : "",
                           feature.stage};
      if (honoured.first && honoured.last + 1 < names.size())
        reason.lastRelease = names[honoured.last];
      judgement.reasons.push_back(std::move(reason));
    }
  }
}

/// What a release does, from its reasons: the first stage of loading that
/// fails (rejects or crashes) decides, the worst of its failures; else it
/// loads, wrongly where a reason misreads.
static ReleaseVerdict getVerdict(ArrayRef<ReleaseReason> reasons) {
  std::optional<LoadStage> failing;
  for (const ReleaseReason &reason : reasons)
    if (reason.verdict >= ReleaseVerdict::Rejects &&
        (!failing || reason.stage < *failing))
      failing = reason.stage;
  ReleaseVerdict verdict = ReleaseVerdict::Loads;
  for (const ReleaseReason &reason : reasons) {
    if (failing && reason.stage != *failing)
      continue;
    if (failing && reason.verdict < ReleaseVerdict::Rejects)
      continue;
    verdict = std::max(verdict, reason.verdict);
  }
  return verdict;
}

/// Adds to `report` what each release does with the features of `model`.
static void judgeFeatures(const ProgramModel &model, DataFileCounts dataFiles,
                          ReleaseReport &report) {
  TensorScans tensors;
  ReleaseInput input{model, dataFiles, tensors};
  ArrayRef<ReleaseFeature> features = getReleaseFeatures();
  std::vector<std::vector<FeatureUse>> usesOf(features.size());
  for (auto [feature, uses] : llvm::zip_equal(features, usesOf))
    feature.find(input, uses);
  tensors.run(model);
  for (auto [feature, uses] : llvm::zip_equal(features, usesOf))
    for (const FeatureUse &use : uses)
      applyUse(feature, use, report);
}

DataFileCounts emit::countDataFiles(ArrayRef<const DataFile *> files) {
  DataFileCounts counts;
  for (const DataFile *file : files) {
    if (!file) {
      ++counts.unreadable;
      continue;
    }
    if (file->getLayout() == DataFileLayout::Release0_6) {
      ++counts.layout0_6;
      continue;
    }
    ++counts.current;
    counts.backendKeys += countKeysWithoutLayout(*file);
  }
  return counts;
}

/// Every release, loading, without reasons yet.
static ReleaseReport startReport() {
  ReleaseReport report;
  for (StringRef name : getReleaseNames())
    report.releases.push_back({name, ReleaseVerdict::Loads, {}});
  return report;
}

/// Each release's verdict from its reasons, and the oldest and newest that
/// load.
void ReleaseReport::finish() {
  oldest = newest = std::nullopt;
  for (ReleaseJudgement &judgement : releases)
    judgement.verdict = getVerdict(judgement.reasons);
  for (const ReleaseJudgement &judgement : releases)
    if (judgement.verdict == ReleaseVerdict::Loads) {
      if (!oldest)
        oldest = judgement.release;
      newest = judgement.release;
    }
}

ReleaseReport emit::judgeDataFileReleases(const DataFile &file) {
  ReleaseReport report = startReport();
  bool layout0_6 = file.getLayout() == DataFileLayout::Release0_6;
  // The rows a data file meets on its own: no reader before 0.6, and the
  // layout each release reads.
  StringRef rows[] = {"data-file-reader",
                      layout0_6 ? "ptd-0.6-layout" : "ptd-layout"};
  FeatureUse use{"FlatTensor", layout0_6 ? "a .ptd in the 0.6 layout"
                                         : "a .ptd in the 0.7 layout"};
  for (const ReleaseFeature &feature : getReleaseFeatures())
    if (llvm::is_contained(rows, feature.name))
      applyUse(feature, use, report);
  // 0.6's layout row also covers releases before 0.6; one reason is enough.
  for (unsigned release = 0; release < *findRelease("0.6"); ++release)
    llvm::erase_if(report.releases[release].reasons,
                   [](const ReleaseReason &reason) {
                     return reason.feature != "data-file-reader";
                   });
  report.finish();
  return report;
}

/// Adds `verdict`, a defect of the files as `reason` names it, to the
/// releases from `first` on, met at `stage`.
static void addDefect(ReleaseReport &report, ReleaseVerdict verdict,
                      unsigned first, const char *feature, const char *effect,
                      const char *source, LoadStage stage) {
  if (verdict == ReleaseVerdict::Loads)
    return;
  for (ReleaseJudgement &judgement :
       MutableArrayRef(report.releases).drop_front(first))
    judgement.reasons.push_back({feature, "none", std::nullopt, verdict, effect,
                                 "the findings", source, false, "", stage});
}

/// The verdicts of a program (of `model`, if its flatbuffer verifies) from
/// its features and `defects`.
static ReleaseReport judge(const ProgramModel *model, DataFileCounts dataFiles,
                           FileDefects defects) {
  ReleaseReport report = startReport();
  if (model)
    judgeFeatures(*model, dataFiles, report);
  addDefect(report, defects.program, 0, "defect",
            "the file's errors (the findings), which the snapshot's runtime "
            "meets; an older release is taken to do no better",
            "emit-verify's checks of the file", LoadStage::Program);
  addDefect(report, defects.dataFiles, *findRelease("0.6"), "data-file-defect",
            "the data files' errors (the findings), which every release that "
            "reads data files meets (before 0.6 none does)",
            "emit-verify's checks of the data files", LoadStage::Program);
  addDefect(report, defects.backends, 0, "backend-defect",
            "what a backend's init refuses in a delegate's payload (the "
            "findings), met as load_method initializes the delegates",
            "emit-verify's checks of the payloads", LoadStage::Delegates);
  report.finish();
  return report;
}

ReleaseReport emit::judgeReleases(const ProgramFile *program,
                                  DataFileCounts dataFiles,
                                  FileDefects defects) {
  if (!program)
    return judge(nullptr, dataFiles, defects);
  ProgramModel model(*program);
  return judge(&model, dataFiles, defects);
}

ReleaseReport emit::judgeReleases(const ProgramModel &program,
                                  DataFileCounts dataFiles,
                                  FileDefects defects) {
  return judge(&program, dataFiles, defects);
}

std::string ReleaseReport::describeLoading() const {
  std::string text;
  for (size_t index = 0; index < releases.size();) {
    if (releases[index].verdict != ReleaseVerdict::Loads) {
      ++index;
      continue;
    }
    size_t end = index;
    while (end + 1 < releases.size() &&
           releases[end + 1].verdict == ReleaseVerdict::Loads)
      ++end;
    text += (text.empty() ? "" : ", ") + releases[index].release.str();
    if (end > index)
      text += "-" + releases[end].release.str();
    index = end + 1;
  }
  return text.empty() ? "none" : text;
}

LoadingReleases ReleaseReport::getLoading() const {
  auto str = [](std::optional<StringRef> name) {
    return name ? std::optional<std::string>(name->str()) : std::nullopt;
  };
  return {describeLoading(), str(oldest), str(newest)};
}
