//===- ProfileBaseline.h - A run against an older run -----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-profile --baseline as a library, for the tool and the C API: which
// methods are the same in both programs is emit-diff's finding (methods
// op by op, data by its bytes), then the profile library compares the
// runs (profile::compareWithBaseline).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIFF_PROFILEBASELINE_H
#define EMIT_DIFF_PROFILEBASELINE_H

#include "emit/Profile/ProfileReport.h"

namespace emit {
class PayloadFiles;

/// The older run a profile is compared with: its program and ETDump.
struct BaselineRun {
  std::string program;
  std::string etdump;
};

/// Compares `report`, a run of `options.program` with `options.dataFiles`,
/// with `baseline`, reading its files through the job's `files`. What
/// reading the programs says (an import's warnings and errors) goes to
/// `diagnose` as it is said; fails when a baseline file cannot be read or
/// a program does not import, the reason said last.
LogicalResult
compareWithBaselineRun(profile::ProfileReport &report,
                       const profile::ProfileOptions &options,
                       const BaselineRun &baseline, PayloadFiles &files,
                       llvm::function_ref<void(StringRef)> diagnose);

} // namespace emit

#endif // EMIT_DIFF_PROFILEBASELINE_H
