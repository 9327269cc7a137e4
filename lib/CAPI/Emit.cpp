//===- Emit.cpp - emit's C API ----------------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit-c/Emit.h"

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/Diff/Diff.h"
#include "emit/Diff/GraphDiff.h"
#include "emit/Diff/ProfileBaseline.h"
#include "emit/File/CheckedFile.h"
#include "emit/Graph/GraphReport.h"
#include "emit/Kernels/KernelCalls.h"
#include "emit/Kernels/KernelLibraries.h"
#include "emit/Kernels/KernelRegistry.h"
#include "emit/Memory/MemoryReport.h"
#include "emit/Memory/Passes.h"
#include "emit/Pipeline/LinkFiles.h"
#include "emit/Pipeline/Pipeline.h"
#include "emit/Profile/ProfileReport.h"
#include "emit/Releases/Releases.h"
#include "emit/Summary/Summary.h"
#include "emit/Support/OutputFiles.h"
#include "emit/Support/Version.h"
#include "emit/Target/PTE/PTE.h"
#include "emit/Verify/Verify.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace emit;

namespace {
/// A context for one call, with emit's dialect and its diagnostics printed
/// as the tools print them, into a string.
struct Session {
  Session() : diagnostics(sourceMgr, &context, stream) {
    context.loadDialect<et::ETDialect>();
    context.printOpOnDiagnostic(false);
  }

  /// Fills `out` (when given) with the diagnostics, or `fallback` if there
  /// are none, and returns the failure code.
  int fail(EmitBuffer *out, StringRef fallback = "emit failed");

  /// The file at `path`, open and checked through the session's payload
  /// files; null with the reason in `error`.
  std::unique_ptr<CheckedFile> open(const char *path, std::string &error) {
    std::string reason;
    std::unique_ptr<CheckedFile> file =
        openFile(et::getPayloadFiles(&context), path, OpenAs::Any, reason);
    if (!file)
      error = cannotRead(path, reason);
    return file;
  }

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::string messages;
  llvm::raw_string_ostream stream{messages};
  SourceMgrDiagnosticHandler diagnostics;
};
} // namespace

/// Copies `bytes` into a new buffer for the caller.
static void give(EmitBuffer *out, StringRef bytes) {
  if (!out)
    return;
  out->data = static_cast<char *>(std::malloc(bytes.size() + 1));
  out->size = out->data ? bytes.size() : 0;
  if (out->data) {
    std::memcpy(out->data, bytes.data(), bytes.size());
    out->data[bytes.size()] = '\0';
  }
}

int Session::fail(EmitBuffer *out, StringRef fallback) {
  stream.flush();
  give(out, messages.empty() ? fallback : StringRef(messages).rtrim());
  return 1;
}

/// The dedup pass with `options` (its textual options, as in a pipeline),
/// stating what it shared in `result`.
static FailureOr<OpPassManager> dedupPipeline(Session &session,
                                              const char *options,
                                              et::dedup::Result &result) {
  std::unique_ptr<Pass> pass = et::createDedupDelegateBlobs({}, result);
  std::string error;
  if (failed(pass->initializeOptions(options ? options : "",
                                     [&](const Twine &message) {
                                       error = message.str();
                                       return failure();
                                     })))
    return emitError(UnknownLoc::get(&session.context))
           << "invalid dedup options '" << (options ? options : "")
           << "': " << error;
  OpPassManager passes(ModuleOp::getOperationName());
  passes.addPass(std::move(pass));
  return passes;
}

/// Runs the dedup pass with `options` on `input`, writing the program to
/// `os` and the report (docs/DedupReport.md) to `report`.
/// Adds to `passes` the rewrites for the runtime release `runtime` (none
/// when null), as --pte-to-pte --target-runtime does.
static LogicalResult addRuntimeRewrites(Session &session,
                                        const CheckedFile &input,
                                        const char *runtime,
                                        OpPassManager &passes) {
  if (!runtime)
    return success();
  std::string message;
  FailureOr<std::optional<unsigned>> release =
      parseRuntimeOption("target_runtime", runtime, message);
  if (failed(release))
    return emitError(UnknownLoc::get(&session.context)) << message;
  if (!*release)
    return emitError(UnknownLoc::get(&session.context))
           << "target_runtime names one release, not all";
  return addTargetRuntimePasses(input, /*dataFiles=*/{}, **release, passes,
                                &session.context);
}

