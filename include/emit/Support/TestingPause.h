//===- TestingPause.h - Let tests act between a tool's stages ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Some guarantees are about what happens while a tool runs: an input that
// changes after it was read must fail the run, not end up in its output.
// The hidden option --testing-pause=STAGE:FILE makes a tool stop at STAGE,
// create FILE and wait until FILE is removed, so that a test can change an
// input at exactly that point (test/tools/Inputs/run-and-change.py).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_TESTINGPAUSE_H
#define EMIT_SUPPORT_TESTINGPAUSE_H

#include "emit/Support/LLVM.h"

namespace emit {

/// The stages a tool can be paused at.
enum class TestingStage {
  /// Every input has been read and imported; nothing has been computed.
  InputsRead,
  /// Every output has been written and is about to be committed.
  BeforeCommit,
};

/// Pauses at `stage` if --testing-pause asks for it: creates the file it
/// names and waits until the file is removed (a minute at most). Does
/// nothing otherwise.
void pauseForTesting(TestingStage stage);

} // namespace emit

#endif // EMIT_SUPPORT_TESTINGPAUSE_H
