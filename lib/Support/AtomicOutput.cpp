//===- AtomicOutput.cpp - All-or-nothing output files for tools -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/AtomicOutput.h"

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

  StringRef directory = llvm::sys::path::parent_path(destination);
  llvm::SmallString<128> model(directory.empty() ? "." : directory);
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(destination) +
                                     ".tmp-%%%%%%%%");
  int fd;
  if (std::error_code error =
          llvm::sys::fs::createUniqueFile(model, fd, temporary)) {
    llvm::errs() << "error: cannot write '" << destination
                 << "': cannot create a temporary file in '"
                 << (directory.empty() ? "." : directory)
                 << "': " << error.message() << "\n";
    setupFailed = true;
    return;
  }
  llvm::sys::fs::closeFile(fd);
  // The tool creates the file again. Opening an existing file with O_TRUNC,
  // as it would, marks the inode on ext4 to allocate and flush every
  // delayed block on close (auto_da_alloc): half a second per GiB written.
  // The name is random and hidden, so nothing else takes it meanwhile.
  llvm::sys::fs::remove(temporary);
  llvm::sys::RemoveFileOnSignal(temporary);
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
