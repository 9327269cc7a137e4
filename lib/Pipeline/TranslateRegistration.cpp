//===- TranslateRegistration.cpp - Register the .pte translations -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Binds emit-translate's flags to the options of the translation API.
//
//===----------------------------------------------------------------------===//

#include "emit/Pipeline/TranslateRegistration.h"
#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/CheckedFile.h"
#include "emit/Kernels/KernelRegistry.h"
#include "emit/Pipeline/Pipeline.h"
#include "emit/Releases/Releases.h"
#include "emit/Summary/Summary.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/TestingPause.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Memory/Passes.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include <chrono>
#include <optional>

using namespace mlir;
using namespace emit;

namespace {
/// Flags of `--to-pte`, created on registration so that tools that do not
/// register the translation do not show them.
struct ToPTEFlags {
  llvm::cl::OptionCategory category{
      "--to-pte and --pte-to-pte layout options",
      "What the IR records is kept: an imported file's placement of every "
      "payload (inline or segment) and its alignments. These options decide "
      "what the IR does not record (hand-written or generated MLIR); an "
      "alignment given for something that records its own is raised to the "
      "least common multiple of both."};
  llvm::cl::opt<uint64_t> segmentAlignment{
      "pte-segment-alignment",
      llvm::cl::desc("Alignment of every segment (a power of two). Default: "
                     "the program's recorded segment_alignment, else 128, "
                     "as ExecuTorch; given for a program that records one, "
                     "the least common multiple of both"),
      llvm::cl::cat(category)};
  llvm::cl::opt<uint64_t> constantAlignment{
      "pte-constant-alignment",
      llvm::cl::desc("Alignment of constant tensor data: the constant "
                     "segment's start and deprecated constant buffers "
                     "(a power of two; default 16)"),
      llvm::cl::init(PTEWriteOptions().constantAlignment),
      llvm::cl::cat(category)};
  llvm::cl::opt<uint64_t> inlineAlignment{
      "pte-inline-alignment",
      llvm::cl::desc("Alignment of delegate payloads kept inline in the "
                     "flatbuffer (a power of two; default 16, ExecuTorch's "
                     "force_align)"),
      llvm::cl::init(PTEWriteOptions().inlineAlignment),
      llvm::cl::cat(category)};
  llvm::cl::opt<uint64_t> inlineMaxSize{
      "pte-inline-max-size",
      llvm::cl::desc("Keep delegate payloads without a recorded placement "
                     "of at most this many bytes inline in the flatbuffer "
                     "instead of in segments (default 0: every non-empty "
                     "one in a segment)"),
      llvm::cl::init(PTEWriteOptions().inlineMaxSize), llvm::cl::cat(category)};
  llvm::cl::opt<uint64_t> maxFlatbufferSize{
      "pte-max-flatbuffer-size",
      llvm::cl::desc("Refuse layouts whose flatbuffer would exceed this many "
                     "bytes (default and maximum: 2 GiB - 1)"),
      llvm::cl::init(PTEWriteOptions().maxFlatbufferSize), llvm::cl::Hidden,
      llvm::cl::cat(category)};

  PTEWriteOptions getOptions() const {
    PTEWriteOptions options;
    if (segmentAlignment.getNumOccurrences())
      options.segmentAlignment = segmentAlignment;
    options.constantAlignment = constantAlignment;
    options.inlineAlignment = inlineAlignment;
    options.inlineMaxSize = inlineMaxSize;
    options.maxFlatbufferSize = std::min(maxFlatbufferSize.getValue(),
                                         PTEWriteOptions().maxFlatbufferSize);
    return options;
  }
};
} // namespace

namespace {
/// --embed-payloads, shared by the translations that import.
llvm::cl::opt<bool> &getEmbedPayloadsFlag() {
  static llvm::cl::opt<bool> embed(
      "embed-payloads",
      llvm::cl::desc("With --from-pte or --from-ptd, carry every payload in "
                     "the IR (as resources, hex in text) instead of referring "
                     "to its bytes in the input file (#et.file): the IR then "
                     "stands alone, but is as large as the file"),
      llvm::cl::init(false));
  return embed;
}

/// --pte-entry-locations, shared by the translations that import.
llvm::cl::opt<bool> &getEntryLocationsFlag() {
  static llvm::cl::opt<bool> entryLocations(
      "pte-entry-locations",
      llvm::cl::desc("With --from-pte, locate each segment, inline payload, "
                     "value, delegate entry and instruction at its own byte "
                     "offset in the file, not at its table's"),
      llvm::cl::init(false));
  return entryLocations;
}

/// How the command line says to import (--embed-payloads,
/// --pte-entry-locations).
ImportOptions getImportOptions() {
  ImportOptions options;
  options.embedPayloads = getEmbedPayloadsFlag();
  options.entryLocations = getEntryLocationsFlag();
  return options;
}

/// The translation's input, open and checked as a `kind` file: the file the
/// driver opened through the context's payload files, or the bytes of
/// standard input.
std::unique_ptr<CheckedFile>
openInput(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
          MLIRContext *context, OpenAs kind) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
  StringRef name = buffer->getBufferIdentifier();
  if (name == "<stdin>" || name == "-" || name.starts_with("<"))
    return openFile(FileBuffer::view(buffer->getBuffer(), name), kind);
  std::string error;
  std::unique_ptr<CheckedFile> file =
      openFile(et::getPayloadFiles(context), name, kind, error);
  if (!file)
    emitError(UnknownLoc::get(context)) << cannotRead(name, error);
  return file;
}

