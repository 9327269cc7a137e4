//===- LinkFiles.cpp - emit-link on files ---------------------- -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One link job, step by step: check the options, import the inputs, link
// them, share equal data, place it, write every output or none. Every file
// is written all or nothing; the output depends only on the inputs and the
// options.
//
//===----------------------------------------------------------------------===//

#include "emit/Pipeline/LinkFiles.h"

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/DataFile.h"
#include "emit/Link/Link.h"
#include "emit/Link/LinkReport.h"
#include "emit/Support/Layout.h"
#include "emit/Support/MLIRCompat.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Support/OutputFiles.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/TestingPause.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace emit;

std::vector<std::string> emit::getDataFilePaths(const LinkFilesOptions &options,
                                                size_t count) {
  std::vector<std::string> paths;
  if (options.externalData.empty())
    return paths;
  if (!options.maxDataFileBytes)
    return {options.externalData};
  StringRef data = options.externalData;
  for (size_t k = 1; k <= count; ++k) {
    llvm::SmallString<128> path(llvm::sys::path::parent_path(data));
    llvm::sys::path::append(path, llvm::sys::path::stem(data) + "-" + Twine(k) +
                                      llvm::sys::path::extension(data));
    paths.push_back(path.str().str());
  }
  return paths;
}

namespace {
/// One run of emit-link.
class LinkJob {
public:
  LinkJob(const LinkFilesOptions &options, MLIRContext &context)
      : options(options), context(context),
        module(ModuleOp::create(UnknownLoc::get(&context))) {}

  LogicalResult run(std::string &report);

private:
  InFlightDiagnostic error() { return emitError(UnknownLoc::get(&context)); }
  LogicalResult checkOptions();
  LogicalResult importFile(StringRef path, bool dataFile);
  LogicalResult importInputs();
  FailureOr<std::vector<link::Input>> linkInputs();
  PTEWriteOptions writeOptions() const;
  LogicalResult splitDataFile();
  LogicalResult shareAndCheck(et::dedup::Result *result);
  std::string linkReport(const et::dedup::Result &dedup,
                         ArrayRef<link::Input> programs) const;
  LogicalResult makeDirectories(SmallVectorImpl<std::string> &made);
  LogicalResult writeOutputs(ArrayRef<link::Input> programs,
                             const std::string &report);

  const LinkFilesOptions &options;
  MLIRContext &context;
  OwningOpRef<ModuleOp> module;
  link::Linker linker;
  std::vector<link::Input> programs;
  std::vector<link::DataInput> dataFiles;
};
} // namespace

/// The checks of the options that need no input.
LogicalResult LinkJob::checkOptions() {
  if (options.output.empty() == options.outDir.empty())
    return error() << "give either -o FILE.pte (one merged program) or "
                      "--out-dir DIR (one program per input)";
  if (options.externalizeConstants && options.externalData.empty())
    return error() << "--externalize-constants needs --external-data";
  if (options.internalize && options.output.empty())
    return error() << "--internalize needs -o FILE.pte (one program holding "
                      "the data)";
  if (options.internalize && !options.externalData.empty())
    return error() << "--internalize moves data into the program and "
                      "--external-data out of it: give one of them";
  if (options.maxDataFileBytes && options.externalData.empty())
    return error() << "--max-data-file-bytes needs --external-data";
  if (options.maxDataFileBytes && *options.maxDataFileBytes == 0)
    return error() << "--max-data-file-bytes=0: expected a positive number "
                      "of bytes";
  if (options.segmentAlignment &&
      !llvm::isPowerOf2_64(*options.segmentAlignment))
    return error() << "--segment-alignment=" << *options.segmentAlignment
                   << ": expected a power of two";
  if (!options.outDir.empty()) {
    llvm::StringSet<> names;
    for (const std::string &path : options.inputs)
      if (!names.insert(llvm::sys::path::filename(path)).second)
        return error() << "two inputs are named '"
                       << llvm::sys::path::filename(path)
                       << "'; with --out-dir every output keeps its input's "
                          "name";
  }
  return success();
}

