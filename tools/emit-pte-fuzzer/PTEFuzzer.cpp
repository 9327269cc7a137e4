//===- PTEFuzzer.cpp - Fuzz target for the .pte and .ptd importers -*- C++
//-*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Bytes in, import, verify, export to memory, import again. Beyond crashes,
// hangs and sanitizer reports, it checks three promises: what imports also
// exports, what emit writes imports again, and collecting every finding
// (emit-verify) agrees with the import, whose error is its first finding.
// Inputs whose identifier says data file (FT01) go through the .ptd importer
// and writer, the others through the .pte ones, so that mutations of either
// kind of seed stay with their reader.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;

static void fail(const char *what) {
  llvm::errs() << "emit-pte-fuzzer: " << what << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: imported resources alias `data`, which the
  // fuzzer frees after this call.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<emit::et::ETDialect>();
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });

  StringRef bytes(reinterpret_cast<const char *>(data), size);
  bool dataFile = emit::isDataFileBuffer(bytes);
  auto import = dataFile ? emit::translateFromPTD : emit::translateFromPTE;
  auto write = dataFile ? emit::translateToPTD : emit::translateToPTE;

  // The first error the import reports, as emit prints it.
  std::string firstError;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler first(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
        firstError = diag.str();
      return success();
    });
    module = import(llvm::MemoryBufferRef(bytes, "input"), &context, {});
  }

  // emit-verify's mode: every finding, and the same verdict. Its first
  // error is the import's, from the same check.
  emit::FindingList findings;
  emit::PTEReadOptions collecting;
  collecting.findings = &findings;
  OwningOpRef<ModuleOp> collected =
      import(llvm::MemoryBufferRef(bytes, "input"), &context, collecting);
  if (bool(collected) != bool(module) || findings.hasErrors() == bool(module))
    fail("collecting every finding disagrees with the import");
  if (!module) {
    const emit::Finding *first = nullptr;
    for (const emit::Finding &finding : findings.findings)
      if (!first && finding.severity == emit::Severity::Error)
        first = &finding;
    std::string expected = "at byte " + std::to_string(first->offset) + " (" +
                           first->path + "): " + first->message;
    // The finding may add what the runtime does with the defect.
    if (StringRef(firstError).starts_with("at byte ") &&
        !StringRef(expected).starts_with(firstError)) {
      llvm::errs() << "import: " << firstError << "\nfirst:  " << expected
                   << "\n";
      fail("the first finding is not the import's error");
    }
  }
  if (!module)
    return 0; // Rejected with a diagnostic: fine.

  std::string written;
  llvm::raw_string_ostream os(written);
  if (failed(write(*module, os, {})))
    fail("a file that imports and verifies failed to export");
  os.flush();

  if (!import(llvm::MemoryBufferRef(written, "output"), &context, {}))
    fail("a file emit wrote failed to import");
  return 0;
}
