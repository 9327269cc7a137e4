//===- TranslateRegistration.cpp - Register the .pte translations -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Binds emit-translate's flags to the options of the translation API.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace emit;

namespace {
/// Flags of `--to-pte`, created on registration so that tools that do not
/// register the translation do not show them.
struct ToPTEFlags {
  llvm::cl::opt<uint64_t> segmentAlignment{
      "pte-segment-alignment",
      llvm::cl::desc("Alignment of the segment base and of every segment in "
                     "a written .pte (a power of two; default 128, as "
                     "ExecuTorch)"),
      llvm::cl::init(PTEWriteOptions().segmentAlignment)};

  PTEWriteOptions getOptions() const {
    PTEWriteOptions options;
    options.segmentAlignment = segmentAlignment;
    return options;
  }
};
} // namespace

void emit::registerFromPTETranslation() {
  TranslateToMLIRRegistration registration(
      "from-pte", "import an ExecuTorch .pte file as an et.program",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        return translateFromPTE(buffer->getMemBufferRef(), context);
      },
      [](DialectRegistry &registry) { registry.insert<et::ETDialect>(); });
}

void emit::registerToPTETranslation() {
  static ToPTEFlags flags;
  TranslateFromMLIRRegistration registration(
      "to-pte", "write an et.program as an ExecuTorch .pte file",
      [](Operation *op, raw_ostream &os) {
        return translateToPTE(op, os, flags.getOptions());
      },
      [](DialectRegistry &registry) { registry.insert<et::ETDialect>(); });
}
