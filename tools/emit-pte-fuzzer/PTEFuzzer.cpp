//===- PTEFuzzer.cpp - Fuzz target for the .pte and .ptd importers -*- C++
//-*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Bytes in, import, verify, export to memory, import again. Beyond crashes,
// hangs and sanitizer reports, it checks four promises: what imports also
// exports, what emit writes imports again, collecting every finding
// (emit-verify) agrees with the import, whose error is its first finding,
// and reading a .pte without building IR finds exactly what reading it
// with IR does.
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
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;

static void fail(const char *what) {
  llvm::errs() << "emit-pte-fuzzer: " << what << "\n";
  std::abort();
}

/// Whether the import refuses a file for `finding`. emit-verify also reports
/// what the import takes as it is (a planned buffer no device can
/// allocate), and warns of header fields the runtime ignores, which the
/// import refuses (it cannot represent them exactly).
static bool refusesImport(const emit::Finding &finding) {
  emit::Check check = finding.check->id;
  if (finding.severity == emit::Severity::Warning)
    return check == emit::Check::SegmentDataEnd ||
           check == emit::Check::ProgramSizeAlignment;
  return check != emit::Check::PlannedBufferSize;
}

static bool hasImportErrors(const emit::FindingList &list) {
  return llvm::any_of(list.findings, refusesImport);
}

/// Whether `finding` is one of the dialect's invariants, which collecting
/// checks on each table as it is read.
static bool isDialectInvariant(const emit::Finding &finding) {
  return llvm::is_contained({emit::Check::ProgramInvariant,
                             emit::Check::ReservedBufferSize,
                             emit::Check::ListInvariant},
                            finding.check->id);
}

/// Every finding of `list`, a line each.
static std::string describe(const emit::FindingList &list) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const emit::Finding &finding : list.findings)
    os << int(finding.severity) << " " << finding.check->name << " "
       << finding.offset << " " << finding.path << ": " << finding.text()
       << " (" << int(finding.runtime) << ")\n";
  return text;
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
  // Collecting builds a module past the fields the runtime ignores.
  bool ignoredOnly =
      llvm::none_of(findings.findings, [](const emit::Finding &finding) {
        return finding.severity == emit::Severity::Error &&
               refusesImport(finding);
      });
  if (bool(collected) !=
          (bool(module) || (hasImportErrors(findings) && ignoredOnly)) ||
      hasImportErrors(findings) == bool(module))
    fail("collecting every finding disagrees with the import");
  // Reading without building IR finds the same, in the same order.
  if (!dataFile) {
    emit::FindingList checked;
    emit::PTEReadOptions checkOnly = collecting;
    checkOnly.findings = &checked;
    checkOnly.checkOnly = true;
    if (import(llvm::MemoryBufferRef(bytes, "input"), &context, checkOnly))
      fail("a check-only import built a module");
    if (describe(checked) != describe(findings)) {
      llvm::errs() << "with IR:\n"
                   << describe(findings) << "check only:\n"
                   << describe(checked);
      fail("checking without IR finds something else than with IR");
    }
  }
  if (!module) {
    const emit::Finding *first = nullptr;
    // The import checks the dialect's invariants by verifying the module,
    // after reading every table: its error is the first of the readers'.
    for (const emit::Finding &finding : findings.findings)
      if (!first && refusesImport(finding) && !isDialectInvariant(finding))
        first = &finding;
    if (!first)
      return 0; // Only invariants: the verifier's first error, checked above.
    std::string expected = "at byte " + std::to_string(first->offset) + " (" +
                           first->path + "): " + first->text();
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
  if (!collected)
    fail("collecting every finding refused a file the import takes");

  std::string written;
  llvm::raw_string_ostream os(written);
  if (failed(write(*module, os, {})))
    fail("a file that imports and verifies failed to export");
  os.flush();

  if (!import(llvm::MemoryBufferRef(written, "output"), &context, {}))
    fail("a file emit wrote failed to import");
  return 0;
}
