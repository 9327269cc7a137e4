//===- emit-profile.cpp - A run's ETDump, joined to its program -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-profile [PROGRAM.pte] RUN.etdp [--data=F.ptd]... [--method=NAME]...
//              [--in-order] [--debug-buffer=F] [--baseline OLD.pte OLD.etdp]
//              [--format=text|json|html|chrome-trace] [-o FILE]
//
// With the program: each block to the method it ran, each event to its
// instruction, and per method its runs, load time and each instruction's
// time with its operator and operands or its backend and payload. Alone:
// the events by name. Blocks that fit several methods alike are timed
// together, as a group named by those methods, unless the order in which
// the run executed its methods tells them apart (--in-order). Exits 0, 1 when
// the ETDump does not fit the program (an execution no method's instructions
// explain), 2 on bad usage or a file that cannot be read.
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/ProfileBaseline.h"
#include "emit/Profile/ProfileReport.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/ReportTool.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
using namespace emit::profile;
namespace cl = llvm::cl;

static cl::OptionCategory category("emit-profile options");
static cl::list<std::string> inputPaths(cl::Positional, cl::OneOrMore,
                                        cl::desc("[<program.pte>] <run.etdp>"),
                                        cl::cat(category));
static cl::list<std::string>
    dataPaths("data",
              cl::desc("A data file (.ptd) the program ran with "
                       "(repeatable)"),
              cl::value_desc("file.ptd"), cl::cat(category));
static cl::list<std::string>
    methodNames("method",
                cl::desc("A method the run executed (repeatable; default: "
                         "any of the program's): blocks are matched among "
                         "these only"),
                cl::value_desc("name"), cl::cat(category));
static cl::opt<bool> inOrder(
    "in-order",
    cl::desc("The run loaded and executed the methods in the order --method "
             "names them (without --method: the program's order), each "
             "loaded before its executions: blocks methods fit alike are "
             "assigned by that order"),
    cl::cat(category));
static cl::opt<std::string> debugBufferPath(
    "debug-buffer",
    cl::desc("The debug buffer ETDumpGen's data sink wrote logged tensors "
             "to: their statistics (min, max, mean, NaN, Inf)"),
    cl::value_desc("file"), cl::cat(category));
static cl::list<std::string> baselinePaths(
    "baseline", cl::multi_val(2),
    cl::desc("Compare with a baseline run: its program and ETDump; the "
             "same methods of both programs instruction by instruction, "
             "the others by operator"),
    cl::value_desc("old.pte old.etdp"), cl::cat(category));
static FormatOption format("How to print the report",
                           {{ReportFormat::Text, "for people"},
                            {ReportFormat::JSON, "JSON, schema emit-profile-1"},
                            {ReportFormat::HTML, "one self-contained page"},
                            {ReportFormat::ChromeTrace,
                             "the events as a Chrome trace "
                             "(Perfetto, chrome://tracing)"}},
                           category);
static OutputOption outputPath(category);

static int run() {
  if (inputPaths.size() > 2) {
    llvm::errs() << "emit-profile: expected [PROGRAM.pte] RUN.etdp, got "
                 << inputPaths.size() << " files\n";
    return 2;
  }
  if ((!dataPaths.empty() || !methodNames.empty() || !debugBufferPath.empty() ||
       !baselinePaths.empty() || inOrder) &&
      inputPaths.size() == 1) {
    llvm::errs() << "emit-profile: --data, --method, --in-order, "
                    "--debug-buffer and --baseline need the program they go "
                    "with\n";
    return 2;
  }
  ProfileOptions options;
  if (inputPaths.size() == 2)
    options.program = inputPaths.front();
  options.dataFiles.assign(dataPaths.begin(), dataPaths.end());
  options.methods.assign(methodNames.begin(), methodNames.end());
  options.inOrder = inOrder;
  options.debugBuffer = debugBufferPath;
  options.timeline =
      format == ReportFormat::ChromeTrace || format == ReportFormat::HTML;
  const std::string &etdumpPath = inputPaths[inputPaths.size() - 1];
  PayloadFiles files;
  std::string error;
  std::shared_ptr<const FileBuffer> etdump = files.open(etdumpPath, error);
  if (!etdump) {
    llvm::errs() << "emit-profile: " << cannotRead(etdumpPath, error) << "\n";
    return 2;
  }
  FailureOr<ProfileReport> report =
      analyzeProfile(std::move(etdump), files, options, error);
  if (failed(report)) {
    llvm::errs() << "emit-profile: " << error << "\n";
    return 2;
  }
  if (!baselinePaths.empty() &&
      failed(compareWithBaselineRun(
          *report, options, {baselinePaths[0], baselinePaths[1]}, files,
          [](StringRef message) {
            llvm::errs() << "emit-profile: baseline: " << message << "\n";
          })))
    return 2;
  return writeReport("emit-profile", outputPath, *report, format,
                     report->fits() ? 0 : 1);
}

int main(int argc, char **argv) {
  return runReportTool(argc, argv, "emit-profile", category,
                       "a run's ETDump, joined to the program that ran", run);
}
