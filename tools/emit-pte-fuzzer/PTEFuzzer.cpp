//===- PTEFuzzer.cpp - Fuzz target for the .pte and .ptd importers -*- C++
//-*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Bytes in, import, verify, export to memory, import again. Beyond crashes,
// hangs and sanitizer reports, it checks two promises: what imports also
// exports, and what emit writes imports again. Inputs whose identifier says
// data file (FT01) go through the .ptd importer and writer, the others
// through the .pte ones, so that mutations of either kind of seed stay
// with their reader.
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

  OwningOpRef<ModuleOp> module =
      import(llvm::MemoryBufferRef(bytes, "input"), &context, {});
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
