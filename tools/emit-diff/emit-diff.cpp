//===- emit-diff.cpp - What changed between two exports ------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-diff OLD.pte NEW.pte [--old-data=F.ptd]... [--new-data=F.ptd]...
// emit-diff OLD.bpte NEW.bpte   (bundled programs: their test suites too)
// emit-diff OLD.ptd NEW.ptd
//
// Exits as diff(1): 0 when both hold the same program content, layout
// aside; 1 when the content differs; 2 on an error.
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/Diff.h"
#include "emit/InitAll.h"
#include "emit/Support/ReportTool.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
namespace cl = llvm::cl;

static cl::OptionCategory category("emit-diff options");
static cl::opt<std::string> oldPath(cl::Positional, cl::Required,
                                    cl::desc("<old.pte | old.ptd>"),
                                    cl::cat(category));
static cl::opt<std::string> newPath(cl::Positional, cl::Required,
                                    cl::desc("<new.pte | new.ptd>"),
                                    cl::cat(category));
static cl::list<std::string>
    oldData("old-data",
            cl::desc("A data file the old program loads with (repeatable)"),
            cl::value_desc("file.ptd"), cl::cat(category));
static cl::list<std::string>
    newData("new-data",
            cl::desc("A data file the new program loads with (repeatable)"),
            cl::value_desc("file.ptd"), cl::cat(category));
static FormatOption
    format("How to print the differences",
           {{ReportFormat::Text, "text for people"},
            {ReportFormat::JSON, "JSON, schema emit-diff-1"},
            {ReportFormat::HTML, "one self-contained HTML page"}},
           category);
static OutputOption outputPath(category);

static int run() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // An error about no place in a file (a file that cannot be read, two
  // sides that cannot be compared) is the tool's own.
  mlir::ScopedDiagnosticHandler toolErrors(&context, [](mlir::Diagnostic &d) {
    if (!isa<mlir::UnknownLoc>(d.getLocation()))
      return mlir::failure();
    llvm::errs() << "emit-diff: " << d.str() << "\n";
    return mlir::success();
  });
  FailureOr<DiffReport> report =
      diffFiles({oldPath, oldData}, {newPath, newData}, context);
  if (failed(report))
    return 2;
  return writeReport("emit-diff", outputPath, *report, format,
                     report->sameContent() ? 0 : 1);
}

int main(int argc, char **argv) {
  return runReportTool(argc, argv, "emit-diff", category,
                       "what changed between two ExecuTorch exports (.pte "
                       "or .bpte with its .ptd files, or .ptd), layout "
                       "aside, and what it costs in bytes",
                       run);
}
