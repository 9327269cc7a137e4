//===- emit-verify.cpp - Is a .pte sound, will the runtime load it --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-verify PROGRAM.pte [--data=FILE.ptd]... | FILE.ptd [-o FILE]
// emit-verify --write-selected-ops=FILE PROGRAM.pte...
//
// Reports every defect of the files, each with its check, byte offset and
// table path, and what ExecuTorch's runtime does with them at load. Exits
// 0 when nothing is wrong, 1 when something is (a warning too, with
// --werror), 2 on bad usage or a file that cannot be read. With
// --write-selected-ops it writes the programs' selected_operators.yaml
// instead.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/InitAll.h"
#include "emit/Kernels/KernelCalls.h"
#include "emit/Kernels/KernelLibraries.h"
#include "emit/Kernels/KernelRegistry.h"
#include "emit/Support/ReportTool.h"
#include "emit/Verify/Verify.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
namespace cl = llvm::cl;

static cl::OptionCategory category("emit-verify options");
static cl::list<std::string>
    inputPaths(cl::Positional, cl::OneOrMore,
               cl::desc("<program.pte | data.ptd> (programs with "
                        "--write-selected-ops)"),
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
static cl::opt<std::string> kernelsOption(
    "kernels",
    cl::desc("The kernels the build registers, comma-separated: libraries "
             "(portable, optimized, quantized, cortex_m, llm, "
             "portable_custom, et_copy), a selected_operators.yaml that "
             "narrows them, files listing kernels (NAME or NAME KEY a "
             "line); every kernel call is checked against them at each "
             "release"),
    cl::value_desc("list"), cl::cat(category));
static cl::opt<std::string> selectedOpsPath(
    "write-selected-ops",
    cl::desc("Write the selected_operators.yaml of the programs given "
             "(one or more) for a selective build, every kernel key they "
             "use, instead of verifying"),
    cl::value_desc("file.yaml"), cl::cat(category));
static cl::opt<bool> warningsAreErrors("werror",
                                       cl::desc("Exit 1 on a warning too"),
                                       cl::cat(category));
static OutputOption outputPath(category);

/// --write-selected-ops: the programs' operators and kernel keys, with the
/// operators each library of `libraries` provides at `release` as comments.
static int writeSelectedOps(mlir::MLIRContext &context,
                            ArrayRef<std::string> libraries, unsigned release) {
  std::string error;
  FailureOr<kernels::KernelUses> uses = kernels::collectKernelUses(
      et::getPayloadFiles(&context), inputPaths, error);
  if (failed(uses)) {
    llvm::errs() << "emit-verify: " << error << "\n";
    return 2;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  kernels::writeSelectedOperators(*uses, libraries, release, os);
  if (llvm::Error written =
          llvm::writeToOutput(selectedOpsPath, [&](raw_ostream &out) {
            out << text;
            return llvm::Error::success();
          })) {
    llvm::errs() << "emit-verify: cannot write '" << selectedOpsPath
                 << "': " << llvm::toString(std::move(written)) << "\n";
    return 2;
  }
  size_t keys = 0;
  for (const auto &entry : uses->operators)
    keys += entry.second.keys.size();
  llvm::outs() << selectedOpsPath << ": " << uses->operators.size()
               << " operators, " << keys << " kernel keys, of "
               << uses->programs.size()
               << (uses->programs.size() == 1 ? " program\n" : " programs\n");
  return 0;
}

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

  std::optional<kernels::KernelSpec> kernelSpec;
  if (!kernelsOption.empty()) {
    std::string error;
    FailureOr<kernels::KernelSpec> spec =
        kernels::parseKernelSpec(kernelsOption, error);
    if (failed(spec)) {
      llvm::errs() << "emit-verify: " << error << "\n";
      return 2;
    }
    kernelSpec = std::move(*spec);
  }

  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  if (!selectedOpsPath.empty()) {
    if (!dataPaths.empty()) {
      llvm::errs() << "emit-verify: --write-selected-ops takes programs, "
                      "not --data\n";
      return 2;
    }
    std::vector<std::string> libraries(kernels::getLibraryNames().begin(),
                                       kernels::getLibraryNames().end());
    return writeSelectedOps(
        context, kernelSpec ? kernelSpec->libraries : libraries,
        printedRelease.value_or(getReleaseNames().size() - 1));
  }
  if (inputPaths.size() != 1) {
    llvm::errs() << "emit-verify: verifies one file (" << inputPaths.size()
                 << " given); several programs go with --write-selected-ops\n";
    return 2;
  }
  std::string error;
  FailureOr<VerifyReport> report =
      verifyFiles(inputPaths.front(), dataPaths, context, error,
                  /*withReleases=*/!runtimeRelease.empty(),
                  kernelSpec ? &*kernelSpec : nullptr);
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
