//===- emit-diff.cpp - What changed between two exports ------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-diff OLD.pte NEW.pte [--old-data=F.ptd]... [--new-data=F.ptd]...
// emit-diff OLD.bpte NEW.bpte   (bundled programs: their test suites too)
// emit-diff OLD.ptd NEW.ptd
// emit-diff --graph OLD.pte NEW.pte [--method=OLD=NEW]...
//           [--model-explorer=DIR]
//   (each method's graph matched node by node, delegate payloads included)
//
// Exits as diff(1): 0 when both hold the same program content, layout
// aside; 1 when the content differs; 2 on an error.
//
//===----------------------------------------------------------------------===//

#include "emit/Diff/Diff.h"
#include "emit/Diff/GraphDiff.h"
#include "emit/InitAll.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/ReportTool.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
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
static cl::opt<bool>
    graphDiff("graph",
              cl::desc("Match each method's graph node by node, the "
                       "operators inside delegate payloads included: what "
                       "was added, removed, changed or moved"),
              cl::cat(category));
static cl::list<std::string>
    methodPairs("method",
                cl::desc("With --graph: compare method OLD of the old "
                         "program with NEW of the new (repeatable); others "
                         "pair by name"),
                cl::value_desc("old=new"), cl::cat(category));
static cl::opt<std::string> modelExplorerDir(
    "model-explorer",
    cl::desc("With --graph: write both graphs as Model Explorer JSON "
             "(old.json, new.json) and, per method pair, the mapping its "
             "split view syncs by (mapping-N.json) into DIR"),
    cl::value_desc("DIR"), cl::cat(category));
static FormatOption
    format("How to print the differences",
           {{ReportFormat::Text, "text for people"},
            {ReportFormat::JSON,
             "JSON, schema emit-diff-1 (with --graph, emit-graph-diff-1)"},
            {ReportFormat::HTML, "one self-contained HTML page"}},
           category);
static OutputOption outputPath(category);

/// Writes the Model Explorer files of `report` into `dir`.
static int writeModelExplorer(const graphdiff::GraphDiffReport &report,
                              StringRef dir) {
  if (std::error_code error = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << "emit-diff: cannot create '" << dir
                 << "': " << error.message() << "\n";
    return 2;
  }
  auto path = [&](const Twine &name) {
    llvm::SmallString<128> file(dir);
    llvm::sys::path::append(file, name);
    return std::string(file);
  };
  int status = writeOutput(
      "emit-diff", path("old.json"),
      [&](raw_ostream &os) {
        graph::printModelExplorerJSON(*report.oldGraph, os);
      },
      0);
  if (status == 0)
    status = writeOutput(
        "emit-diff", path("new.json"),
        [&](raw_ostream &os) {
          graph::printModelExplorerJSON(*report.newGraph, os);
        },
        0);
  for (size_t k = 0; k < report.methods.size() && status == 0; ++k)
    status = writeOutput(
        "emit-diff", path("mapping-" + Twine(k) + ".json"),
        [&](raw_ostream &os) {
          graphdiff::printModelExplorerMapping(report, k, os);
        },
        0);
  return status;
}

static int runGraphDiff() {
  graphdiff::GraphDiffOptions options;
  std::string error;
  for (StringRef text : methodPairs) {
    auto pair = graphdiff::parseMethodPair(text, error);
    if (failed(pair)) {
      llvm::errs() << "emit-diff: " << error << "\n";
      return 2;
    }
    options.methods.push_back(*pair);
  }
  PayloadFiles files;
  FailureOr<graphdiff::GraphDiffReport> report = graphdiff::diffGraphs(
      {oldPath, oldData}, {newPath, newData}, options, files, error);
  if (failed(report)) {
    llvm::errs() << "emit-diff: " << error << "\n";
    return 2;
  }
  if (!modelExplorerDir.empty())
    if (int status = writeModelExplorer(*report, modelExplorerDir))
      return status;
  return writeReport("emit-diff", outputPath, *report, format,
                     report->isUnchanged() ? 0 : 1);
}

static int run() {
  if (graphDiff)
    return runGraphDiff();
  if (!methodPairs.empty() || !modelExplorerDir.empty()) {
    llvm::errs() << "emit-diff: --"
                 << (methodPairs.empty() ? "model-explorer" : "method")
                 << " needs --graph\n";
    return 2;
  }
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