/// Reads `path` (mapped, never copied) and imports it into the module.
LogicalResult LinkJob::importFile(StringRef path, bool dataFile) {
  std::string message;
  std::unique_ptr<CheckedFile> file =
      openFile(et::getPayloadFiles(&context), path,
               dataFile ? OpenAs::DataFile : OpenAs::Program, message);
  if (!file)
    return error() << cannotRead(path, message);
  // Payloads stay in the input: the outputs copy them from there.
  // The linker moves keys as the current layout holds them.
  if (auto *data = dyn_cast<DataFile>(file.get());
      data && data->getLayout() == DataFileLayout::Release0_6)
    return error() << "'" << path << "' is a data file in ExecuTorch 0.6's "
                   << "layout, which emit-link does not link; convert it "
                   << "first (emit-translate --pte-to-pte "
                   << "--target-runtime=0.7)";
  OwningOpRef<ModuleOp> imported = emit::importFile(*file, &context);
  if (!imported)
    return failure();
  mlir::SymbolTable symbols(*module);
  Operation *op = &imported->getBody()->front();
  op->remove();
  symbols.insert(op); // Inputs of one base name are told apart.
  if (dataFile)
    dataFiles.push_back({path.str(), cast<et::DataFileOp>(op)});
  else
    programs.push_back({path.str(), cast<et::ProgramOp>(op)});
  return success();
}

LogicalResult LinkJob::importInputs() {
  for (const std::string &path : options.inputs)
    if (failed(importFile(path, /*dataFile=*/false)))
      return failure();
  for (const std::string &path : options.dataFiles)
    if (failed(importFile(path, /*dataFile=*/true)))
      return failure();
  return success();
}

/// Links the inputs as the options say: one merged program or each on its
/// own; the data files' data moved into it, or the named data (and
/// constants) gathered into one data file. Returns the programs to write,
/// each with its input's path (the output's when merged).
FailureOr<std::vector<link::Input>> LinkJob::linkInputs() {
  std::vector<link::Input> linked = programs;
  if (!options.output.empty()) {
    std::string name = llvm::sys::path::stem(options.output).str();
    FailureOr<et::ProgramOp> merged =
        linker.mergePrograms(*module, programs, name.empty() ? "program" : name,
                             options.prefixMethods);
    if (failed(merged))
      return failure();
    linked = {{options.output, *merged}};
  }
  if (options.internalize &&
      failed(linker.internalizeData(linked.front(), dataFiles)))
    return failure();
  if (options.externalData.empty())
    return linked;
  OpBuilder builder(&context);
  builder.setInsertionPointToEnd(module->getBody());
  std::string name = llvm::sys::path::stem(options.externalData).str();
  auto target = compat::create<et::DataFileOp>(builder, module->getLoc(),
                                               name.empty() ? "data" : name);
  mlir::SymbolTable(*module).insert(target);
  if (failed(linker.gatherNamedData(linked, dataFiles, target)))
    return failure();
  if (options.externalizeConstants)
    for (const link::Input &program : linked)
      if (failed(linker.externalizeConstants(program, target,
                                             *options.externalizeConstants)))
        return failure();
  return linked;
}

PTEWriteOptions LinkJob::writeOptions() const {
  PTEWriteOptions write;
  write.segmentAlignment = options.segmentAlignment;
  return write;
}

/// Splits the data file into files of at most --max-data-file-bytes, each
/// measured as it will be written.
LogicalResult LinkJob::splitDataFile() {
  auto gathered = module->getOps<et::DataFileOp>();
  if (!options.maxDataFileBytes || gathered.empty())
    return success();
  PTEWriteOptions write = writeOptions();
  et::DataFileOp dataFile = *gathered.begin();
  uint64_t alignment = layout::resolveSegmentAlignment(
      dataFile.getSegmentAlignment(), write.segmentAlignment);
  return linker.splitDataFile(
      dataFile, *options.maxDataFileBytes, alignment,
      [&](et::DataFileOp part) { return getPTDFileSize(part, write); });
}

/// Stores each distinct piece of data once, splits the data file if asked,
/// and checks that every program loads with the data files beside it,
/// stating what was shared in `result` when one is given.
LogicalResult LinkJob::shareAndCheck(et::dedup::Result *result) {
  PassManager share(&context);
  et::DedupDelegateBlobsOptions dedup;
  dedup.compactSegments = options.externalizeConstants.has_value();
  share.addPass(result ? et::createDedupDelegateBlobs(dedup, *result)
                       : et::createDedupDelegateBlobs(dedup));
  if (failed(share.run(*module)) || failed(splitDataFile()))
    return failure();
  PassManager check(&context);
  check.addPass(et::createVerifyData());
  return check.run(*module);
}