static LogicalResult dedup(Session &session, const CheckedFile &input,
                           const char *options, const char *runtime,
                           raw_ostream &os, std::string &report) {
  et::dedup::Result result;
  FailureOr<OpPassManager> passes = dedupPipeline(session, options, result);
  if (failed(passes) ||
      failed(addRuntimeRewrites(session, input, runtime, *passes)) ||
      failed(transformProgramFile(input, {}, /*dataFiles=*/{}, *passes,
                                  PTEWriteOptions(), os, &session.context)))
    return failure();
  llvm::raw_string_ostream reportStream(report);
  {
    llvm::json::OStream json(reportStream, /*IndentSize=*/2);
    et::dedup::writeReport(result, json);
  }
  reportStream << "\n";
  return success();
}

/// A rewrite of one program file: writes the result to `os` and its
/// report to `report`.
using RewriteJob = llvm::function_ref<LogicalResult(
    Session &, const CheckedFile &, raw_ostream &, std::string &)>;

/// Runs `job` from the file at `source` to the file at `destination`,
/// written all or nothing; the report to *report.
static int rewriteFile(const char *source, const char *destination,
                       EmitBuffer *report, EmitBuffer *error, RewriteJob job) {
  Session session;
  std::string message;
  std::unique_ptr<CheckedFile> input = session.open(source, message);
  if (!input)
    return session.fail(error, message);
  OutputFiles outputs;
  llvm::raw_fd_ostream *os = outputs.open(destination, message);
  if (!os)
    return session.fail(error, message);
  std::string json;
  if (failed(job(session, *input, *os, json)))
    return session.fail(error);
  if (!outputs.commit(message))
    return session.fail(error, message);
  give(report, json);
  return 0;
}

/// Runs `job` on a program in memory: the result to *output.
static int rewriteBuffer(const void *data, size_t size, EmitBuffer *output,
                         EmitBuffer *report, EmitBuffer *error,
                         RewriteJob job) {
  Session session;
  std::unique_ptr<CheckedFile> input =
      openFile(FileBuffer::view(
                   StringRef(static_cast<const char *>(data), size), "<bytes>"),
               OpenAs::Any);
  std::string bytes, json;
  llvm::raw_string_ostream os(bytes);
  if (failed(job(session, *input, os, json)))
    return session.fail(error);
  os.flush();
  give(output, bytes);
  give(report, json);
  return 0;
}

int emitDedupFile(const char *source, const char *destination,
                  const char *options, EmitBuffer *report, EmitBuffer *error) {
  return emitDedupForRuntimeFile(source, destination, options, nullptr, report,
                                 error);
}

int emitDedupForRuntimeFile(const char *source, const char *destination,
                            const char *options, const char *runtime,
                            EmitBuffer *report, EmitBuffer *error) {
  return rewriteFile(source, destination, report, error,
                     [&](Session &session, const CheckedFile &input,
                         raw_ostream &os, std::string &json) {
                       return dedup(session, input, options, runtime, os, json);
                     });
}

int emitDedupBuffer(const void *data, size_t size, const char *options,
                    EmitBuffer *output, EmitBuffer *report, EmitBuffer *error) {
  return emitDedupForRuntimeBuffer(data, size, options, nullptr, output, report,
                                   error);
}

int emitDedupForRuntimeBuffer(const void *data, size_t size,
                              const char *options, const char *runtime,
                              EmitBuffer *output, EmitBuffer *report,
                              EmitBuffer *error) {
  return rewriteBuffer(data, size, output, report, error,
                       [&](Session &session, const CheckedFile &input,
                           raw_ostream &os, std::string &json) {
                         return dedup(session, input, options, runtime, os,
                                      json);
                       });
}

/// Re-plans `input`'s memory as the options say, writing the program to
/// `os` and the emit-replan-1 report to `report`.
static LogicalResult replan(Session &session, const CheckedFile &input,
                            const char *fastMemory, uint64_t alignment,
                            raw_ostream &os, std::string &report) {
  MLIRContext *context = &session.context;
  memory::ReplanOptions options;
  std::string message;
  if (alignment)
    options.alignment = alignment;
  if (options.alignment & (options.alignment - 1))
    return emitError(UnknownLoc::get(context))
           << "alignment " << options.alignment << " is not a power of two";
  if (fastMemory &&
      failed(memory::parseFastMemory(fastMemory, options, message)))
    return emitError(UnknownLoc::get(context)) << "fast_memory=" << message;
  std::vector<memory::ReplanReport> reports;
  auto replanImported = [&](ModuleOp module, const CheckedFile &file) {
    return memory::replanModule(module, options, &reports, getProgramOf(file));
  };
  if (failed(transformProgramFile(input, {}, /*dataFiles=*/{},
                                  OpPassManager(ModuleOp::getOperationName()),
                                  PTEWriteOptions(), os, context, nullptr, {},
                                  replanImported)))
    return failure();
  llvm::raw_string_ostream reportStream(report);
  for (const memory::ReplanReport &one : reports)
    one.print(ReportFormat::JSON, reportStream);
  return success();
}

