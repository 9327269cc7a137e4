//===- Releases.h - Which ExecuTorch runtime releases load a program ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A verdict per minor runtime release (0.1 to 1.4 and the snapshot's main):
// whether it loads a program, refuses it, crashes on it, or loads it and
// reads it wrong, from the features of the file each release lacks. The
// features and the releases that honour them are one table
// (ReleaseFeatures.cpp), each row citing the release source that decides
// it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_RELEASES_RELEASES_H
#define EMIT_RELEASES_RELEASES_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace emit {
class ProgramFile;
class ProgramModel;

/// What a runtime release does with a file, best first.
enum class ReleaseVerdict { Loads, Misreads, Rejects, Crashes };
StringRef getReleaseVerdictName(ReleaseVerdict verdict);

/// The releases judged, oldest first: "0.1" ... "1.4", "main".
ArrayRef<StringRef> getReleaseNames();
/// The position of `name` ("1.2", "v1.2", "v1.2.0", "main") in
/// getReleaseNames(); none for a release emit does not know.
std::optional<unsigned> findRelease(StringRef name);

/// The value of the option `option` (`--runtime`): "all" (none: every
/// release) or one release; a failure, with `error` naming the releases
/// emit knows, otherwise.
FailureOr<std::optional<unsigned>>
parseRuntimeOption(StringRef option, StringRef value, std::string &error);

/// When a runtime meets a feature as it loads a program: the first stage
/// that fails decides what the release does.
enum class LoadStage {
  /// Program::load, and the data files before any method.
  Program,
  /// load_method: the values, then the delegate entries' init, then the
  /// operators' kernels.
  Values,
  Delegates,
  Operators,
};

/// Why a release does what it does: one feature of the file it lacks.
struct ReleaseReason {
  /// The feature, as the table names it (`scalar-type-uint`).
  std::string feature;
  /// The first release that honours it ("0.1" for one a later release
  /// dropped).
  StringRef firstRelease;
  /// The last release that honours it, for a feature later releases drop.
  std::optional<StringRef> lastRelease;
  ReleaseVerdict verdict;
  /// What the release does with it.
  std::string effect;
  /// Where the file uses it (a table path), and what it uses.
  std::string where;
  /// The release source that decides it.
  StringRef source;
  /// Whether it holds only for some builds of the release (see
  /// kReleaseBuild).
  bool dependsOnBuild = false;
  /// The pass (its argument) that rewrites the program not to use it;
  /// empty when no rewrite removes it.
  StringRef rewrite;
  LoadStage stage = LoadStage::Values;
};

/// One release's verdict and its reasons (none when it loads).
struct ReleaseJudgement {
  StringRef release;
  ReleaseVerdict verdict = ReleaseVerdict::Loads;
  std::vector<ReleaseReason> reasons;
};

/// The build of each release the verdicts are for.
extern const char kReleaseBuild[];
/// The same build registering the kernels `--kernels` names.
extern const char kReleaseBuildWithKernels[];
/// The same, of main alone: the build emit-verify's verdict is for.
extern const char kMainBuild[];

/// The releases that load a program, in short: for a summary.
struct LoadingReleases {
  /// As runs: "0.5-main", "0.1, 1.2", "none".
  std::string loading;
  /// The oldest and newest, when any does.
  std::optional<std::string> oldest, newest;
};

/// Every release's verdict on a program.
struct ReleaseReport {
  std::vector<ReleaseJudgement> releases;
  /// The oldest and newest releases that load it (loads, not misreads).
  std::optional<StringRef> oldest, newest;
  /// The releases that load it as runs ("0.5-main", "0.1-1.2, main").
  std::string describeLoading() const;
  /// Derives each release's verdict from its reasons, and the oldest and
  /// newest that load it: after reasons are added.
  void finish();
  LoadingReleases getLoading() const;
};

/// The data files a program is loaded with, by the layout they are in.
struct DataFileCounts {
  unsigned current = 0;
  /// In ExecuTorch 0.6's layout.
  unsigned layout0_6 = 0;
  /// Keys of the current-layout files with no tensor layout: data for
  /// backends, not for tensors.
  unsigned backendKeys = 0;
  /// That do not read at all (their findings are a defect).
  unsigned unreadable = 0;
  unsigned total() const { return current + layout0_6 + unreadable; }
};

class DataFile;
/// What `files` (null where one does not read) hold, as the release table
/// asks: how many in each layout, and their keys for backends.
DataFileCounts countDataFiles(ArrayRef<const DataFile *> files);

/// What each release does with the data file `file` (readable) on its own:
/// whether it reads one at all, and in which layout.
ReleaseReport judgeDataFileReleases(const DataFile &file);

/// What emit's checks of the files say the snapshot's runtime does, by
/// the releases that meet each defect and when they meet it.
struct FileDefects {
  /// The program's errors: every release meets them (an older one is taken
  /// to do no better), at Program::load.
  ReleaseVerdict program = ReleaseVerdict::Loads;
  /// The data files' (and the program's against them): every release that
  /// reads data files (0.6 on; before, the runtime ignores them).
  ReleaseVerdict dataFiles = ReleaseVerdict::Loads;
  /// What backends' inits refuse in the payloads: every release, as
  /// load_method initializes the delegates.
  ReleaseVerdict backends = ReleaseVerdict::Loads;
};

/// What each release does with `program` (none when its tables do not
/// read), loaded with `dataFiles`, whose checks found `defects`.
ReleaseReport judgeReleases(const ProgramFile *program,
                            DataFileCounts dataFiles, FileDefects defects = {});
/// The same, of a program whose model is built already.
ReleaseReport judgeReleases(const ProgramModel &program,
                            DataFileCounts dataFiles, FileDefects defects = {});

} // namespace emit

#endif // EMIT_RELEASES_RELEASES_H
