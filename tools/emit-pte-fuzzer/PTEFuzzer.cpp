//===- PTEFuzzer.cpp - Fuzz target for the file layer and importers -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Bytes in: the file layer's findings, the import, export to memory, import
// again. Beyond crashes, hangs and sanitizer reports, it checks four
// promises: the import refuses exactly the files with a finding it refuses
// (its error is the first such finding's), what it builds verifies (the
// layer's checks stand in for the verifier at import), what imports also
// exports, and what emit writes imports again.
// Inputs whose identifier says data file (FT01) go through the .ptd layer,
// importer and writer, the others through the .pte ones, so that mutations
// of either kind of seed stay with their reader. An ETDump (ED00 after its
// size prefix) goes through its reader and emit-profile's join, alone and
// with a fixed program of three methods.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Diff/GraphDiff.h"
#include "emit/File/BundleFile.h"
#include "emit/File/DataFile.h"
#include "emit/File/ETDumpFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/Graph/GraphReport.h"
#include "emit/Memory/MemoryReport.h"
#include "emit/Profile/ProfileReport.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;
using namespace emit;

static void fail(const char *what) {
  llvm::errs() << "emit-pte-fuzzer: " << what << "\n";
  std::abort();
}

/// The first finding for which the import refuses `file`, or else the
/// first the verifier reports; none when it imports.
static const Finding *findImportRefusal(const CheckedFile &file) {
  if (const Finding *error = file.getImportError())
    return error;
  for (const Finding &finding : file.getFindings().findings)
    if (finding.import == ImportEffect::Verifier)
      return &finding;
  return nullptr;
}

/// Imports `file`, capturing the first error it reports.
static OwningOpRef<ModuleOp> importCapturing(const CheckedFile &file,
                                             MLIRContext &context,
                                             std::string &firstError) {
  ScopedDiagnosticHandler first(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = diag.str();
    return success();
  });
  return importFile(file, &context);
}

/// Checks that the import refused `file` exactly when a finding says so,
/// with that finding as its error when the reader, not the verifier,
/// refuses it.
static void checkRefusal(const CheckedFile &file, bool imported,
                         StringRef firstError) {
  const Finding *refusal = findImportRefusal(file);
  if (imported == (refusal != nullptr))
    fail("the import disagrees with the file layer's findings");
  // A bundle imports its program first: a refusal of its own may follow
  // the program's verifier errors.
  if (!refusal || refusal->import == ImportEffect::Verifier ||
      isa<BundleFile>(file))
    return;
  std::string expected = "at byte " + std::to_string(refusal->offset) + " (" +
                         refusal->path + "): " + refusal->message;
  if (firstError != expected) {
    llvm::errs() << "import: " << firstError << "\nfirst:  " << expected
                 << "\n";
    fail("the import's error is not its first refusing finding");
  }
}

