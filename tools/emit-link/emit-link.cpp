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

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Link/Link.h"
#include "emit/Link/LinkReport.h"
#include "emit/Pipeline/Pipeline.h"
#include "emit/Support/HugePageHeap.h"
#include "emit/Support/Layout.h"
#include "emit/Support/MLIRCompat.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Support/OutputFiles.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/TestingPause.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

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

namespace {
/// The inputs, imported into one module.
struct Inputs {
  std::vector<std::unique_ptr<MappedFile>> files;
  std::vector<link::Input> programs;
  std::vector<link::DataInput> dataFiles;
};
} // namespace

/// Reads `path` (mapped, never copied) and imports it into `module`.
static LogicalResult importFile(StringRef path, bool dataFile, ModuleOp module,
                                Inputs &inputs) {
  MLIRContext *context = module.getContext();
  std::string error;
  std::unique_ptr<MappedFile> file = MappedFile::open(path, error);
  if (!file)
    return emitError(UnknownLoc::get(context), "cannot read '")
           << path << "': " << error;
  const llvm::MemoryBuffer &bytes = file->getBuffer();
  inputs.files.push_back(std::move(file));
  // Payloads stay in the input: the outputs copy them from there.
  FailureOr<FileReference> reference =
      PayloadFiles::get().describe(path, error);
  if (failed(reference))
    return emitError(UnknownLoc::get(context), error);
  PTEReadOptions options;
  options.payloadFile = *reference;
  OwningOpRef<ModuleOp> imported =
      dataFile ? translateFromPTD(bytes.getMemBufferRef(), context, options)
               : translateFromPTE(bytes.getMemBufferRef(), context, options);
  if (!imported)
    return failure();
  mlir::SymbolTable symbols(module);
  Operation *op = &imported->getBody()->front();
  op->remove();
  symbols.insert(op); // Inputs of one base name are told apart.
  if (dataFile)
    inputs.dataFiles.push_back({path.str(), cast<et::DataFileOp>(op)});
  else
    inputs.programs.push_back({path.str(), cast<et::ProgramOp>(op)});
  return success();
}

/// The checks of the options that need no input.
static LogicalResult checkOptions() {
  auto fail = [](const Twine &message) {
    llvm::errs() << "emit-link: error: " << message << "\n";
    return failure();
  };
  if (outputPath.empty() == outputDir.empty())
    return fail("give either -o FILE.pte (one merged program) or --out-dir "
                "DIR (one program per input)");
  if (externalizeConstants.getNumOccurrences() && externalData.empty())
    return fail("--externalize-constants needs --external-data");
  if (internalize && outputPath.empty())
    return fail("--internalize needs -o FILE.pte (one program holding the "
                "data)");
  if (internalize && !externalData.empty())
    return fail("--internalize moves data into the program and "
                "--external-data out of it: give one of them");
  if (maxDataFileBytes.getNumOccurrences() && externalData.empty())
    return fail("--max-data-file-bytes needs --external-data");
  if (maxDataFileBytes.getNumOccurrences() && maxDataFileBytes == 0)
    return fail("--max-data-file-bytes=0: expected a positive number of "
                "bytes");
  if (segmentAlignment.getNumOccurrences() &&
      !llvm::isPowerOf2_64(segmentAlignment))
    return fail("--segment-alignment=" + Twine(segmentAlignment) +
                ": expected a power of two");
  uint64_t minBytes;
  if (!externalizeConstants.empty() &&
      StringRef(externalizeConstants).getAsInteger(10, minBytes))
    return fail("--externalize-constants=" + externalizeConstants +
                ": expected a number of bytes");
  if (!outputDir.empty()) {
    llvm::StringSet<> names;
    for (const std::string &path : inputPaths)
      if (!names.insert(llvm::sys::path::filename(path)).second)
        return fail("two inputs are named '" + llvm::sys::path::filename(path) +
                    "'; with --out-dir every output keeps its input's name");
  }
  return success();
}

/// How every output is written.
static PTEWriteOptions writeOptions() {
  PTEWriteOptions options;
  if (segmentAlignment.getNumOccurrences())
    options.segmentAlignment = segmentAlignment;
  return options;
}

