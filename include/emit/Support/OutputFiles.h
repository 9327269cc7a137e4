//===- OutputFiles.h - Several output files, all or nothing -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A tool that writes several files (emit-link: programs and a data file
// they load with) must not leave a partial set: each file goes to a
// temporary file beside its destination, and only when every one is
// written are they renamed over their destinations.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_OUTPUTFILES_H
#define EMIT_SUPPORT_OUTPUTFILES_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace emit {

/// Creates a new, hidden temporary file name beside `destination` (in its
/// directory, so that a rename replaces it atomically) and reserves it. On
/// failure returns false with the reason in `error`.
bool createTemporaryBeside(StringRef destination,
                           llvm::SmallString<128> &temporary,
                           std::string &error);

/// Whether output written so far may be kept: every input it was built
/// from is unchanged (checkSourcesUnchanged). Otherwise returns false with
/// the reason in `error`. Every tool calls it before it commits output.
bool mayCommitOutput(std::string &error);

/// Output files written all or nothing.
class OutputFiles {
public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles &) = delete;
  ~OutputFiles();

  /// A stream to the temporary file of `destination`, or null with the
  /// reason in `error`.
  llvm::raw_fd_ostream *open(StringRef destination, std::string &error);

  /// Closes every file and, if mayCommitOutput, renames each over its
  /// destination. On failure (a write error, a changed input, a rename)
  /// returns false with the reason in `error`
  /// and removes the temporary files not yet renamed.
  bool commit(std::string &error);

private:
  struct File {
    std::string destination;
    llvm::SmallString<128> temporary;
    std::unique_ptr<llvm::raw_fd_ostream> stream;
  };
  std::vector<File> files;
};

} // namespace emit

#endif // EMIT_SUPPORT_OUTPUTFILES_H