int emitReplanFile(const char *source, const char *destination,
                   const char *fastMemory, uint64_t alignment,
                   EmitBuffer *report, EmitBuffer *error) {
  return rewriteFile(source, destination, report, error,
                     [&](Session &session, const CheckedFile &input,
                         raw_ostream &os, std::string &json) {
                       return replan(session, input, fastMemory, alignment, os,
                                     json);
                     });
}

int emitReplanBuffer(const void *data, size_t size, const char *fastMemory,
                     uint64_t alignment, EmitBuffer *output, EmitBuffer *report,
                     EmitBuffer *error) {
  return rewriteBuffer(data, size, output, report, error,
                       [&](Session &session, const CheckedFile &input,
                           raw_ostream &os, std::string &json) {
                         return replan(session, input, fastMemory, alignment,
                                       os, json);
                       });
}

/// The JSON summary of `input`.
static int summarize(Session &session, const CheckedFile &input,
                     EmitBuffer *summary, EmitBuffer *error) {
  OwningOpRef<ModuleOp> module = importFile(input, &session.context);
  std::string json;
  llvm::raw_string_ostream os(json);
  if (!module ||
      failed(printPTESummary(*module, os,
                             getSummaryOptionsFor(input, ReportFormat::JSON))))
    return session.fail(error);
  os.flush();
  give(summary, json);
  return 0;
}

int emitSummaryFile(const char *path, EmitBuffer *summary, EmitBuffer *error) {
  Session session;
  std::string message;
  std::unique_ptr<CheckedFile> input = session.open(path, message);
  if (!input)
    return session.fail(error, message);
  return summarize(session, *input, summary, error);
}

int emitSummaryBuffer(const void *data, size_t size, EmitBuffer *summary,
                      EmitBuffer *error) {
  Session session;
  std::unique_ptr<CheckedFile> input =
      openFile(FileBuffer::view(
                   StringRef(static_cast<const char *>(data), size), "<bytes>"),
               OpenAs::Any);
  return summarize(session, *input, summary, error);
}

/// Gives `report` the emit-verify-1 JSON of `result`, or `error` the reason
/// it failed.
static int giveVerifyReport(Session &session,
                            const FailureOr<VerifyReport> &result,
                            StringRef message, EmitBuffer *report,
                            EmitBuffer *error) {
  if (failed(result))
    return session.fail(error, message);
  std::string json;
  llvm::raw_string_ostream os(json);
  printVerifyJSON(*result, os);
  os.flush();
  give(report, json);
  return 0;
}

int emitVerifyFile(const char *path, const char *const *dataPaths,
                   size_t dataCount, EmitBuffer *report, EmitBuffer *error) {
  Session session;
  std::string message;
  std::vector<std::string> dataFiles(dataPaths, dataPaths + dataCount);
  FailureOr<VerifyReport> result =
      verifyFiles(path, dataFiles, session.context, message);
  return giveVerifyReport(session, result, message, report, error);
}

int emitVerifyBuffer(const void *data, size_t size,
                     const char *const *dataPaths, size_t dataCount,
                     EmitBuffer *report, EmitBuffer *error) {
  Session session;
  std::string message;
  std::vector<std::string> dataFiles(dataPaths, dataPaths + dataCount);
  FailureOr<VerifyReport> result = verifyBuffer(
      FileBuffer::view(StringRef(static_cast<const char *>(data), size),
                       "<bytes>"),
      dataFiles, session.context, message);
  return giveVerifyReport(session, result, message, report, error);
}

