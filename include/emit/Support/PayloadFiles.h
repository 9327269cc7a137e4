//===- PayloadFiles.h - The files payload references name -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// IR imported from a .pte or .ptd does not carry its payloads: each is a
// reference to a byte range of the file it came from (`#et.file`). A job
// (a tool's run, a C API call) resolves such references through a
// PayloadFiles of its own, which it hands to its MLIRContext
// (et::setPayloadFiles): the files it opened, each mapped once and
// registered (so that its bytes are read with pread or copied by the
// kernel, never through the mapping), checked against the fingerprint a
// reference recorded, and recorded as a source, so that no output is kept
// if one changes while the job runs. Every file the job reads is opened
// here, so that the importer, the IR and the writer share one mapping.
//
// Which files a reference may name is one rule: a relative path resolves
// against the base directory (the directory of the IR file, or the working
// directory for IR on standard input), and the file it names, symbolic links
// resolved, must lie under that directory or be a file the user gave on the
// command line (allowFile). A reference cannot reach a file elsewhere, such
// as `../../etc/passwd` or an absolute path the user never named.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_PAYLOADFILES_H
#define EMIT_SUPPORT_PAYLOADFILES_H

#include "emit/Support/FileBuffer.h"
#include "emit/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace emit {

/// What a reference records of its file to notice a change: the file's
/// size and a hash of a sample of its bytes (hashSampleOf).
struct FileFingerprint {
  uint64_t size = 0;
  uint64_t sample = 0;
  bool operator==(const FileFingerprint &other) const {
    return size == other.size && sample == other.sample;
  }
};

/// How a file is named in IR, and its fingerprint.
struct FileReference {
  std::string path;
  FileFingerprint fingerprint;
};

/// What every tool says of a file it cannot open: "cannot read 'PATH':
/// WHY".
std::string cannotRead(StringRef path, StringRef why);

/// The files one job reads and its payload references name. Thread-safe.
class PayloadFiles {
public:
  /// Relative references resolve against `baseDirectory` (default: the
  /// working directory).
  explicit PayloadFiles(StringRef baseDirectory = "");
  ~PayloadFiles();

  /// Relative references resolve against `directory`, and files under it
  /// may be named.
  void setBaseDirectory(StringRef directory);
  /// Lets references name the file at `path` wherever it lies (a file the
  /// user gave on the command line). Fails with a message in `error` when
  /// it cannot be found.
  bool allowFile(StringRef path, std::string &error);

  /// The file at `path`, which the user named: mapped on first use and
  /// shared after, and allowed. Fails with a message in `error` (`cannot
  /// read 'path': reason`).
  std::shared_ptr<const FileBuffer> open(StringRef path, std::string &error);

  /// How IR that resolves against the base directory names the file at
  /// `path` (relative to the base when under it, absolute otherwise), and
  /// its fingerprint; opens and allows the file. Fails with a message in
  /// `error`.
  FailureOr<FileReference> describe(StringRef path, std::string &error);

  /// The bytes [offset, offset + size) of the file `reference` names, a view
  /// of its mapping, which lives as long as this. Fails with a message in
  /// `error` when the file may not be named, cannot be read, does not match
  /// `expected` or is too short.
  FailureOr<ArrayRef<char>> getBytes(StringRef reference, uint64_t offset,
                                     uint64_t size,
                                     const FileFingerprint &expected,
                                     std::string &error);

private:
  struct OpenFile;

  /// The real path of `reference` if it may be named, else "" with the
  /// reason in `error`. Called with `mutex` held.
  std::string resolve(StringRef reference, std::string &error);
  /// The file at `realPath`, mapped on first use. Called with `mutex` held.
  OpenFile *openReal(StringRef realPath, StringRef name, std::string &error);
  /// The base directory, found on first use. Called with `mutex` held.
  StringRef getBase(std::string &error);

  std::mutex mutex;
  std::string baseDirectory;        // A real path; "" until first needed.
  std::vector<std::string> allowed; // Real paths.
  llvm::StringMap<std::unique_ptr<OpenFile>> files; // By real path.
  /// The open file of each reference that resolved, so that a reference is
  /// resolved (a path walk and a readlink per component) once, not once per
  /// payload. Cleared when the base directory changes.
  llvm::StringMap<OpenFile *> byReference;
};

/// Registers `--payload-file=FILE` (repeatable) with the command line of
/// the tool that calls it: a file references may name wherever it lies.
void registerPayloadFileOptions();

/// Applies the command line to `files` for IR read from or written to
/// `irFile` ("-": standard input or output): relative references resolve
/// against its directory (the working directory for "-"), and each
/// `--payload-file` may be named. Fails with a message in `error`.
bool applyPayloadFileOptions(PayloadFiles &files, StringRef irFile,
                             std::string &error);

} // namespace emit

#endif // EMIT_SUPPORT_PAYLOADFILES_H
