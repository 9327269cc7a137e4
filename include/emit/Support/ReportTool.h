//===- ReportTool.h - The frame every report tool runs in -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-verify, emit-memory, emit-diff, emit-profile and emit-graph each read
// files and print one Report. What they share is here, once: the start-up
// (the huge-page heap, LLVM's), the command line, an atomic `-o` (the
// report whole or not written), "cannot write", and the exit code.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_REPORTTOOL_H
#define EMIT_SUPPORT_REPORTTOOL_H

#include "emit/Support/Report.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace emit {

/// A report tool's `-o FILE`: where its report goes ("-", the default:
/// standard output).
class OutputOption : public llvm::cl::opt<std::string> {
public:
  explicit OutputOption(llvm::cl::OptionCategory &category);
};

/// The main of a report tool named `tool`: starts up, parses the command
/// line (only `category`'s options shown), runs `job` and returns its exit
/// code: 0 (nothing wrong), 1 (the report finds something: written all the
/// same) or 2 (bad usage, an input that cannot be read: nothing written).
/// `-o FILE` is written through a temporary file renamed over FILE only
/// when the report is complete.
int runReportTool(int argc, char **argv, StringRef tool,
                  llvm::cl::OptionCategory &category, const char *overview,
                  llvm::function_ref<int()> job);

/// Prints `report` in `format` to `path` ("-": standard output) and
/// returns `exitCode`; when `path` cannot be opened, says so naming `tool`
/// and returns 2.
int writeReport(StringRef tool, StringRef path, const Report &report,
                ReportFormat format, int exitCode);

/// The same for any output `print` writes.
int writeOutput(StringRef tool, StringRef path,
                llvm::function_ref<void(raw_ostream &)> print, int exitCode);

} // namespace emit

#endif // EMIT_SUPPORT_REPORTTOOL_H
