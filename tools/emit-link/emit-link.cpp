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
//       all load with, each distinct content once.
//
// Every file is written all or nothing; the output depends only on the
// inputs and options.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Link/Link.h"
#include "emit/Pipeline/Pipeline.h"
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
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <map>

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

/// Stores each distinct piece of data once and checks that every program
/// loads with the data files beside it. The pass's report goes to `report`
/// when one is given.
static LogicalResult shareAndCheck(ModuleOp module, bool compact,
                                   raw_ostream *report) {
  PassManager pm(module.getContext());
  et::DedupDelegateBlobsOptions options;
  options.compactSegments = compact;
  pm.addPass(report ? et::createDedupDelegateBlobs(options, *report)
                    : et::createDedupDelegateBlobs(options));
  pm.addPass(et::createVerifyData());
  return pm.run(module);
}

/// The report: what each input saves, per kind of data, and the dedup
/// pass's report (docs/DedupReport.md) under "dedup".
static std::string linkReport(StringRef dedupReport,
                              const link::Linker::Origins &origins,
                              const std::vector<link::Input> &programs) {
  llvm::Expected<llvm::json::Value> dedup = llvm::json::parse(dedupReport);
  if (!dedup) {
    llvm::consumeError(dedup.takeError());
    return std::string();
  }
  // Saved bytes by input file, then kind.
  std::map<std::string, std::map<std::string, uint64_t>> saved;
  std::map<std::string, std::string> programFiles;
  for (const link::Input &program : programs)
    programFiles[et::ProgramOp(program.program).getSymName().str()] =
        program.path;
  auto originOf = [&](StringRef blob, StringRef container) -> std::string {
    if (StringRef origin = origins.blobOrigin(container, blob); !origin.empty())
      return origin.str();
    auto program = programFiles.find(container.str());
    return program == programFiles.end() ? std::string() : program->second;
  };
  auto entryOrigin = [&](uint64_t entry) {
    for (const auto &range : origins.constantEntries)
      if (entry >= range.second.first && entry <= range.second.second)
        return range.first().str();
    return std::string();
  };
  for (StringRef list : {"programs", "data_files"})
    for (const llvm::json::Value &file :
         *dedup->getAsObject()->getArray(list)) {
      const llvm::json::Object &object = *file.getAsObject();
      StringRef container =
          object.getString(list == "programs" ? "program" : "data_file")
              .value_or("");
      for (const llvm::json::Value &group : *object.getArray("groups")) {
        const llvm::json::Object &g = *group.getAsObject();
        for (const llvm::json::Value &merged : *g.getArray("merged"))
          saved[originOf(*merged.getAsString(), container)]
               [g.getString("kind")->str()] += *g.getInteger("size");
      }
      for (const llvm::json::Value &segment : *object.getArray("segments")) {
        const llvm::json::Object &s = *segment.getAsObject();
        StringRef blob = *s.getString("blob");
        for (const llvm::json::Value &shared : *s.getArray("shared_entries")) {
          const llvm::json::Object &entry = *shared.getAsObject();
          // A merged constant segment holds every input's entries.
          std::string origin = entryOrigin(*entry.getInteger("entry"));
          if (origin.empty() || !origins.blobOrigin(container, blob).empty())
            origin = originOf(blob, container);
          saved[origin][s.getString("kind")->str()] +=
              *entry.getInteger("size");
        }
      }
    }
  for (const auto &shared : origins.sharedKeyBytes)
    if (shared.second)
      saved[shared.first().str()]["named_data"] += shared.second;

  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  std::map<std::string, uint64_t> totals;
  json.object([&] {
    json.attribute("schema", "emit-link-report-1");
    json.attributeArray("inputs", [&] {
      for (const std::string &path : inputPaths)
        json.object([&] {
          json.attribute("file", path);
          json.attributeObject("bytes_saved", [&] {
            for (const auto &[kind, bytes] : saved[path]) {
              json.attribute(kind, bytes);
              totals[kind] += bytes;
            }
          });
        });
      for (const std::string &path : dataPaths)
        json.object([&] {
          json.attribute("file", path);
          json.attributeObject("bytes_saved", [&] {
            for (const auto &[kind, bytes] : saved[path]) {
              json.attribute(kind, bytes);
              totals[kind] += bytes;
            }
          });
        });
    });
    json.attributeObject("bytes_saved", [&] {
      for (const auto &[kind, bytes] : totals)
        json.attribute(kind, bytes);
    });
    json.attribute("dedup", std::move(*dedup));
  });
  os << "\n";
  return text;
}

