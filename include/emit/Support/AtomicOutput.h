//===- AtomicOutput.h - All-or-nothing output files for tools ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// MLIR's tool mains open `-o FILE` directly: a failed or interrupted run
// truncates or deletes a FILE that existed before. AtomicOutput points `-o`
// at a temporary file beside FILE and renames it over FILE only when the
// tool succeeds, so FILE is either the complete new output or untouched.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_ATOMICOUTPUT_H
#define EMIT_SUPPORT_ATOMICOUTPUT_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/SmallString.h"

#include <string>
#include <vector>

namespace emit {

class AtomicOutput {
public:
  /// Finds `-o FILE` (or `-o=FILE`, `--o ...`) in the arguments and, when
  /// FILE is a regular file path, rewrites it to a new temporary file in
  /// FILE's directory. Check `failed()` before running the tool.
  AtomicOutput(int &argc, char **&argv);
  ~AtomicOutput();

  /// Whether the output cannot be written at all (for example FILE is a
  /// directory or its directory is not writable); the reason was printed.
  bool failed() const { return setupFailed; }

  /// Completes a run whose main returned `exitCode`: on success renames the
  /// temporary file over FILE; otherwise removes it. Returns the tool's
  /// final exit code.
  int finish(int exitCode);

private:
  std::string destination;
  llvm::SmallString<128> temporary;
  std::vector<std::string> storage;
  std::vector<char *> arguments;
  bool setupFailed = false;
};

} // namespace emit

#endif // EMIT_SUPPORT_ATOMICOUTPUT_H
