//===- ReleaseFeatures.h - The features each runtime release honours ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_RELEASES_RELEASEFEATURES_H
#define EMIT_LIB_RELEASES_RELEASEFEATURES_H

#include "emit/File/ProgramModel.h"
#include "emit/Releases/Releases.h"

#include <limits>

namespace emit {

/// What a feature is looked for in.
struct ReleaseInput {
  const ProgramModel &model;
  const executorch_flatbuffer::Program &program;
  /// The data files the program is loaded with.
  DataFileCounts dataFiles;
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
