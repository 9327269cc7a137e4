//===- emit-memory.cpp - The memory a .pte's methods need -----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-memory PROGRAM.pte [--data=F.ptd]... [--method=NAME]...
//             [--format=text|json|html] [-o FILE]
//
// Per method: its planned buffers and their peaks, the bytes loading it
// takes from the method allocator on 64-bit hosts and 32-bit ARM, its
// planned tensors with their lifetimes, and the memory checks' findings.
// Exits 0, 1 when a check finds an error, 2 on bad usage or a file that
// cannot be read or that the runtime refuses.
//
//===----------------------------------------------------------------------===//

#include "emit/File/CheckedFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Memory/CHeader.h"
#include "emit/Memory/MemoryReport.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/ReportTool.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
using namespace emit::memory;
namespace cl = llvm::cl;

static cl::OptionCategory category("emit-memory options");
static cl::list<std::string> inputPaths(cl::Positional, cl::OneOrMore,
                                        cl::desc("<program.pte>..."),
                                        cl::cat(category));
static cl::opt<bool> cHeader(
    "c-header",
    cl::desc("Write the programs (one or several) as a C header an embedded "
             "build includes: each as a const uint8_t array in a section, "
             "aligned as its segments need, with its methods' planned "
             "buffer and method allocator bytes (64- and 32-bit) as macros"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    cHeaderSection("c-header-section",
                   cl::desc("With --c-header, the section the arrays go to"),
                   cl::init(".rodata.executorch_pte"), cl::value_desc("name"),
                   cl::cat(category));
static cl::list<std::string>
    dataPaths("data",
              cl::desc("A data file (.ptd) the program loads with "
                       "(repeatable)"),
              cl::value_desc("file.ptd"), cl::cat(category));
static cl::list<std::string>
    methodNames("method",
                cl::desc("Report this method (repeatable; "
                         "default: every method)"),
                cl::value_desc("name"), cl::cat(category));
static FormatOption format("How to print the report",
                           {{ReportFormat::Text, "for people"},
                            {ReportFormat::JSON, "JSON, schema emit-memory-1"},
                            {ReportFormat::HTML, "one self-contained page"}},
                           category);
static OutputOption outputPath(category);

/// --c-header: every input read as a program, then one header.
static int writeHeader() {
  PayloadFiles files;
  std::string error;
  std::vector<std::unique_ptr<CheckedFile>> inputs;
  std::vector<ProgramModel> models;
  models.reserve(inputPaths.size());
  std::vector<CHeaderProgram> programs;
  for (const std::string &path : inputPaths) {
    inputs.push_back(openReadableFile(files, path, OpenAs::Program, error));
    if (!inputs.back()) {
      llvm::errs() << "emit-memory: " << error << "\n";
      return 2;
    }
    models.emplace_back(*getProgramOf(*inputs.back()));
    programs.push_back({&models.back(), getCName(path)});
  }
  CHeaderOptions options;
  options.section = cHeaderSection;
  if (failed(checkCHeaderNames(programs, error))) {
    llvm::errs() << "emit-memory: " << error << "\n";
    return 2;
  }
  return writeOutput(
      "emit-memory", outputPath,
      [&](raw_ostream &os) { writeCHeader(programs, options, os); }, 0);
}

static int run() {
  if (cHeader)
    return writeHeader();
  if (inputPaths.size() != 1) {
    llvm::errs() << "emit-memory: one program at a time, but for "
                    "--c-header\n";
    return 2;
  }
  StringRef inputPath = inputPaths.front();
  PayloadFiles files;
  std::string error;
  std::shared_ptr<const FileBuffer> input = files.open(inputPath, error);
  if (!input) {
    llvm::errs() << "emit-memory: " << cannotRead(inputPath, error) << "\n";
    return 2;
  }
  MemoryOptions options;
  options.methods.assign(methodNames.begin(), methodNames.end());
  options.dataFiles.assign(dataPaths.begin(), dataPaths.end());
  FailureOr<MemoryReport> report =
      analyzeMemory(std::move(input), files, options, error);
  if (failed(report)) {
    llvm::errs() << "emit-memory: " << error << "\n";
    return 2;
  }
  return writeReport("emit-memory", outputPath, *report, format,
                     report->count(Severity::Error) ? 1 : 0);
}

int main(int argc, char **argv) {
  return runReportTool(argc, argv, "emit-memory", category,
                       "the memory a .pte's methods need, and whether "
                       "their memory plans are sound",
                       run);
}
