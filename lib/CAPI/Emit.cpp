//===- Emit.cpp - emit's C API ----------------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit-c/Emit.h"

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Diff/Diff.h"
#include "emit/Pipeline/LinkFiles.h"
#include "emit/Pipeline/Pipeline.h"
#include "emit/Summary/Summary.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Support/OutputFiles.h"
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

/// Runs the dedup pass with `options` on `input` (read as `read` says),
/// writing the program to `os` and the report (docs/DedupReport.md) to
/// `report`.
static LogicalResult dedup(Session &session, const llvm::MemoryBuffer &input,
                           const PTEReadOptions &read, const char *options,
                           raw_ostream &os, std::string &report) {
  et::dedup::Result result;
  FailureOr<OpPassManager> passes = dedupPipeline(session, options, result);
  if (failed(passes) ||
      failed(transformProgramFile(input, read, /*dataFiles=*/{}, *passes,
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

int emitDedupFile(const char *source, const char *destination,
                  const char *options, EmitBuffer *report, EmitBuffer *error) {
  Session session;
  std::string message;
  std::unique_ptr<MappedFile> input = MappedFile::open(source, message);
  if (!input)
    return session.fail(error, "cannot read '" + std::string(source) +
                                   "': " + message);
  FailureOr<PTEReadOptions> read =
      getReadOptionsFor(input->getBuffer(), /*embed=*/false, &session.context);
  if (failed(read))
    return session.fail(error);
  OutputFiles outputs;
  llvm::raw_fd_ostream *os = outputs.open(destination, message);
  if (!os)
    return session.fail(error, message);
  std::string json;
  if (failed(dedup(session, input->getBuffer(), *read, options, *os, json)))
    return session.fail(error);
  if (!outputs.commit(message))
    return session.fail(error, message);
  give(report, json);
  return 0;
}

int emitDedupBuffer(const void *data, size_t size, const char *options,
                    EmitBuffer *output, EmitBuffer *report, EmitBuffer *error) {
  Session session;
  auto input = llvm::MemoryBuffer::getMemBuffer(
      StringRef(static_cast<const char *>(data), size), "<bytes>",
      /*RequiresNullTerminator=*/false);
  FailureOr<PTEReadOptions> read =
      getReadOptionsFor(*input, /*embed=*/true, &session.context);
  std::string bytes, json;
  llvm::raw_string_ostream os(bytes);
  if (failed(read) || failed(dedup(session, *input, *read, options, os, json)))
    return session.fail(error);
  os.flush();
  give(output, bytes);
  give(report, json);
  return 0;
}

/// The JSON summary of `input`, read as `read` says.
static int summarize(Session &session, const llvm::MemoryBuffer &input,
                     bool embed, EmitBuffer *summary, EmitBuffer *error) {
  FailureOr<PTEReadOptions> read =
      getReadOptionsFor(input, embed, &session.context);
  if (failed(read))
    return session.fail(error);
  OwningOpRef<ModuleOp> module = importProgramFile(
      input, &session.context, ProgramFileKind::Either, *read);
  std::string json;
  llvm::raw_string_ostream os(json);
  if (!module ||
      failed(printPTESummary(
          *module, os,
          getSummaryOptionsFor(input.getBuffer(), PTESummaryFormat::JSON))))
    return session.fail(error);
  os.flush();
  give(summary, json);
  return 0;
}

int emitSummaryFile(const char *path, EmitBuffer *summary, EmitBuffer *error) {
  Session session;
  std::string message;
  std::unique_ptr<MappedFile> input = MappedFile::open(path, message);
  if (!input)
    return session.fail(error,
                        "cannot read '" + std::string(path) + "': " + message);
  return summarize(session, input->getBuffer(), /*embed=*/false, summary,
                   error);
}

int emitSummaryBuffer(const void *data, size_t size, EmitBuffer *summary,
                      EmitBuffer *error) {
  Session session;
  auto input = llvm::MemoryBuffer::getMemBuffer(
      StringRef(static_cast<const char *>(data), size), "<bytes>",
      /*RequiresNullTerminator=*/false);
  return summarize(session, *input, /*embed=*/true, summary, error);
}

/// The emit-verify-1 report of `input` with the data files at `dataPaths`.
static int verify(Session &session, const llvm::MemoryBuffer &input,
                  const char *const *dataPaths, size_t dataCount,
                  EmitBuffer *report, EmitBuffer *error) {
  std::vector<std::string> dataFiles(dataPaths, dataPaths + dataCount);
  std::string message;
  FailureOr<VerifyReport> result =
      verifyBuffer(input, dataFiles, session.context, message);
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
  std::unique_ptr<MappedFile> input = MappedFile::open(path, message);
  if (!input)
    return session.fail(error,
                        "cannot read '" + std::string(path) + "': " + message);
  return verify(session, input->getBuffer(), dataPaths, dataCount, report,
                error);
}

int emitVerifyBuffer(const void *data, size_t size,
                     const char *const *dataPaths, size_t dataCount,
                     EmitBuffer *report, EmitBuffer *error) {
  Session session;
  auto input = llvm::MemoryBuffer::getMemBuffer(
      StringRef(static_cast<const char *>(data), size), "<bytes>",
      /*RequiresNullTerminator=*/false);
  return verify(session, *input, dataPaths, dataCount, report, error);
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

void emitFree(EmitBuffer *buffer) {
  if (!buffer)
    return;
  std::free(buffer->data);
  buffer->data = nullptr;
  buffer->size = 0;
}