/// Gives `report` the emit-verify-1 JSON of `input` with the verdicts of
/// the releases `runtime` names (none when null and `kernels` is given),
/// its calls checked against a build of `kernels` (when not null), or
/// `error` why not.
static int giveReleasesReport(Session &session,
                              std::shared_ptr<const FileBuffer> input,
                              const char *const *dataPaths, size_t dataCount,
                              const char *runtime, EmitBuffer *report,
                              EmitBuffer *error,
                              const char *kernels = nullptr) {
  std::string message;
  bool withReleases = runtime || !kernels;
  FailureOr<std::optional<unsigned>> release =
      withReleases
          ? parseRuntimeOption("runtime", runtime ? runtime : "", message)
          : FailureOr<std::optional<unsigned>>(std::nullopt);
  if (failed(release))
    return session.fail(error, message);
  std::optional<kernels::KernelSpec> spec;
  if (kernels) {
    FailureOr<kernels::KernelSpec> parsed =
        kernels::parseKernelSpec(kernels, message, "kernels");
    if (failed(parsed))
      return session.fail(error, message);
    spec = std::move(*parsed);
  }
  std::vector<std::string> dataFiles(dataPaths, dataPaths + dataCount);
  FailureOr<VerifyReport> result =
      verifyBuffer(std::move(input), dataFiles, session.context, message,
                   withReleases, spec ? &*spec : nullptr);
  if (succeeded(result))
    result->printedRelease = *release;
  return giveVerifyReport(session, result, message, report, error);
}

int emitVerifyReleasesFile(const char *path, const char *const *dataPaths,
                           size_t dataCount, const char *runtime,
                           EmitBuffer *report, EmitBuffer *error) {
  Session session;
  std::string message;
  std::shared_ptr<const FileBuffer> input =
      et::getPayloadFiles(&session.context).open(path, message);
  if (!input)
    return session.fail(error, cannotRead(path, message));
  return giveReleasesReport(session, std::move(input), dataPaths, dataCount,
                            runtime, report, error);
}

int emitVerifyReleasesBuffer(const void *data, size_t size,
                             const char *const *dataPaths, size_t dataCount,
                             const char *runtime, EmitBuffer *report,
                             EmitBuffer *error) {
  Session session;
  return giveReleasesReport(
      session,
      FileBuffer::view(StringRef(static_cast<const char *>(data), size),
                       "<bytes>"),
      dataPaths, dataCount, runtime, report, error);
}

int emitVerifyKernelsFile(const char *path, const char *const *dataPaths,
                          size_t dataCount, const char *runtime,
                          const char *kernels, EmitBuffer *report,
                          EmitBuffer *error) {
  Session session;
  if (!kernels)
    return session.fail(error, "kernels: none given");
  std::string message;
  std::shared_ptr<const FileBuffer> input =
      et::getPayloadFiles(&session.context).open(path, message);
  if (!input)
    return session.fail(error, cannotRead(path, message));
  return giveReleasesReport(session, std::move(input), dataPaths, dataCount,
                            runtime, report, error, kernels);
}

int emitVerifyKernelsBuffer(const void *data, size_t size,
                            const char *const *dataPaths, size_t dataCount,
                            const char *runtime, const char *kernels,
                            EmitBuffer *report, EmitBuffer *error) {
  Session session;
  if (!kernels)
    return session.fail(error, "kernels: none given");
  return giveReleasesReport(
      session,
      FileBuffer::view(StringRef(static_cast<const char *>(data), size),
                       "<bytes>"),
      dataPaths, dataCount, runtime, report, error, kernels);
}

int emitSelectedOps(const char *const *paths, size_t count, const char *kernels,
                    const char *runtime, EmitBuffer *yaml, EmitBuffer *error) {
  Session session;
  std::string message;
  unsigned release = getReleaseNames().size() - 1;
  if (runtime) {
    std::optional<unsigned> named = findRelease(runtime);
    if (!named)
      return session.fail(
          error,
          ("runtime: not a release emit knows: " + StringRef(runtime)).str());
    release = *named;
  }
  std::vector<std::string> libraries(kernels::getLibraryNames().begin(),
                                     kernels::getLibraryNames().end());
  if (kernels) {
    FailureOr<kernels::KernelSpec> spec =
        kernels::parseKernelSpec(kernels, message, "kernels");
    if (failed(spec))
      return session.fail(error, message);
    libraries = spec->libraries;
  }
  std::vector<std::string> programs(paths, paths + count);
  if (programs.empty())
    return session.fail(error, "no program given");
  FailureOr<kernels::KernelUses> uses = kernels::collectKernelUses(
      et::getPayloadFiles(&session.context), programs, message);
  if (failed(uses))
    return session.fail(error, message);
  std::string text;
  llvm::raw_string_ostream os(text);
  kernels::writeSelectedOperators(*uses, libraries, release, os);
  give(yaml, text);
  return 0;
}

