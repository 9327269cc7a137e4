//===- Version.cpp - Which emit this is -------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;

#ifndef EMIT_VERSION
#error "EMIT_VERSION comes from the root CMakeLists.txt's project()"
#endif

StringRef emit::getVersion() { return EMIT_VERSION; }

void emit::setVersionPrinter() {
  llvm::cl::SetVersionPrinter([](raw_ostream &os) {
    os << "emit " << getVersion() << " (MLIR " << LLVM_VERSION_STRING << ")\n";
  });
}
