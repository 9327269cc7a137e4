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

namespace emit {
class ProgramFile;
class ProgramModel;

/// Adds to `findings` what the runtime refuses in `model`'s program
/// loaded with `dataFileCount` data files: tensors that take their data
/// from a data file when none is given (naming the keys it must hold), and
/// the deprecated constant_buffer path, which builds from 1.3 disable (a
/// warning: a build that enables it loads the program).
void checkProgramLoad(const ProgramModel &model, unsigned dataFileCount,
                      FindingList &findings);

} // namespace emit

#endif // EMIT_LIB_VERIFY_LOADCHECKS_H
