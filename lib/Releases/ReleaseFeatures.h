//===- ReleaseFeatures.h - The features each runtime release honours ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_RELEASES_RELEASEFEATURES_H
#define EMIT_LIB_RELEASES_RELEASEFEATURES_H

#include "emit/File/ProgramModel.h"
#include "emit/Releases/Releases.h"

#include <functional>
#include <limits>

namespace emit {

/// The finders' questions about tensors, answered in one walk over every
/// tensor of every method: decoding a tensor is most of a judgement's cost
/// on a program of many tensors, so no finder walks them on its own.
class TensorScans {
public:
  using Visit = std::function<void(const MethodModel &, uint32_t value,
                                   const TensorModel &)>;
  using Finish = std::function<void()>;
  /// Adds a scan: `visit` sees each tensor, then `finish` runs once.
  void add(Visit visit, Finish finish) {
    scans.push_back({std::move(visit), std::move(finish)});
  }
  /// Walks `model`'s tensors once for every scan added, then finishes
  /// each in the order they were added.
  void run(const ProgramModel &model);

private:
  std::vector<std::pair<Visit, Finish>> scans;
};

/// What a feature is looked for in.
struct ReleaseInput {
  const ProgramModel &model;
  /// The data files the program is loaded with.
  DataFileCounts dataFiles;
  /// Where finders ask about every tensor; their uses are complete once
  /// it has run.
  TensorScans &tensors;
};

/// What the releases [from, until) do with one use of a feature, where
/// that differs by use.
struct UseEffect {
  unsigned from = 0, until = 0;
  ReleaseVerdict verdict = ReleaseVerdict::Loads;
  std::string effect;
};

/// One use of a feature in a file.
struct FeatureUse {
  /// A table path ("execution_plan[0] 'forward'.values[3]").
  std::string where;
  /// What it uses ("Half tensors (2 tensors)").
  std::string what;
  /// The first release that honours this use, where it differs by use
  /// (a prim op's); else the feature's.
  unsigned firstRelease = 0;
  /// What the releases do with this use, where it differs by use (a
  /// tensor's data, read by its index as releases before 0.6 read it);
  /// none: the feature's effects.
  std::vector<UseEffect> effects;
};

/// Appends the uses of a feature in a file.
using FeatureFinder = void (*)(const ReleaseInput &, std::vector<FeatureUse> &);

/// An Effect's end that is each use's own first release.
constexpr unsigned kUseFirstRelease = std::numeric_limits<unsigned>::max();

/// What the releases [from, until) do with a file that uses a feature.
struct ReleaseEffect {
  unsigned from = 0, until = 0;
  ReleaseVerdict verdict = ReleaseVerdict::Loads;
  const char *effect = nullptr;
};

/// The most effects a row has.
constexpr unsigned kMaxEffects = 2;

/// A row of the table (a constant: the table has no constructor to run).
struct ReleaseFeature {
  const char *name;
  /// The release sources that decide it.
  const char *source;
  /// Its effects; unused ones have no text.
  ReleaseEffect effects[kMaxEffects];
  FeatureFinder find;
  /// Whether the effects hold only for some builds (kReleaseBuild).
  bool dependsOnBuild = false;
  /// The pass (its argument) that rewrites a program not to use it, for
  /// the releases its effects cover; none when no rewrite removes it.
  const char *rewrite = nullptr;
  /// When the runtime meets it.
  LoadStage stage = LoadStage::Values;
};

/// The table, one row per feature.
ArrayRef<ReleaseFeature> getReleaseFeatures();

} // namespace emit

#endif // EMIT_LIB_RELEASES_RELEASEFEATURES_H
