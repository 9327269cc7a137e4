//===- emit-graph.cpp - Every method of a program as a graph --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-graph PROGRAM.pte|.bpte [--data=F.ptd]... [--method=NAME]...
//            [--profile=RUN.etdp [--node-data=F.json]]
//            [--format=html|json|model-explorer|dot] [-o FILE]
//
// Each method as a graph: a node per instruction and per input and output,
// values as edges, constants and planned tensors with where their bytes
// are, a delegate call with its entry, and per method what fell back to
// kernels against what backends took. Draws any program whose flatbuffer
// verifies: what emit does not know, or finds wrong, is on the node it is
// of. With --profile, each node's time; --node-data writes that time as
// Model Explorer's per-node data, the overlay for its graph JSON.
// Exits 0 for every program the file layer reads, 2 on bad usage or a file
// that does not read.
//
//===----------------------------------------------------------------------===//

#include "emit/Graph/GraphReport.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/ReportTool.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
using namespace emit::graph;
namespace cl = llvm::cl;

static cl::OptionCategory category("emit-graph options");
static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<program.pte|.bpte>"),
                                      cl::cat(category));
static cl::list<std::string>
    dataPaths("data",
              cl::desc("A data file (.ptd) the program loads with "
                       "(repeatable): where its external constants are"),
              cl::value_desc("file.ptd"), cl::cat(category));
static cl::list<std::string>
    methodNames("method",
                cl::desc("Draw this method (repeatable; default: every "
                         "method)"),
                cl::value_desc("name"), cl::cat(category));
static cl::opt<std::string>
    profilePath("profile",
                cl::desc("A run's ETDump of the program: each node's time"),
                cl::value_desc("run.etdp"), cl::cat(category));
static FormatOption
    format("How to print the graph",
           {{ReportFormat::Text, "per method what fell back, what each "
                                 "backend runs, and the nodes"},
            {ReportFormat::HTML, "one self-contained page that draws it"},
            {ReportFormat::JSON, "JSON, schema emit-graph-2"},
            {ReportFormat::ModelExplorer,
             "Model Explorer's graph JSON (--node-data: its time overlay)"},
            {ReportFormat::DOT, "Graphviz DOT"}},
           category);
static cl::opt<std::string> nodeDataPath(
    "node-data",
    cl::desc("Write each node's time (--profile) as Model Explorer's "
             "per-node data to this file"),
    cl::value_desc("file.json"), cl::cat(category));
static cl::opt<std::string> kernelsOption(
    "kernels",
    cl::desc("The kernels the build registers, as emit-verify --kernels "
             "takes them: marks each kernel call no kernel of the build "
             "runs (at main)"),
    cl::value_desc("list"), cl::cat(category));
static OutputOption outputPath(category);

static int run() {
  if (!nodeDataPath.empty() && profilePath.empty()) {
    llvm::errs() << "emit-graph: --node-data is the times of a run: it "
                    "needs --profile\n";
    return 2;
  }
  PayloadFiles files;
  std::string error;
  std::shared_ptr<const FileBuffer> input = files.open(inputPath, error);
  if (!input) {
    llvm::errs() << "emit-graph: " << cannotRead(inputPath, error) << "\n";
    return 2;
  }
  GraphOptions options;
  options.dataFiles.assign(dataPaths.begin(), dataPaths.end());
  options.methods.assign(methodNames.begin(), methodNames.end());
  options.profile = profilePath;
  options.memory = format == ReportFormat::HTML;
  if (!kernelsOption.empty()) {
    FailureOr<kernels::KernelSpec> spec =
        kernels::parseKernelSpec(kernelsOption, error);
    if (failed(spec)) {
      llvm::errs() << "emit-graph: " << error << "\n";
      return 2;
    }
    options.kernels = std::move(*spec);
  }
  FailureOr<GraphReport> report =
      analyzeGraph(std::move(input), files, options, error);
  if (failed(report)) {
    llvm::errs() << "emit-graph: " << error << "\n";
    return 2;
  }
  if (writeReport("emit-graph", outputPath, *report, format, 0))
    return 2;
  // Atomic as -o is: whole or not written.
  if (!nodeDataPath.empty())
    if (llvm::Error failure =
            llvm::writeToOutput(nodeDataPath, [&](raw_ostream &os) {
              printModelExplorerNodeData(*report, os);
              return llvm::Error::success();
            })) {
      llvm::errs() << "emit-graph: cannot write '" << nodeDataPath
                   << "': " << llvm::toString(std::move(failure)) << "\n";
      return 2;
    }
  return 0;
}

int main(int argc, char **argv) {
  return runReportTool(argc, argv, "emit-graph", category,
                       "every method of a program as a graph, with the "
                       "program's memory plan and a run's times on it",
                       run);
}