/// Gives `report` the emit-memory-1 JSON of the program in `input`, or
/// `error` the reason it cannot be analyzed.
static int giveMemoryReport(Session &session,
                            std::shared_ptr<const FileBuffer> input,
                            const char *const *dataPaths, size_t dataCount,
                            EmitBuffer *report, EmitBuffer *error) {
  memory::MemoryOptions options;
  options.dataFiles.assign(dataPaths, dataPaths + dataCount);
  std::string message;
  FailureOr<memory::MemoryReport> result = memory::analyzeMemory(
      std::move(input), et::getPayloadFiles(&session.context), options,
      message);
  if (failed(result))
    return session.fail(error, message);
  std::string json;
  llvm::raw_string_ostream os(json);
  memory::printMemoryJSON(*result, os);
  os.flush();
  give(report, json);
  return 0;
}

int emitMemoryFile(const char *path, const char *const *dataPaths,
                   size_t dataCount, EmitBuffer *report, EmitBuffer *error) {
  Session session;
  std::string message;
  std::shared_ptr<const FileBuffer> input =
      et::getPayloadFiles(&session.context).open(path, message);
  if (!input)
    return session.fail(error, cannotRead(path, message));
  return giveMemoryReport(session, std::move(input), dataPaths, dataCount,
                          report, error);
}

int emitMemoryBuffer(const void *data, size_t size,
                     const char *const *dataPaths, size_t dataCount,
                     EmitBuffer *report, EmitBuffer *error) {
  Session session;
  return giveMemoryReport(
      session,
      FileBuffer::view(StringRef(static_cast<const char *>(data), size),
                       "<bytes>"),
      dataPaths, dataCount, report, error);
}

/// `request`'s options, as emit-profile's flags give them.
static profile::ProfileOptions
getProfileOptions(const EmitProfileRequest &request) {
  profile::ProfileOptions options;
  options.program = request.programPath ? request.programPath : "";
  options.debugBuffer = request.debugBufferPath ? request.debugBufferPath : "";
  options.dataFiles.assign(request.dataPaths,
                           request.dataPaths + request.dataCount);
  options.methods.assign(request.methods,
                         request.methods + request.methodCount);
  options.inOrder = request.inOrder != 0;
  return options;
}

int emitProfile(const EmitProfileRequest *request, EmitBuffer *report,
                EmitBuffer *error) {
  Session session;
  PayloadFiles &files = et::getPayloadFiles(&session.context);
  bool baseline = request->baselineProgramPath || request->baselineETDumpPath;
  if (baseline && (!request->baselineProgramPath ||
                   !request->baselineETDumpPath || !request->programPath))
    return session.fail(error, "a baseline needs its program and ETDump, and "
                               "the program of this run");
  std::string message;
  std::shared_ptr<const FileBuffer> etdump =
      files.open(request->etdumpPath, message);
  if (!etdump)
    return session.fail(error, cannotRead(request->etdumpPath, message));
  profile::ProfileOptions options = getProfileOptions(*request);
  FailureOr<profile::ProfileReport> result =
      profile::analyzeProfile(std::move(etdump), files, options, message);
  if (failed(result))
    return session.fail(error, message);
  std::string diagnostics;
  if (baseline &&
      failed(compareWithBaselineRun(
          *result, options,
          {request->baselineProgramPath, request->baselineETDumpPath}, files,
          [&](StringRef said) {
            diagnostics += (diagnostics.empty() ? "" : "\n") + said.str();
          })))
    return session.fail(error, "baseline: " + diagnostics);
  std::string json;
  llvm::raw_string_ostream os(json);
  profile::printProfileJSON(*result, os);
  os.flush();
  give(report, json);
  return 0;
}

/// Gives `report` the emit-graph-2 JSON of the program in `input`, or
/// `error` the reason it cannot be drawn.
static int giveGraph(Session &session, std::shared_ptr<const FileBuffer> input,
                     const char *const *dataPaths, size_t dataCount,
                     const char *profilePath, EmitBuffer *report,
                     EmitBuffer *error) {
  graph::GraphOptions options;
  options.dataFiles.assign(dataPaths, dataPaths + dataCount);
  options.profile = profilePath ? profilePath : "";
  std::string message;
  FailureOr<graph::GraphReport> result = graph::analyzeGraph(
      std::move(input), et::getPayloadFiles(&session.context), options,
      message);
  if (failed(result))
    return session.fail(error, message);
  std::string json;
  llvm::raw_string_ostream os(json);
  graph::printGraphJSON(*result, os);
  os.flush();
  give(report, json);
  return 0;
}

