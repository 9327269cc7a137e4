//===- ReplayMain.cpp - Run the fuzz target on files ------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A main for the fuzz target that needs no libFuzzer: it runs every file
// named (directories are walked) through LLVMFuzzerTestOneInput once. CI
// runs the regression corpus this way in the sanitizer build.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!llvm::sys::fs::is_directory(argv[i])) {
      files.push_back(argv[i]);
      continue;
    }
    std::error_code error;
    for (llvm::sys::fs::recursive_directory_iterator it(argv[i], error), end;
         it != end && !error; it.increment(error))
      if (llvm::sys::fs::is_regular_file(it->path()))
        files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << "error: cannot read '" << file
                   << "': " << buffer.getError().message() << "\n";
      return 1;
    }
    // An exact-size heap copy, so that ASan sees reads past the end.
    std::vector<uint8_t> bytes((*buffer)->getBufferStart(),
                               (*buffer)->getBufferEnd());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  llvm::outs() << "replayed " << files.size() << " inputs\n";
  return files.empty() ? 1 : 0;
}