/// The link report, from what the dedup pipeline shared.
std::string LinkJob::linkReport(const et::dedup::Result &dedup,
                                ArrayRef<link::Input> linked) const {
  std::vector<std::string> inputs(options.inputs.begin(), options.inputs.end());
  inputs.insert(inputs.end(), options.dataFiles.begin(),
                options.dataFiles.end());
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    llvm::json::OStream json(os, /*IndentSize=*/2);
    link::writeLinkReport(
        inputs, link::attributeSavings(dedup, linker.getOrigins(), linked),
        dedup, json);
  }
  os << "\n";
  return text;
}

/// Makes the directories the outputs go to that are missing, remembering
/// them in `made` (to remove again if nothing is written).
LogicalResult LinkJob::makeDirectories(SmallVectorImpl<std::string> &made) {
  for (StringRef path : {StringRef(options.outDir),
                         llvm::sys::path::parent_path(options.externalData),
                         llvm::sys::path::parent_path(options.output)})
    if (!path.empty() && !llvm::sys::fs::exists(path)) {
      if (std::error_code code = llvm::sys::fs::create_directories(path))
        return error() << "cannot make '" << path << "': " << code.message();
      made.push_back(path.str());
    }
  return success();
}

/// Writes every program, the data files and the report as one set: all of
/// them or, on any failure, none.
LogicalResult LinkJob::writeOutputs(ArrayRef<link::Input> linked,
                                    const std::string &report) {
  OutputFiles outputs;
  std::string message;
  SmallVector<std::string> madeDirectories;
  if (failed(makeDirectories(madeDirectories)))
    return failure();
  // The writers report their own errors; `written` says whether all went.
  bool written = true;
  PTEWriteOptions write = writeOptions();
  auto writeFile = [&](StringRef path, Operation *op, bool dataFile) {
    llvm::raw_fd_ostream *os = outputs.open(path, message);
    written = os && succeeded(dataFile ? translateToPTD(op, *os, write)
                                       : translateToPTE(op, *os, write));
    return written;
  };
  for (const link::Input &program : linked) {
    std::string path = options.output;
    if (path.empty()) {
      llvm::SmallString<128> joined(options.outDir);
      llvm::sys::path::append(joined, llvm::sys::path::filename(program.path));
      path = joined.str().str();
    }
    if (!writeFile(path, program.program, /*dataFile=*/false))
      break;
  }
  auto gathered = llvm::to_vector(module->getOps<et::DataFileOp>());
  if (!options.externalData.empty())
    for (auto [path, dataFile] :
         llvm::zip_equal(getDataFilePaths(options, gathered.size()), gathered))
      if (!written || !writeFile(path, dataFile, /*dataFile=*/true))
        break;
  if (written && !options.reportPath.empty() && options.reportPath != "-")
    if (llvm::raw_fd_ostream *os = outputs.open(options.reportPath, message))
      *os << report;
  if (written && message.empty() && outputs.commit(message))
    return success();
  if (!message.empty())
    error() << message;
  emitRemark(UnknownLoc::get(&context)) << "nothing was written";
  for (const std::string &directory : llvm::reverse(madeDirectories))
    llvm::sys::fs::remove(directory);
  return failure();
}

LogicalResult LinkJob::run(std::string &report) {
  if (failed(checkOptions()) || failed(importInputs()))
    return failure();
  pauseForTesting(TestingStage::InputsRead);
  FailureOr<std::vector<link::Input>> linked = linkInputs();
  et::dedup::Result shared;
  if (failed(linked) ||
      failed(shareAndCheck(options.reportPath.empty() ? nullptr : &shared)))
    return failure();
  if (!options.reportPath.empty())
    report = linkReport(shared, *linked);
  return writeOutputs(*linked, report);
}

LogicalResult emit::linkFiles(const LinkFilesOptions &options,
                              MLIRContext &context, std::string &report) {
  context.loadDialect<et::ETDialect>();
  return LinkJob(options, context).run(report);
}
