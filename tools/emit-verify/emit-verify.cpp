//===- emit-verify.cpp - Is a .pte sound, will the runtime load it --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-verify PROGRAM.pte [--data=FILE.ptd]... | FILE.ptd [-o FILE]
//
// Reports every defect of the files, each with its check, byte offset and
// table path, and what ExecuTorch's runtime does with them at load. Exits
// 0 when nothing is wrong, 1 when something is (a warning too, with
// --werror), 2 on bad usage or a file that cannot be read.
//
//===----------------------------------------------------------------------===//

#include "emit/InitAll.h"
#include "emit/Support/ReportTool.h"
#include "emit/Verify/Verify.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
namespace cl = llvm::cl;

static cl::OptionCategory category("emit-verify options");
static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<program.pte | data.ptd>"),
                                      cl::cat(category));
static cl::list<std::string>
    dataPaths("data",
              cl::desc("A data file (.ptd) the program loads with "
                       "(repeatable): checked on its own and against the "
                       "program"),
              cl::value_desc("file.ptd"), cl::cat(category));
static FormatOption format("How to print the findings",
                           {{ReportFormat::Text, "one line per finding"},
                            {ReportFormat::JSON, "JSON, schema emit-verify-1"},
                            {ReportFormat::SARIF, "SARIF 2.1.0"}},
                           category);
static cl::opt<std::string> runtimeRelease(
    "runtime",
    cl::desc("Also say what runtime releases do with the program: 'all' "
             "(0.1 to 1.4 and main) or one ('1.2')"),
    cl::value_desc("all|release"), cl::cat(category));
static cl::opt<bool> warningsAreErrors("werror",
                                       cl::desc("Exit 1 on a warning too"),
                                       cl::cat(category));
static OutputOption outputPath(category);

static int run() {
  std::optional<unsigned> printedRelease;
  if (!runtimeRelease.empty()) {
    std::string error;
    FailureOr<std::optional<unsigned>> release =
        parseRuntimeOption("--runtime", runtimeRelease, error);
    if (failed(release)) {
      llvm::errs() << "emit-verify: " << error << "\n";
      return 2;
    }
    printedRelease = *release;
  }

  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  std::string error;
  FailureOr<VerifyReport> report =
      verifyFiles(inputPath, dataPaths, context, error,
                  /*withReleases=*/!runtimeRelease.empty());
  if (failed(report)) {
    llvm::errs() << "emit-verify: " << error << "\n";
    return 2;
  }
  report->printedRelease = printedRelease;
  bool failedCheck = report->count(Severity::Error) ||
                     (warningsAreErrors && report->count(Severity::Warning));
  return writeReport("emit-verify", outputPath, *report, format,
                     failedCheck ? 1 : 0);
}

int main(int argc, char **argv) {
  return runReportTool(argc, argv, "emit-verify", category,
                       "is a .pte (with its .ptd files) or a .ptd sound, and "
                       "what does ExecuTorch's runtime do with it at load",
                       run);
}
