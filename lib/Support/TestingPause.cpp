//===- TestingPause.cpp - Let tests act between a tool's stages -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/TestingPause.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>

using namespace emit;

static llvm::cl::opt<std::string> testingPause(
    "testing-pause", llvm::cl::Hidden,
    llvm::cl::desc("Testing only: at STAGE (inputs-read, before-commit), "
                   "create FILE and wait until it is removed"),
    llvm::cl::value_desc("stage:file"));

static StringRef nameOf(TestingStage stage) {
  switch (stage) {
  case TestingStage::InputsRead:
    return "inputs-read";
  case TestingStage::BeforeCommit:
    return "before-commit";
  }
  return "";
}

void emit::pauseForTesting(TestingStage stage) {
  auto [name, file] = StringRef(testingPause).split(':');
  if (file.empty() || name != nameOf(stage))
    return;
  std::error_code code;
  { llvm::raw_fd_ostream create(file, code); }
  for (int waited = 0; !code && waited < 6000 && llvm::sys::fs::exists(file);
       ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}