/// Splits the data file in `module` into files of at most
/// --max-data-file-bytes, each measured as it will be written.
static LogicalResult splitDataFile(ModuleOp module, link::Linker &linker) {
  auto dataFiles = module.getOps<et::DataFileOp>();
  if (!maxDataFileBytes.getNumOccurrences() || dataFiles.empty())
    return success();
  PTEWriteOptions options = writeOptions();
  et::DataFileOp dataFile = *dataFiles.begin();
  uint64_t alignment = layout::resolveSegmentAlignment(
      dataFile.getSegmentAlignment(), options.segmentAlignment);
  return linker.splitDataFile(dataFile, maxDataFileBytes, alignment,
                              [&](et::DataFileOp part) {
                                return getPTDFileSize(part, options);
                              });
}

/// Stores each distinct piece of data once, splits the data file if asked,
/// and checks that every program loads with the data files beside it,
/// stating what was shared in `result` when one is given.
static LogicalResult shareAndCheck(ModuleOp module, link::Linker &linker,
                                   bool compact, et::dedup::Result *result) {
  PassManager share(module.getContext());
  et::DedupDelegateBlobsOptions options;
  options.compactSegments = compact;
  share.addPass(result ? et::createDedupDelegateBlobs(options, *result)
                       : et::createDedupDelegateBlobs(options));
  if (failed(share.run(module)) || failed(splitDataFile(module, linker)))
    return failure();
  PassManager check(module.getContext());
  check.addPass(et::createVerifyData());
  return check.run(module);
}

/// Where the data files of `module` go: --external-data, or with
/// --max-data-file-bytes DIR/NAME-1.ptd, DIR/NAME-2.ptd, ...
static std::vector<std::pair<std::string, et::DataFileOp>>
dataFileOutputs(ModuleOp module) {
  std::vector<std::pair<std::string, et::DataFileOp>> outputs;
  if (externalData.empty())
    return outputs;
  for (et::DataFileOp dataFile : module.getOps<et::DataFileOp>()) {
    if (!maxDataFileBytes.getNumOccurrences()) {
      outputs.push_back({externalData, dataFile});
      continue;
    }
    llvm::SmallString<128> path(llvm::sys::path::parent_path(externalData));
    llvm::sys::path::append(
        path, llvm::sys::path::stem(externalData) + "-" +
                  Twine(outputs.size() + 1) +
                  llvm::sys::path::extension(externalData));
    outputs.push_back({path.str().str(), dataFile});
  }
  return outputs;
}

/// Imports every input into `module`.
static LogicalResult importInputs(ModuleOp module, Inputs &inputs) {
  for (const std::string &path : inputPaths)
    if (failed(importFile(path, /*dataFile=*/false, module, inputs)))
      return failure();
  for (const std::string &path : dataPaths)
    if (failed(importFile(path, /*dataFile=*/true, module, inputs)))
      return failure();
  return success();
}

/// Links the inputs as the options say: one merged program or each on its
/// own, and the named data (and constants) gathered into one data file.
/// Returns the programs to write, each with its input's path (the output's
/// when merged).
static FailureOr<std::vector<link::Input>>
linkInputs(ModuleOp module, const Inputs &inputs, link::Linker &linker) {
  std::vector<link::Input> programs = inputs.programs;
  if (!outputPath.empty()) {
    std::string name = llvm::sys::path::stem(outputPath).str();
    FailureOr<et::ProgramOp> merged =
        linker.mergePrograms(module, inputs.programs,
                             name.empty() ? "program" : name, prefixMethods);
    if (failed(merged))
      return failure();
    programs = {{outputPath, *merged}};
  }
  if (internalize &&
      failed(linker.internalizeData(programs.front(), inputs.dataFiles)))
    return failure();
  if (externalData.empty())
    return programs;
  OpBuilder builder(module.getContext());
  builder.setInsertionPointToEnd(module.getBody());
  std::string name = llvm::sys::path::stem(externalData).str();
  auto target = compat::create<et::DataFileOp>(builder, module.getLoc(),
                                               name.empty() ? "data" : name);
  mlir::SymbolTable(module).insert(target);
  if (failed(linker.gatherNamedData(programs, inputs.dataFiles, target)))
    return failure();
  if (externalizeConstants.getNumOccurrences()) {
    uint64_t minBytes = 0;
    (void)StringRef(externalizeConstants).getAsInteger(10, minBytes);
    for (const link::Input &program : programs)
      if (failed(linker.externalizeConstants(program, target, minBytes)))
        return failure();
  }
  return programs;
}

