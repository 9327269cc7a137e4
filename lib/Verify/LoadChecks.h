//===- LoadChecks.h - A program against what it is loaded with --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the snapshot's runtime (main, as its CMake build and pip wheel)
// does with a readable program given the data files it is loaded with:
// checks the file layer cannot make on the program alone.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_VERIFY_LOADCHECKS_H
#define EMIT_LIB_VERIFY_LOADCHECKS_H

#include "emit/File/Findings.h"

#include <string>
#include <vector>

namespace emit {
class ProgramFile;
class ProgramModel;
namespace delegate {
class DelegateCalls;
} // namespace delegate

/// Adds to `findings` what the runtime refuses in `model`'s program (every
/// table of which reads) loaded with `dataFileCount` data files: tensors
/// that take their data from a data file when none is given (naming the
/// keys it must hold), and what a backend's init refuses in a delegate
/// call's payload (`calls`, of the same program and data files).
/// The backends whose init fails on what their payloads hold go to
/// `refusingBackends`, each once.
void checkProgramLoad(const ProgramModel &model, delegate::DelegateCalls &calls,
                      unsigned dataFileCount, FindingList &findings,
                      std::vector<std::string> &refusingBackends);

/// Adds to `findings` a warning when `model`'s program (its flatbuffer
/// verified) relies on the deprecated constant_buffer path, which builds
/// from 1.3 disable: Program::load refuses it there, other builds load it.
void checkConstantBufferPath(const ProgramModel &model, FindingList &findings);

} // namespace emit

#endif // EMIT_LIB_VERIFY_LOADCHECKS_H
