//===- AtomicOutput.cpp - All-or-nothing output files for tools -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/AtomicOutput.h"
#include "emit/Support/OutputFiles.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;

/// The temporary file of the running tool, removed if it dies of a fatal
/// error (an I/O failure on the output stream, for example).
static std::string *activeTemporary = nullptr;

static void removeTemporaryOnFatalError(void *, const char *reason, bool) {
  llvm::errs() << "error: " << reason << "\n";
  if (activeTemporary)
    llvm::sys::fs::remove(*activeTemporary);
}

AtomicOutput::AtomicOutput(int &argc, char **&argv) {
  arguments.assign(argv, argv + argc);
  int valueIndex = -1;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--")
      break;
    if ((arg == "-o" || arg == "--o") && i + 1 < argc) {
      valueIndex = i + 1;
      destination = argv[i + 1];
      ++i;
    } else if (arg.consume_front("-o=") || arg.consume_front("--o=")) {
      valueIndex = i;
      destination = arg.str();
    }
  }
  if (valueIndex < 0 || destination.empty() || destination == "-")
    return;

  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(destination, status)) {
    if (llvm::sys::fs::is_directory(status)) {
      llvm::errs() << "error: cannot write '" << destination
                   << "': it is a directory\n";
      setupFailed = true;
      return;
    }
    // A device or pipe is written in place: there is nothing to replace.
    if (!llvm::sys::fs::is_regular_file(status)) {
      destination.clear();
      return;
    }
  }

  std::string error;
  if (!createTemporaryBeside(destination, temporary, error)) {
    llvm::errs() << "error: cannot write '" << destination << "': " << error
                 << "\n";
    setupFailed = true;
    return;
  }
  activeTemporary = new std::string(temporary.str());
  llvm::install_fatal_error_handler(removeTemporaryOnFatalError);

  // Point the tool at the temporary file.
  if (StringRef(argv[valueIndex]).starts_with("-"))
    storage.push_back(
        (StringRef(argv[valueIndex]).starts_with("--o=") ? "--o=" : "-o=") +
        std::string(temporary.str()));
  else
    storage.push_back(std::string(temporary.str()));
  arguments[valueIndex] = storage.back().data();
  argv = arguments.data();
}

AtomicOutput::~AtomicOutput() {
  if (!temporary.empty()) {
    llvm::sys::fs::remove(temporary);
    llvm::sys::DontRemoveFileOnSignal(temporary);
  }
  if (activeTemporary) {
    llvm::remove_fatal_error_handler();
    delete activeTemporary;
    activeTemporary = nullptr;
  }
}

int AtomicOutput::finish(int exitCode) {
  std::string error;
  if (exitCode == 0 && !mayCommitOutput(error)) {
    llvm::errs() << "error: " << error << "; "
                 << (temporary.empty() ? "the output is not valid"
                                       : "nothing was written")
                 << "\n";
    exitCode = 1;
  }
  if (temporary.empty())
    return exitCode;
  if (exitCode == 0) {
    if (std::error_code error = llvm::sys::fs::rename(temporary, destination)) {
      llvm::errs() << "error: cannot replace '" << destination
                   << "': " << error.message() << "\n";
      exitCode = 1;
    } else {
      llvm::sys::DontRemoveFileOnSignal(temporary);
      temporary.clear();
    }
  }
  return exitCode;
}
