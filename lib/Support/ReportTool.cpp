//===- ReportTool.cpp - The frame every report tool runs in ---------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/ReportTool.h"
#include "emit/Support/AtomicOutput.h"
#include "emit/Support/HugePageHeap.h"
#include "emit/Support/Version.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
namespace cl = llvm::cl;

OutputOption::OutputOption(cl::OptionCategory &category)
    : cl::opt<std::string>("o", cl::desc("Write to this file"),
                           cl::value_desc("file"), cl::init("-"),
                           cl::cat(category)) {}

int emit::runReportTool(int argc, char **argv, StringRef tool,
                        cl::OptionCategory &category, const char *overview,
                        llvm::function_ref<int()> job) {
  restartWithHugePageHeap(argv);
  llvm::InitLLVM initLLVM(argc, argv);
  AtomicOutput output(argc, argv);
  if (output.failed())
    return 2;
  cl::HideUnrelatedOptions(category);
  setVersionPrinter();
  std::string title = (tool + ": " + overview + "\n").str();
  if (!cl::ParseCommandLineOptions(argc, argv, title, &llvm::errs()))
    return output.finish(2);
  int code = job();
  // A report that finds something is a report: it is written all the same.
  int written = output.finish(code == 2 ? 2 : 0);
  return written ? written : code;
}

int emit::writeReport(StringRef tool, StringRef path, const Report &report,
                      ReportFormat format, int exitCode) {
  return writeOutput(
      tool, path, [&](raw_ostream &os) { report.print(format, os); }, exitCode);
}

int emit::writeOutput(StringRef tool, StringRef path,
                      llvm::function_ref<void(raw_ostream &)> print,
                      int exitCode) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error) {
    llvm::errs() << tool << ": cannot write '" << path
                 << "': " << error.message() << "\n";
    return 2;
  }
  // A report of many small objects is written in pieces of a few hundred
  // bytes: through the file's own 4 KiB buffer that is a system call per
  // 2 KiB of JSON (4,000 for a 50,000-node graph).
  os.SetBufferSize(size_t(256) << 10);
  print(os);
  return exitCode;
}
