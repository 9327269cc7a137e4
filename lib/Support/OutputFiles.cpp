//===- OutputFiles.cpp - Several output files, all or nothing ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/OutputFiles.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Support/TestingPause.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

using namespace emit;

bool emit::mayCommitOutput(std::string &error) {
  pauseForTesting(TestingStage::BeforeCommit);
  return checkSourcesUnchanged(error);
}

bool emit::createTemporaryBeside(StringRef destination,
                                 llvm::SmallString<128> &temporary,
                                 std::string &error) {
  StringRef directory = llvm::sys::path::parent_path(destination);
  llvm::SmallString<128> model(directory.empty() ? "." : directory);
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(destination) +
                                     ".tmp-%%%%%%%%");
  int fd;
  if (std::error_code code =
          llvm::sys::fs::createUniqueFile(model, fd, temporary)) {
    error = ("cannot create a temporary file in '" +
             (directory.empty() ? StringRef(".") : directory) +
             "': " + code.message())
                .str();
    return false;
  }
  llvm::sys::fs::closeFile(fd);
  // The writer creates the file again. Opening an existing file with
  // O_TRUNC, as it would, marks the inode on ext4 to allocate and flush
  // every delayed block on close (auto_da_alloc): half a second per GiB
  // written. The name is random and hidden, so nothing else takes it.
  llvm::sys::fs::remove(temporary);
  llvm::sys::RemoveFileOnSignal(temporary);
  return true;
}

OutputFiles::~OutputFiles() {
  for (File &file : files) {
    file.stream.reset();
    if (!file.temporary.empty()) {
      llvm::sys::fs::remove(file.temporary);
      llvm::sys::DontRemoveFileOnSignal(file.temporary);
    }
  }
}

llvm::raw_fd_ostream *OutputFiles::open(StringRef destination,
                                        std::string &error) {
  if (llvm::sys::fs::is_directory(destination)) {
    error = ("cannot write '" + destination + "': it is a directory").str();
    return nullptr;
  }
  File file;
  file.destination = destination.str();
  if (!createTemporaryBeside(destination, file.temporary, error)) {
    error = ("cannot write '" + destination + "': " + error).str();
    return nullptr;
  }
  std::error_code code;
  file.stream = std::make_unique<llvm::raw_fd_ostream>(file.temporary, code,
                                                       llvm::sys::fs::OF_None);
  if (code) {
    error = ("cannot write '" + destination + "': " + code.message()).str();
    llvm::sys::fs::remove(file.temporary);
    return nullptr;
  }
  files.push_back(std::move(file));
  return files.back().stream.get();
}

bool OutputFiles::commit(std::string &error) {
  if (!mayCommitOutput(error))
    return false;
  for (File &file : files) {
    file.stream->close();
    if (file.stream->has_error()) {
      error = "cannot write '" + file.destination +
              "': " + file.stream->error().message();
      file.stream->clear_error();
      return false;
    }
  }
  for (File &file : files) {
    if (std::error_code code =
            llvm::sys::fs::rename(file.temporary, file.destination)) {
      error = "cannot replace '" + file.destination + "': " + code.message();
      return false;
    }
    llvm::sys::DontRemoveFileOnSignal(file.temporary);
    file.temporary.clear();
  }
  return true;
}
