//===- ImportFile.cpp - Import a .pte or .ptd file ------------ -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// How a file is imported, shared by every front end: its payloads referred
// to where they lie, or embedded, and the importer its identifier names.
//
//===----------------------------------------------------------------------===//

#include "emit/Target/PTE/PTE.h"

#include "emit/Support/PayloadFiles.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace emit;

FailureOr<PTEReadOptions>
emit::getReadOptionsFor(const llvm::MemoryBuffer &buffer, bool embed,
                        MLIRContext *context) {
  PTEReadOptions options;
  StringRef name = buffer.getBufferIdentifier();
  // Standard input and bytes in memory have no file to refer to.
  if (embed || name == "<stdin>" || name == "-" || name.starts_with("<"))
    return options;
  std::string error;
  FailureOr<FileReference> reference =
      PayloadFiles::get().describe(name, error);
  if (failed(reference))
    return emitError(UnknownLoc::get(context), error);
  options.payloadFile = *reference;
  return options;
}

OwningOpRef<ModuleOp> emit::importProgramFile(const llvm::MemoryBuffer &buffer,
                                              MLIRContext *context,
                                              ProgramFileKind kind,
                                              const PTEReadOptions &options) {
  // The import builds on one thread, and a multithreaded context would also
  // file every new attribute in a thread-local cache beside its shard: for
  // 100,000 calls, tens of MiB and a lock per attribute for nothing.
  // Restored afterwards, so that passes still run on the thread pool.
  bool wasMultithreaded = context->isMultithreadingEnabled();
  context->disableMultithreading();
  bool dataFile =
      kind == ProgramFileKind::DataFile ||
      (kind == ProgramFileKind::Either && isDataFileBuffer(buffer.getBuffer()));
  OwningOpRef<ModuleOp> module =
      dataFile ? translateFromPTD(buffer.getMemBufferRef(), context, options)
               : translateFromPTE(buffer.getMemBufferRef(), context, options);
  context->disableMultithreading(!wasMultithreaded);
  return module;
}