/// Imports the translation's input as a `kind` file, as the command line
/// says.
OwningOpRef<ModuleOp>
importInput(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
            MLIRContext *context, OpenAs kind) {
  std::unique_ptr<CheckedFile> file = openInput(sourceMgr, context, kind);
  return file ? importFile(*file, context, getImportOptions()) : nullptr;
}

/// --pte-data (also --data, as every other tool names it), shared by the
/// translations that read a program.
llvm::cl::list<std::string> &getDataFilesFlag() {
  static llvm::cl::list<std::string> dataFiles(
      "pte-data",
      llvm::cl::desc("With --from-pte or --pte-to-pte, a data file (.ptd) "
                     "the program loads with (repeatable): imported beside "
                     "the program and checked against it"),
      llvm::cl::value_desc("file.ptd"));
  static llvm::cl::alias data("data", llvm::cl::desc("Alias for --pte-data"),
                              llvm::cl::aliasopt(dataFiles));
  return dataFiles;
}
} // namespace

/// --pte-timing, shared by the translations that read or write a .pte.
static llvm::cl::opt<bool> &getTimingFlag() {
  static llvm::cl::opt<bool> timing(
      "pte-timing",
      llvm::cl::desc("With --from-pte, --to-pte or --pte-to-pte, print the "
                     "time of each stage, and how many payload bytes the "
                     "kernel copied file to file, to stderr"),
      llvm::cl::init(false));
  return timing;
}

/// Seconds between two points of a steady clock.
using Clock = std::chrono::steady_clock;
static double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

/// Prints "<name> timing: <stages>, total <s> s; <n> bytes copied file to
/// file" when --pte-timing is on.
static void reportTiming(StringRef name, StringRef stages,
                         Clock::time_point start, uint64_t copiedBefore) {
  if (!getTimingFlag())
    return;
  llvm::errs() << name << " timing: " << stages
               << llvm::format("total %.3f s; %llu bytes copied file to file\n",
                               secondsBetween(start, Clock::now()),
                               static_cast<unsigned long long>(
                                   getKernelCopiedBytes() - copiedBefore));
}

/// --emit-bytecode, shared by the translations that import.
static llvm::cl::opt<bool> &getEmitBytecodeFlag() {
  static llvm::cl::opt<bool> emitBytecode(
      "emit-bytecode",
      llvm::cl::desc("With --from-pte or --from-ptd, write MLIR bytecode "
                     "instead of text: payloads are written once, as raw "
                     "bytes, and a later reader aliases them instead of "
                     "parsing hex"),
      llvm::cl::init(false));
  return emitBytecode;
}

/// Writes an imported module as bytecode or text.
static LogicalResult printImported(ModuleOp module, raw_ostream &os) {
  if (getEmitBytecodeFlag())
    return writeBytecodeToFile(module, os);
  // Honours the --mlir-print-* and --mlir-elide-* flags.
  module->print(os, OpPrintingFlags());
  return success();
}

void emit::registerFromPTETranslation() {
  getEmitBytecodeFlag();
  getEmbedPayloadsFlag();
  getEntryLocationsFlag();
  getTimingFlag();
  getDataFilesFlag();
  TranslateRegistration registration(
      "from-pte", "import an ExecuTorch .pte file as an et.program",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) -> LogicalResult {
        Clock::time_point start = Clock::now();
        uint64_t copiedBefore = getKernelCopiedBytes();
        OwningOpRef<ModuleOp> module =
            importInput(sourceMgr, context, OpenAs::ProgramOrBundle);
        if (!module)
          return failure();
        if (failed(importDataFiles(*module, getDataFilesFlag(),
                                   getEmbedPayloadsFlag())))
          return failure();
        Clock::time_point imported = Clock::now();
        if (failed(printImported(*module, os)))
          return failure();
        os.flush();
        reportTiming("from-pte",
                     llvm::formatv("import {0:F3} s, print {1:F3} s, ",
                                   secondsBetween(start, imported),
                                   secondsBetween(imported, Clock::now()))
                         .str(),
                     start, copiedBefore);
        return success();
      });
}

