//===- emit-link.cpp - Share data across ExecuTorch programs ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Links separately exported programs, as llvm-link links modules:
//
//   emit-link a.pte b.pte -o merged.pte
//       one program with every method, each distinct piece of data once;
//   emit-link a.pte b.pte --data=a.ptd --data=b.ptd \
//       --external-data=OUT/weights.ptd --out-dir=OUT
//       each program on its own, every named datum in one data file they
//       all load with, each distinct content once;
//   emit-link a.pte --data=a.ptd --internalize -o self-contained.pte
//       the data files' data moved into the program.
//
// Every file is written all or nothing; the output depends only on the
// inputs and options.
//
//===----------------------------------------------------------------------===//

#include "emit/Pipeline/LinkFiles.h"
#include "emit/Support/HugePageHeap.h"
#include "emit/Support/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace emit;
namespace cl = llvm::cl;

static cl::OptionCategory category("emit-link options");
static cl::list<std::string> inputPaths(cl::Positional, cl::OneOrMore,
                                        cl::desc("<program.pte>..."),
                                        cl::cat(category));
static cl::opt<std::string>
    outputPath("o",
               cl::desc("Write one program holding every input's "
                        "methods to this .pte"),
               cl::value_desc("file.pte"), cl::cat(category));
static cl::opt<std::string>
    outputDir("out-dir",
              cl::desc("Write each program to this directory, under its "
                       "input's base name"),
              cl::value_desc("directory"), cl::cat(category));
static cl::list<std::string>
    dataPaths("data",
              cl::desc("A data file (.ptd) an input loads with "
                       "(repeatable)"),
              cl::value_desc("file.ptd"), cl::cat(category));
static cl::opt<std::string> externalData(
    "external-data",
    cl::desc("Write every named datum of the inputs (programs and data "
             "files) to this one .ptd, each distinct content once; the "
             "programs load with it alone"),
    cl::value_desc("file.ptd"), cl::cat(category));
static cl::opt<std::string> externalizeConstants(
    "externalize-constants",
    cl::desc("With --external-data, also move constant tensors that have a "
             "fully qualified name and at least this many bytes there "
             "(default with the flag alone: 0, every one)"),
    cl::ValueOptional, cl::value_desc("min bytes"), cl::cat(category));
static cl::opt<uint64_t> maxDataFileBytes(
    "max-data-file-bytes",
    cl::desc("With --external-data=DIR/NAME.ptd, write the data to several "
             "files of at most this many bytes each, DIR/NAME-1.ptd, "
             "DIR/NAME-2.ptd, ... in key order (a datum larger than this "
             "gets a file of its own); the programs load with all of them"),
    cl::value_desc("bytes"), cl::cat(category));
static cl::opt<bool> internalize(
    "internalize",
    cl::desc("With -o, move the data of the --data files the program uses "
             "into it: external constants into the constant segment (their "
             "names kept), every other key into its named data. The "
             "program then loads with no data file"),
    cl::cat(category));
static cl::opt<uint64_t> segmentAlignment(
    "segment-alignment",
    cl::desc("Start every segment of every output (.pte and .ptd) at a "
             "multiple of this many bytes (a power of two; 16384 for iOS "
             "pages). Default: each program's own, else 128"),
    cl::value_desc("bytes"), cl::cat(category));
static cl::opt<bool> prefixMethods(
    "prefix-methods",
    cl::desc("Name each method <input base name>_<method>, so that inputs "
             "with the same method names can be merged"),
    cl::cat(category));
static cl::opt<std::string>
    reportPath("report",
               cl::desc("Write what was shared as JSON (the dedup report "
                        "of docs/DedupReport.md) to this file, - for stdout"),
               cl::value_desc("file.json"), cl::cat(category));

/// The options as the library takes them, or failure with the reason in
/// `error`.
static FailureOr<LinkFilesOptions> getOptions(std::string &error) {
  LinkFilesOptions options;
  options.inputs.assign(inputPaths.begin(), inputPaths.end());
  options.dataFiles.assign(dataPaths.begin(), dataPaths.end());
  options.output = outputPath;
  options.outDir = outputDir;
  options.externalData = externalData;
  options.reportPath = reportPath;
  options.internalize = internalize;
  options.prefixMethods = prefixMethods;
  if (externalizeConstants.getNumOccurrences()) {
    uint64_t minBytes = 0;
    if (!externalizeConstants.empty() &&
        StringRef(externalizeConstants).getAsInteger(10, minBytes)) {
      error = "--externalize-constants=" + externalizeConstants +
              ": expected a number of bytes";
      return failure();
    }
    options.externalizeConstants = minBytes;
  }
  if (maxDataFileBytes.getNumOccurrences())
    options.maxDataFileBytes = maxDataFileBytes;
  if (segmentAlignment.getNumOccurrences())
    options.segmentAlignment = segmentAlignment;
  return options;
}

int main(int argc, char **argv) {
  emit::restartWithHugePageHeap(argv);
  llvm::InitLLVM init(argc, argv);
  llvm::setBugReportMsg("PLEASE submit a bug report to the emit project "
                        "and include the crash backtrace.\n");
  cl::HideUnrelatedOptions(category);
  emit::setVersionPrinter();
  cl::ParseCommandLineOptions(
      argc, argv,
      "emit-link: share data across separately exported ExecuTorch "
      "programs\n");
  std::string error;
  FailureOr<LinkFilesOptions> options = getOptions(error);
  if (failed(options)) {
    llvm::errs() << "emit-link: error: " << error << "\n";
    return 1;
  }

  MLIRContext context;
  // Errors name files, methods and keys; a dump of the op adds nothing.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // What is about no place in a file (the options, the outputs) is the
  // tool's own.
  ScopedDiagnosticHandler toolMessages(&context, [](Diagnostic &diag) {
    if (!isa<UnknownLoc>(diag.getLocation()))
      return failure();
    llvm::errs() << "emit-link: "
                 << (diag.getSeverity() == DiagnosticSeverity::Error ? "error: "
                                                                     : "")
                 << diag.str() << "\n";
    return success();
  });
  std::string report;
  if (failed(linkFiles(*options, context, report)))
    return 1;
  // To stdout only once every file is in place.
  if (reportPath == "-")
    llvm::outs() << report;
  return 0;
}