/// The link report, from what the dedup pipeline shared.
static std::string linkReport(const et::dedup::Result &dedup,
                              const link::Linker &linker,
                              ArrayRef<link::Input> programs) {
  std::vector<std::string> files(inputPaths.begin(), inputPaths.end());
  files.insert(files.end(), dataPaths.begin(), dataPaths.end());
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    llvm::json::OStream json(os, /*IndentSize=*/2);
    link::writeLinkReport(
        files, link::attributeSavings(dedup, linker.getOrigins(), programs),
        dedup, json);
  }
  os << "\n";
  return text;
}

/// Makes the directories the outputs go to that are missing, remembering
/// them in `made` (to remove again if nothing is written).
static LogicalResult makeDirectories(SmallVectorImpl<std::string> &made) {
  for (StringRef path :
       {StringRef(outputDir), llvm::sys::path::parent_path(externalData),
        llvm::sys::path::parent_path(outputPath)})
    if (!path.empty() && !llvm::sys::fs::exists(path)) {
      if (std::error_code code = llvm::sys::fs::create_directories(path)) {
        llvm::errs() << "emit-link: error: cannot make '" << path
                     << "': " << code.message() << "\n";
        return failure();
      }
      made.push_back(path.str());
    }
  return success();
}

/// Writes every program, the data file and the report as one set: all of
/// them or, on any failure, none.
static LogicalResult writeOutputs(ModuleOp module,
                                  ArrayRef<link::Input> programs,
                                  const std::string &report) {
  OutputFiles outputs;
  std::string error;
  SmallVector<std::string> madeDirectories;
  if (failed(makeDirectories(madeDirectories)))
    return failure();
  // The writers report their own errors; `written` says whether all went.
  bool written = true;
  PTEWriteOptions options = writeOptions();
  auto write = [&](StringRef path, Operation *op, bool dataFile) {
    llvm::raw_fd_ostream *os = outputs.open(path, error);
    written = os && succeeded(dataFile ? translateToPTD(op, *os, options)
                                       : translateToPTE(op, *os, options));
    return written;
  };
  for (const link::Input &program : programs) {
    std::string path = outputPath;
    if (path.empty()) {
      llvm::SmallString<128> joined(outputDir);
      llvm::sys::path::append(joined, llvm::sys::path::filename(program.path));
      path = joined.str().str();
    }
    if (!write(path, program.program, /*dataFile=*/false))
      break;
  }
  for (auto &[path, dataFile] : dataFileOutputs(module))
    if (!written || !write(path, dataFile, /*dataFile=*/true))
      break;
  if (written && !reportPath.empty() && reportPath != "-")
    if (llvm::raw_fd_ostream *os = outputs.open(reportPath, error))
      *os << report;
  if (written && error.empty() && outputs.commit(error))
    return success();
  if (!error.empty())
    llvm::errs() << "emit-link: error: " << error << "\n";
  llvm::errs() << "emit-link: nothing was written\n";
  for (const std::string &directory : llvm::reverse(madeDirectories))
    llvm::sys::fs::remove(directory);
  return failure();
}

int main(int argc, char **argv) {
  emit::restartWithHugePageHeap(argv);
  llvm::InitLLVM init(argc, argv);
  llvm::setBugReportMsg("PLEASE submit a bug report to the emit project "
                        "and include the crash backtrace.\n");
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "emit-link: share data across separately exported ExecuTorch "
      "programs\n");
  if (failed(checkOptions()))
    return 1;

  MLIRContext context;
  context.loadDialect<et::ETDialect>();
  // Errors name files, methods and keys; a dump of the op adds nothing.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module(ModuleOp::create(UnknownLoc::get(&context)));
  Inputs inputs;
  if (failed(importInputs(*module, inputs)))
    return 1;
  pauseForTesting(TestingStage::InputsRead);

  link::Linker linker;
  FailureOr<std::vector<link::Input>> programs =
      linkInputs(*module, inputs, linker);
  et::dedup::Result shared;
  if (failed(programs) ||
      failed(shareAndCheck(*module, linker,
                           externalizeConstants.getNumOccurrences(),
                           reportPath.empty() ? nullptr : &shared)))
    return 1;
  std::string report =
      reportPath.empty() ? "" : linkReport(shared, linker, *programs);
  if (failed(writeOutputs(*module, *programs, report)))
    return 1;
  // To stdout only once every file is in place.
  if (reportPath == "-")
    llvm::outs() << report;
  return 0;
}