static ToPTEFlags &getToPTEFlags() {
  static ToPTEFlags flags;
  return flags;
}

void emit::registerPTESummaryTranslation() {
  static llvm::cl::opt<ReportFormat> format(
      "pte-summary-format",
      llvm::cl::desc("With --pte-summary, the output format"),
      llvm::cl::values(
          clEnumValN(ReportFormat::Text, "text", "plain text (default)"),
          clEnumValN(ReportFormat::JSON, "json",
                     "JSON (schema emit-summary-2)"),
          clEnumValN(ReportFormat::SVG, "svg",
                     "a self-contained SVG image of the largest blobs"),
          clEnumValN(ReportFormat::HTML, "html",
                     "a self-contained HTML page: where the bytes go by "
                     "kind, method and backend, identical data, largest "
                     "blobs")),
      llvm::cl::init(ReportFormat::Text));
  static llvm::cl::opt<std::string> kernelsOption(
      "pte-summary-kernels",
      llvm::cl::desc("With --pte-summary, the kernels a build registers, as "
                     "emit-verify --kernels takes them: the summary lists "
                     "the kernel calls it runs no kernel for"),
      llvm::cl::value_desc("list"));
  TranslateRegistration registration(
      "pte-summary",
      "summarize a .pte: methods, delegates, blobs and who shares them, and "
      "what deduplication would save",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) -> LogicalResult {
        std::optional<kernels::KernelSpec> kernels;
        if (!kernelsOption.empty()) {
          std::string error;
          FailureOr<kernels::KernelSpec> spec = kernels::parseKernelSpec(
              kernelsOption, error, "--pte-summary-kernels");
          if (failed(spec))
            return emitError(UnknownLoc::get(context)) << error;
          kernels = std::move(*spec);
        }
        std::unique_ptr<CheckedFile> file =
            openInput(sourceMgr, context, OpenAs::Any);
        OwningOpRef<ModuleOp> module =
            file ? importFile(*file, context, getImportOptions()) : nullptr;
        if (!module)
          return failure();
        return printPTESummary(
            *module, os,
            getSummaryOptionsFor(*file, format, kernels ? &*kernels : nullptr));
      });
}

/// The rewrites for `--target-runtime=release` added to `passes`, which
/// hold only them unless `keepPipeline` (--pte-pass-pipeline was given).
static LogicalResult addTargetRuntime(const CheckedFile &file,
                                      StringRef release, bool keepPipeline,
                                      OpPassManager &passes,
                                      MLIRContext *context) {
  std::string error;
  FailureOr<std::optional<unsigned>> target =
      parseRuntimeOption("--target-runtime", release, error);
  if (failed(target))
    return emitError(UnknownLoc::get(context)) << error;
  if (!*target)
    return emitError(UnknownLoc::get(context))
           << "--target-runtime names one release, not all";
  if (!keepPipeline)
    passes.clear();
  return addTargetRuntimePasses(file, getDataFilesFlag(), **target, passes,
                                context);
}