/// The program ETDumps are joined to: kernels, a delegate, two methods
/// alike but for one instruction, and a second chain.
static constexpr const char *kProfiledProgram = R"mlir(
et.program @profiled {
  et.method @forward buffers [0, 128] {
    %x = et.tensor float [2, 8] dim_order [0, 1] mem(1, 0)
    %y = et.tensor float [2, 8] dim_order [0, 1] mem(1, 64)
    %alpha = et.int 1
    %add = et.operator "aten::add" overload "out"
    %xnn = et.delegate "XnnpackBackend"
        #et.blob<dense<7> : tensor<48xi8>, align 16>
        specs [#et.compile_spec<"threads" = "\04">]
    et.chain inputs(%x) outputs(%y) {
      et.kernel_call %add (%x, %x, %alpha, %y)
      et.call_delegate %xnn (%y, %x)
    }
    et.chain inputs() outputs() {
      et.kernel_call %add (%x, %x, %alpha, %y)
    }
    et.signature inputs(%x) outputs(%y)
  }
  et.method @decode buffers [0, 64] {
    %a = et.tensor long [4] dim_order [0] mem(1, 0)
    %b = et.tensor long [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs(%a) outputs(%b) {
      et.kernel_call %relu (%a, %b)
    }
    et.signature inputs(%a) outputs(%b)
  }
  et.method @decode_long buffers [0, 64] {
    %a = et.tensor long [4] dim_order [0] mem(1, 0)
    %b = et.tensor long [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs(%a) outputs(%b) {
      et.kernel_call %relu (%a, %b)
      et.kernel_call %relu (%b, %a)
    }
    et.signature inputs(%a) outputs(%b)
  }
}
)mlir";

/// kProfiledProgram, written and opened once.
static const ProgramFile &getProfiledProgram() {
  static const std::unique_ptr<ProgramFile> program = [] {
    MLIRContext context(MLIRContext::Threading::DISABLED);
    context.loadDialect<et::ETDialect>();
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kProfiledProgram, &context);
    static std::string bytes;
    llvm::raw_string_ostream os(bytes);
    if (!module || failed(translateToPTE(*module, os, {})))
      fail("the profiled program does not build");
    os.flush();
    std::unique_ptr<ProgramFile> file =
        ProgramFile::open(FileBuffer::view(bytes, "profiled.pte"));
    if (!file->isReadable())
      fail("the profiled program does not read");
    return file;
  }();
  return *program;
}

/// Reads an ETDump and joins it: it must finish, and not crash, on any.
/// The ETDump's own bytes stand in for a debug buffer: logged tensors'
/// offsets then land anywhere in them, or past them.
static void profileETDump(std::shared_ptr<const FileBuffer> buffer) {
  StringRef bytes = buffer->getBytes();
  std::unique_ptr<ETDumpFile> etdump = ETDumpFile::open(std::move(buffer));
  if (!etdump->isReadable())
    return;
  profile::ProfileOptions options;
  options.timeline = true;
  profile::ProfileReport alone = profile::analyzeProfile(*etdump, options);
  std::string text;
  FailureOr<profile::ProfileReport> joined =
      profile::analyzeProfile(*etdump, getProfiledProgram(), options,
                              /*debugBuffer=*/bytes, text);
  if (failed(joined))
    fail("joining an ETDump that reads failed");
  llvm::raw_string_ostream os(text);
  profile::printProfileText(*joined, os);
  profile::printProfileJSON(*joined, os);
  profile::printProfileJSON(alone, os);
  profile::printChromeTrace(*joined, os);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: imported resources alias `data`, which the
  // fuzzer frees after this call.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<et::ETDialect>();
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });

  StringRef bytes(reinterpret_cast<const char *>(data), size);
  bool dataFile = isDataFileBuffer(bytes);
  std::shared_ptr<const FileBuffer> buffer = FileBuffer::view(bytes, "input");
  if (isETDumpBuffer(bytes)) {
    profileETDump(std::move(buffer));
    return 0;
  }
  std::unique_ptr<CheckedFile> file = openFile(buffer, OpenAs::Any);

  // The memory analysis reads any program that reads (a bundle's too): it
  // must finish, and not crash, on every one.
  const ProgramFile *program = getProgramOf(*file);
  if (program && program->isReadable()) {
    std::string error;
    if (failed(memory::analyzeMemory(*program, {}, error)))
      fail("the memory analysis failed on a program that reads");
  }
  // The graph draws any program whose flatbuffer verifies, in every format.
  if (program && program->getProgram()) {
    std::string error;
    graph::GraphOptions options;
    options.memory = true;
    FailureOr<graph::GraphReport> drawn =
        graph::analyzeGraph(*program, options, error);
    if (failed(drawn))
      fail("the graph failed on a program whose flatbuffer verifies");
    llvm::raw_null_ostream sink;
    for (ReportFormat format : {ReportFormat::JSON, ReportFormat::HTML,
                                ReportFormat::ModelExplorer, ReportFormat::DOT})
      drawn->print(format, sink);
    graph::printModelExplorerNodeData(*drawn, sink);
    // A graph matched against itself is all unchanged, however hostile.
    for (const graph::MethodGraph &method : drawn->methods) {
      graphdiff::MethodGraphDiff self =
          graphdiff::diffMethodGraphs(method, method);
      if (!self.isUnchanged() || self.matching.size() != self.oldNodes.size())
        fail("a method's graph differs from itself");
    }
  }

  std::string firstError;
  OwningOpRef<ModuleOp> module = importCapturing(*file, context, firstError);
  checkRefusal(*file, bool(module), firstError);
  if (!module)
    return 0; // Rejected with a diagnostic: fine.
  if (failed(mlir::verify(*module)))
    fail("a file the layer finds sound imports as IR that does not verify");

  std::string written;
  llvm::raw_string_ostream os(written);
  auto write = dataFile ? translateToPTD : translateToPTE;
  if (failed(write(*module, os, {})))
    fail("a file that imports and verifies failed to export");
  os.flush();

  std::unique_ptr<CheckedFile> output =
      openFile(FileBuffer::view(written, "output"), OpenAs::Any);
  if (!importFile(*output, &context))
    fail("a file emit wrote failed to import");
  return 0;
}