int emitGraphFile(const char *path, const char *const *dataPaths,
                  size_t dataCount, const char *profilePath, EmitBuffer *report,
                  EmitBuffer *error) {
  Session session;
  std::string message;
  std::shared_ptr<const FileBuffer> input =
      et::getPayloadFiles(&session.context).open(path, message);
  if (!input)
    return session.fail(error, cannotRead(path, message));
  return giveGraph(session, std::move(input), dataPaths, dataCount, profilePath,
                   report, error);
}

int emitGraphBuffer(const void *data, size_t size, const char *const *dataPaths,
                    size_t dataCount, const char *profilePath,
                    EmitBuffer *report, EmitBuffer *error) {
  Session session;
  return giveGraph(
      session,
      FileBuffer::view(StringRef(static_cast<const char *>(data), size),
                       "<bytes>"),
      dataPaths, dataCount, profilePath, report, error);
}

int emitDiffFiles(const char *oldPath, const char *const *oldDataPaths,
                  size_t oldDataCount, const char *newPath,
                  const char *const *newDataPaths, size_t newDataCount,
                  EmitBuffer *report, EmitBuffer *error) {
  Session session;
  DiffInput oldInput{oldPath, {oldDataPaths, oldDataPaths + oldDataCount}};
  DiffInput newInput{newPath, {newDataPaths, newDataPaths + newDataCount}};
  FailureOr<DiffReport> result = diffFiles(oldInput, newInput, session.context);
  if (failed(result))
    return session.fail(error);
  std::string json;
  llvm::raw_string_ostream os(json);
  printDiffJSON(*result, os);
  os.flush();
  give(report, json);
  return 0;
}

int emitGraphDiffFiles(const char *oldPath, const char *const *oldDataPaths,
                       size_t oldDataCount, const char *newPath,
                       const char *const *newDataPaths, size_t newDataCount,
                       const char *const *methodPairs, size_t pairCount,
                       EmitBuffer *report, EmitBuffer *error) {
  Session session;
  std::string message;
  graphdiff::GraphDiffOptions options;
  for (size_t k = 0; k < pairCount; ++k) {
    auto pair = graphdiff::parseMethodPair(methodPairs[k], message);
    if (failed(pair))
      return session.fail(error, message);
    options.methods.push_back(*pair);
  }
  DiffInput oldInput{oldPath, {oldDataPaths, oldDataPaths + oldDataCount}};
  DiffInput newInput{newPath, {newDataPaths, newDataPaths + newDataCount}};
  FailureOr<graphdiff::GraphDiffReport> result =
      graphdiff::diffGraphs(oldInput, newInput, options,
                            et::getPayloadFiles(&session.context), message);
  if (failed(result))
    return session.fail(error, message);
  std::string json;
  llvm::raw_string_ostream os(json);
  graphdiff::printGraphDiffJSON(*result, os);
  give(report, json);
  return 0;
}

int emitLinkFiles(const EmitLinkOptions *options, EmitBuffer *report,
                  EmitBuffer *error) {
  Session session;
  auto strings = [](const char *const *items, size_t count) {
    return std::vector<std::string>(items, items + (items ? count : 0));
  };
  auto string = [](const char *text) { return std::string(text ? text : ""); };
  LinkFilesOptions link;
  link.inputs = strings(options->inputs, options->inputCount);
  link.dataFiles = strings(options->dataFiles, options->dataFileCount);
  link.output = string(options->output);
  link.outDir = string(options->outDir);
  link.externalData = string(options->externalData);
  if (options->externalizeConstants >= 0)
    link.externalizeConstants = options->externalizeConstants;
  link.internalize = options->internalize;
  link.prefixMethods = options->prefixMethods;
  if (options->maxDataFileBytes)
    link.maxDataFileBytes = options->maxDataFileBytes;
  if (options->segmentAlignment)
    link.segmentAlignment = options->segmentAlignment;
  link.reportPath = "-";
  std::string json;
  if (failed(linkFiles(link, session.context, json)))
    return session.fail(error);
  give(report, json);
  return 0;
}

const char *emitGetVersion(void) {
  static const std::string version = getVersion().str();
  return version.c_str();
}

void emitFree(EmitBuffer *buffer) {
  if (!buffer)
    return;
  std::free(buffer->data);
  buffer->data = nullptr;
  buffer->size = 0;
}