namespace {
/// --pte-to-pte's options (--replan-memory and its own among them),
/// registered once.
struct PTEToPTEFlags {
  llvm::cl::opt<std::string> pipeline{
      "pte-pass-pipeline",
      llvm::cl::desc("With --pte-to-pte, the pass pipeline to run between "
                     "import and export"),
      llvm::cl::init("builtin.module(dedup-delegate-blobs)")};
  llvm::cl::opt<std::string> targetRuntime{
      "target-runtime",
      llvm::cl::desc("With --pte-to-pte, rewrite the program so that this "
                     "runtime release ('1.3', '0.1', ...) loads it with the "
                     "same meaning, or refuse, writing nothing; only the "
                     "rewrites run unless --pte-pass-pipeline is given"),
      llvm::cl::value_desc("release")};
  llvm::cl::opt<bool> unbundle{
      "unbundle",
      llvm::cl::desc("With --pte-to-pte on a bundled program (.bpte), write "
                     "the program it embeds as a .pte, without its test "
                     "suites"),
      llvm::cl::init(false)};
  llvm::cl::opt<std::string> bundleWith{
      "bundle-with",
      llvm::cl::desc("With --pte-to-pte, write a bundled program: the "
                     "result with the test suites of this .bpte (replacing "
                     "a bundle's own), refused if one does not fit its "
                     "methods"),
      llvm::cl::value_desc("suites.bpte")};
  llvm::cl::opt<bool> replan{
      "replan-memory",
      llvm::cl::desc("With --pte-to-pte, re-plan every method's planned "
                     "memory (et-replan-memory), then run only the pass "
                     "pipeline given by --pte-pass-pipeline, if any"),
      llvm::cl::init(false)};
  llvm::cl::opt<std::string> fastMemory{
      "fast-memory",
      llvm::cl::desc("With --replan-memory, a fast planned buffer of at most "
                     "BYTES per method holding the tensors accessed most "
                     "per byte (order=peak: the largest live at the peak)"),
      llvm::cl::value_desc("BYTES[,id=N][,order=accesses|peak]")};
  llvm::cl::opt<uint64_t> alignment{
      "replan-alignment",
      llvm::cl::desc("With --replan-memory, the alignment each tensor keeps "
                     "its offset modulo (a power of two)"),
      llvm::cl::init(16)};
  llvm::cl::opt<std::string> report{
      "replan-report",
      llvm::cl::desc("With --replan-memory, write the report (bytes per "
                     "method and buffer before, after, and the lower bound) "
                     "to this file: JSON (emit-replan-1) if it ends in .json, "
                     "else text; '-' for standard error"),
      llvm::cl::value_desc("file")};

  /// The re-planning the flags ask for: none without --replan-memory; an
  /// error for an option that cannot hold or one given without it.
  FailureOr<std::optional<memory::ReplanOptions>>
  getReplanOptions(MLIRContext *context) const;
  /// Writes `reports` where --replan-report says.
  LogicalResult writeReplanReports(ArrayRef<memory::ReplanReport> reports,
                                   MLIRContext *context) const;
};
} // namespace

static PTEToPTEFlags &getPTEToPTEFlags() {
  static PTEToPTEFlags flags;
  return flags;
}

FailureOr<std::optional<memory::ReplanOptions>>
PTEToPTEFlags::getReplanOptions(MLIRContext *context) const {
  if (!replan) {
    if (!fastMemory.empty() || !report.empty())
      return emitError(UnknownLoc::get(context))
             << "--fast-memory and --replan-report need --replan-memory";
    return std::optional<memory::ReplanOptions>();
  }
  memory::ReplanOptions options;
  if (alignment == 0 || (alignment & (alignment - 1)))
    return emitError(UnknownLoc::get(context))
           << "--replan-alignment=" << alignment.getValue()
           << " is not a power of two";
  options.alignment = alignment;
  std::string error;
  if (!fastMemory.empty() &&
      failed(memory::parseFastMemory(fastMemory, options, error)))
    return emitError(UnknownLoc::get(context)) << "--fast-memory=" << error;
  return std::optional<memory::ReplanOptions>(options);
}

LogicalResult
PTEToPTEFlags::writeReplanReports(ArrayRef<memory::ReplanReport> reports,
                                  MLIRContext *context) const {
  StringRef path = report;
  if (path.empty())
    return success();
  ReportFormat format =
      path.ends_with(".json") ? ReportFormat::JSON : ReportFormat::Text;
  auto print = [&](raw_ostream &os) {
    for (const memory::ReplanReport &one : reports)
      one.print(format, os);
  };
  if (path == "-") {
    print(llvm::errs());
    return success();
  }
  std::error_code code;
  llvm::raw_fd_ostream os(path, code);
  if (code)
    return emitError(UnknownLoc::get(context))
           << "cannot write --replan-report '" << path
           << "': " << code.message();
  print(os);
  return success();
}