int main(int argc, char **argv) {
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
  for (const std::string &path : inputPaths)
    if (failed(importFile(path, /*dataFile=*/false, *module, inputs)))
      return 1;
  for (const std::string &path : dataPaths)
    if (failed(importFile(path, /*dataFile=*/true, *module, inputs)))
      return 1;

  pauseForTesting(TestingStage::InputsRead);

  link::Linker linker;
  std::vector<link::Input> programs = inputs.programs;
  if (!outputPath.empty()) {
    std::string name = llvm::sys::path::stem(outputPath).str();
    FailureOr<et::ProgramOp> merged =
        linker.mergePrograms(*module, inputs.programs,
                             name.empty() ? "program" : name, prefixMethods);
    if (failed(merged))
      return 1;
    programs = {{outputPath, *merged}};
  }
  bool externalizing = externalizeConstants.getNumOccurrences() > 0;
  if (!externalData.empty()) {
    OpBuilder builder(&context);
    builder.setInsertionPointToEnd(module->getBody());
    std::string name = llvm::sys::path::stem(externalData).str();
    auto target = compat::create<et::DataFileOp>(builder, module->getLoc(),
                                                 name.empty() ? "data" : name);
    mlir::SymbolTable(*module).insert(target);
    if (failed(linker.gatherNamedData(programs, inputs.dataFiles, target)))
      return 1;
    if (externalizing) {
      uint64_t minBytes = 0;
      (void)StringRef(externalizeConstants).getAsInteger(10, minBytes);
      for (const link::Input &program : programs)
        if (failed(linker.externalizeConstants(program, target, minBytes)))
          return 1;
    }
  }
  std::string dedupReport;
  llvm::raw_string_ostream dedupReportStream(dedupReport);
  if (failed(shareAndCheck(*module, externalizing,
                           reportPath.empty() ? nullptr : &dedupReportStream)))
    return 1;

  // Every file, then all of them at once: a failure leaves no partial set.
  OutputFiles outputs;
  std::string error;
  // The directories to write to, made when missing (and removed again,
  // when still empty, if nothing is written).
  SmallVector<std::string> madeDirectories;
  for (StringRef path :
       {StringRef(outputDir), llvm::sys::path::parent_path(externalData),
        llvm::sys::path::parent_path(outputPath)})
    if (!path.empty() && !llvm::sys::fs::exists(path)) {
      if (std::error_code code = llvm::sys::fs::create_directories(path)) {
        llvm::errs() << "emit-link: error: cannot make '" << path
                     << "': " << code.message() << "\n";
        return 1;
      }
      madeDirectories.push_back(path.str());
    }
  // The writers report their own errors; `written` says whether all went.
  bool written = true;
  auto write = [&](StringRef path, Operation *op, bool dataFile) {
    llvm::raw_fd_ostream *os = outputs.open(path, error);
    written = os && succeeded(dataFile ? translateToPTD(op, *os)
                                       : translateToPTE(op, *os));
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
  if (written && !externalData.empty())
    write(externalData, *module->getOps<et::DataFileOp>().begin(),
          /*dataFile=*/true);
  std::string report;
  if (written && !reportPath.empty()) {
    report = linkReport(dedupReport, linker.getOrigins(), programs);
    if (report.empty())
      error = "cannot parse the dedup report";
    else if (reportPath != "-")
      if (llvm::raw_fd_ostream *os = outputs.open(reportPath, error))
        *os << report;
    written = error.empty();
  }
  if (!written || !outputs.commit(error)) {
    if (!error.empty())
      llvm::errs() << "emit-link: error: " << error << "\n";
    llvm::errs() << "emit-link: nothing was written\n";
    for (const std::string &directory : llvm::reverse(madeDirectories))
      llvm::sys::fs::remove(directory);
    return 1;
  }
  // To stdout only once every file is in place.
  if (reportPath == "-")
    llvm::outs() << report;
  return 0;
}
