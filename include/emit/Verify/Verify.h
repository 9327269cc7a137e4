//===- Verify.h - Is a program sound, and will the runtime load it -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-verify as a library: imports a `.pte` with its `.ptd` files (or one
// `.ptd`) collecting every finding instead of stopping at the first, checks
// the program against its data files, and says what ExecuTorch's runtime
// does with them at load.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_VERIFY_VERIFY_H
#define EMIT_VERIFY_VERIFY_H

#include "emit/File/Findings.h"
#include "emit/Kernels/KernelCalls.h"
#include "emit/Releases/Releases.h"
#include "emit/Support/FileBuffer.h"
#include "emit/Support/LLVM.h"
#include "emit/Support/Report.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace emit {

/// What emit-verify found in a program and its data files.
/// How the runtime loads the file verified.
enum class LoadedAs {
  /// Program::load, then load_method of every method.
  Program,
  /// Its embedded program, as extension/module loads a bundle.
  BundledProgram,
  /// A data file, which FlatTensorDataMap::load reads beside a program.
  DataFile,
};

/// `program`, `bundled_program` or `data_file`, as JSON names it.
StringRef getLoadedAsName(LoadedAs loadedAs);

struct VerifyReport : Report {
  /// The files verified, as named: the program (or data file) first.
  std::vector<std::string> files;
  FindingList findings;
  /// What the snapshot's runtime (main, as the release table judges it:
  /// its CMake build) does with the files at load.
  RuntimeLoad runtimeLoad = RuntimeLoad::Loads;
  LoadedAs loadedAs = LoadedAs::Program;
  /// The backends whose init refuses (or reads past) what a delegate's
  /// payload holds, when they alone fail the files: the core runtime loads
  /// the program.
  std::vector<std::string> refusingBackends;
  /// What each runtime release does with the program; main's row is the
  /// verdict.
  std::optional<ReleaseReport> releases;
  /// Whether the report shows the release table (--runtime).
  bool showReleases = false;
  /// The one release to print (a position in getReleaseNames()); every
  /// release when none.
  std::optional<unsigned> printedRelease;
  /// With --kernels: the calls the build has no kernel for, at main.
  std::optional<kernels::KernelCheck> kernels;

  unsigned count(Severity severity) const;
  /// Text, JSON (emit-verify-1) or SARIF 2.1.0.
  void print(ReportFormat format, raw_ostream &os) const override;
};

/// Verifies the `.pte` or `.ptd` at `path`, a program with the data files
/// at `dataFiles`, each opened through the context's payload files. Fails,
/// with the reason in `error`, only when a file cannot be read or the
/// options are impossible (data files for a data file, release verdicts
/// for one); what is wrong with a readable file is a finding. With
/// `withReleases`, says what each runtime release does with a program;
/// with `kernels`, whether a build of those kernels runs every call.
FailureOr<VerifyReport>
verifyFiles(StringRef path, ArrayRef<std::string> dataFiles,
            mlir::MLIRContext &context, std::string &error,
            bool withReleases = false,
            const kernels::KernelSpec *kernels = nullptr);

/// The same for the `.pte` or `.ptd` `input` (bytes in memory).
FailureOr<VerifyReport>
verifyBuffer(std::shared_ptr<const FileBuffer> input,
             ArrayRef<std::string> dataFiles, mlir::MLIRContext &context,
             std::string &error, bool withReleases = false,
             const kernels::KernelSpec *kernels = nullptr);

/// The report as lines in emit's diagnostic style, then the runtime's
/// verdict and the counts.
void printVerifyText(const VerifyReport &report, raw_ostream &os);
/// The report as JSON, schema `emit-verify-1`.
void printVerifyJSON(const VerifyReport &report, raw_ostream &os);
/// The report as a SARIF 2.1.0 log, one run of the tool emit-verify.
void printVerifySARIF(const VerifyReport &report, raw_ostream &os);

} // namespace emit

#endif // EMIT_VERIFY_VERIFY_H
