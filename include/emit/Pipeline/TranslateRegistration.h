//===- TranslateRegistration.h - emit-translate's translations --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The translations of `emit-translate`, with the command-line flags that bind
// their options: the file formats, the summary and `--pte-to-pte`.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_PIPELINE_TRANSLATEREGISTRATION_H
#define EMIT_PIPELINE_TRANSLATEREGISTRATION_H

#include "emit/Support/LLVM.h"

namespace emit {

/// Registers `--to-pte` with the MLIR translation registry.
void registerToPTETranslation();

/// Registers `--from-pte` with the MLIR translation registry.
void registerFromPTETranslation();

/// Whether the translation registered as `name` reads a `.pte` or `.ptd`
/// file (which a driver should map, not copy), and whether it writes IR.
bool readsProgramFile(StringRef name);
bool writesIR(StringRef name);

/// Registers `--from-ptd` and `--to-ptd`.
void registerPTDTranslations();

/// Registers `--pte-summary` (a `.pte` in, a summary out).
void registerPTESummaryTranslation();

/// Registers `--pte-to-pte`: import, a pass pipeline (`--pte-pass-pipeline`,
/// by default `--dedup-delegate-blobs`) and export in one process. This is
/// the fast path for large programs: payloads never leave the input mapping
/// until they are written.
void registerPTEToPTETranslation();

/// Registers emit's translations with the global translation registry.
inline void registerAllTranslations() {
  static bool once = [] {
    registerToPTETranslation();
    registerFromPTETranslation();
    registerPTEToPTETranslation();
    registerPTESummaryTranslation();
    registerPTDTranslations();
    return true;
  }();
  (void)once;
}

} // namespace emit

#endif // EMIT_PIPELINE_TRANSLATEREGISTRATION_H