/// Runs --pte-to-pte on the input of `sourceMgr` as the flags say.
static LogicalResult
translatePTEToPTE(const PTEToPTEFlags &pte, ToPTEFlags &write,
                  const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                  raw_ostream &os, MLIRContext *context) {
  Clock::time_point start = Clock::now();
  uint64_t copiedBefore = getKernelCopiedBytes();
  std::string errorMessage;
  llvm::raw_string_ostream errorStream(errorMessage);
  FailureOr<OpPassManager> passes =
      parsePassPipeline(pte.pipeline, errorStream);
  if (failed(passes))
    return emitError(UnknownLoc::get(context))
           << "invalid --pte-pass-pipeline: " << errorMessage;
  if (pte.unbundle && !pte.bundleWith.empty())
    return emitError(UnknownLoc::get(context))
           << "--unbundle and --bundle-with exclude each other";
  Clock::time_point opening = Clock::now();
  std::unique_ptr<CheckedFile> file =
      openInput(sourceMgr, context, OpenAs::Any);
  Clock::time_point opened = Clock::now();
  if (file && !pte.targetRuntime.empty() &&
      failed(addTargetRuntime(*file, pte.targetRuntime,
                              pte.pipeline.getNumOccurrences() > 0, *passes,
                              context)))
    return failure();
  FailureOr<std::optional<memory::ReplanOptions>> replanning =
      pte.getReplanOptions(context);
  if (failed(replanning))
    return failure();
  // A re-plan changes nothing else: the default pipeline (dedup)
  // runs only when asked for by name.
  if (*replanning && pte.pipeline.getNumOccurrences() == 0 &&
      pte.targetRuntime.empty())
    passes->clear();
  std::vector<memory::ReplanReport> reports;
  auto replanImported = [&](ModuleOp module, const CheckedFile &input) {
    return memory::replanModule(module, **replanning, &reports,
                                getProgramOf(input));
  };
  PTEStageTimes times;
  if (!file ||
      failed(transformProgramFile(
          *file, {getEmbedPayloadsFlag()}, getDataFilesFlag(), *passes,
          write.getOptions(), os, context, &times,
          {pte.unbundle, pte.bundleWith},
          *replanning ? llvm::function_ref<LogicalResult(
                            ModuleOp, const CheckedFile &)>(replanImported)
                      : nullptr)) ||
      failed(pte.writeReplanReports(reports, context)))
    return failure();
  // Opening the file (reading and checking it) is the import's too.
  times.import += secondsBetween(opening, opened);
  reportTiming("pte-to-pte",
               llvm::formatv("import {0:F3} s, passes {1:F3} s, export "
                             "{2:F3} s, ",
                             times.import, times.passes, times.export_)
                   .str(),
               start, copiedBefore);
  return success();
}

void emit::registerPTEToPTETranslation() {
  getTimingFlag();
  getDataFilesFlag();
  ToPTEFlags &write = getToPTEFlags();
  PTEToPTEFlags &pte = getPTEToPTEFlags();
  TranslateRegistration registration(
      "pte-to-pte",
      "import a .pte (or a .bpte, or a .ptd), run a pass pipeline on it and "
      "write it back, in one process: payloads go from the input mapping to "
      "the output unparsed",
      [&write, &pte](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                     raw_ostream &os, MLIRContext *context) {
        return translatePTEToPTE(pte, write, sourceMgr, os, context);
      });
}

void emit::registerPTDTranslations() {
  getEmitBytecodeFlag();
  getEmbedPayloadsFlag();
  TranslateRegistration fromPTD(
      "from-ptd", "import an ExecuTorch .ptd data file as an et.data_file",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) -> LogicalResult {
        OwningOpRef<ModuleOp> module =
            importInput(sourceMgr, context, OpenAs::DataFile);
        if (!module || failed(printImported(*module, os)))
          return failure();
        os.flush();
        return success();
      });
  static llvm::cl::opt<std::string> dataFileName(
      "ptd-data-file",
      llvm::cl::desc("With --to-ptd, the et.data_file to write when the "
                     "module holds several"),
      llvm::cl::value_desc("name"));
  ToPTEFlags &flags = getToPTEFlags();
  TranslateFromMLIRRegistration toPTD(
      "to-ptd", "write an et.data_file as an ExecuTorch .ptd data file",
      [&flags](Operation *op, raw_ostream &os) {
        PTEWriteOptions options = flags.getOptions();
        options.dataFileName = dataFileName;
        if (failed(translateToPTD(op, os, options)))
          return failure();
        os.flush();
        return success();
      },
      [](DialectRegistry &registry) { registry.insert<et::ETDialect>(); });
}

void emit::registerToPTETranslation() {
  ToPTEFlags &flags = getToPTEFlags();
  getTimingFlag();
  TranslateFromMLIRRegistration registration(
      "to-pte", "write an et.program as an ExecuTorch .pte file",
      [&flags](Operation *op, raw_ostream &os) {
        Clock::time_point start = Clock::now();
        uint64_t copiedBefore = getKernelCopiedBytes();
        if (failed(translateToPTE(op, os, flags.getOptions())))
          return failure();
        os.flush();
        reportTiming("to-pte", "", start, copiedBefore);
        return success();
      },
      [](DialectRegistry &registry) { registry.insert<et::ETDialect>(); });
}

bool emit::readsProgramFile(StringRef name) {
  return llvm::is_contained(
      {"from-pte", "from-ptd", "pte-to-pte", "pte-summary"}, name);
}

bool emit::writesIR(StringRef name) {
  return name == "from-pte" || name == "from-ptd";
}
