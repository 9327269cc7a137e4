//===- Version.h - Which emit this is ---------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit's version is set in one place, the root CMakeLists.txt's project():
// the tools' --version, the C API's emitGetVersion, Python's
// emit.__version__ and the Python package's metadata all read it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_VERSION_H
#define EMIT_SUPPORT_VERSION_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace emit {

/// emit's version, `MAJOR.MINOR.PATCH`.
StringRef getVersion();

/// Makes `--version` of the tool being built print emit's version and the
/// MLIR it was built with, instead of LLVM's.
void setVersionPrinter();

} // namespace emit

#endif // EMIT_SUPPORT_VERSION_H
