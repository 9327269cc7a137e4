//===- PayloadFiles.cpp - The files payload references name -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/PayloadFiles.h"
#include "emit/Support/ContentGroups.h"
#include "emit/Support/Hex.h"
#include "emit/Support/MappedMemory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace emit;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

struct PayloadFiles::OpenFile {
  std::shared_ptr<const FileBuffer> buffer;
  /// Computed when a reference first needs it (it reads samples).
  std::optional<FileFingerprint> fingerprint;

  const FileFingerprint &getFingerprint() {
    if (!fingerprint) {
      StringRef bytes = buffer->getBytes();
      fingerprint = FileFingerprint{
          bytes.size(),
          hashSampleOf(ArrayRef<char>(bytes.data(), bytes.size())).low};
    }
    return *fingerprint;
  }
};

PayloadFiles::PayloadFiles(StringRef baseDirectory) {
  if (!baseDirectory.empty())
    setBaseDirectory(baseDirectory);
}

PayloadFiles::~PayloadFiles() = default;

/// The real path of `file` (symbolic links resolved), or "" with the reason.
static std::string realPathOf(StringRef file, std::string &error) {
  llvm::SmallString<256> real;
  if (std::error_code code = fs::real_path(file, real)) {
    error = code.message();
    return std::string();
  }
  return real.str().str();
}

/// Whether `file` lies in `directory` or below it (both real paths).
static bool isUnder(StringRef file, StringRef directory) {
  if (!file.starts_with(directory))
    return false;
  StringRef rest = file.drop_front(directory.size());
  return directory.ends_with("/") || rest.starts_with("/");
}

void PayloadFiles::setBaseDirectory(StringRef directory) {
  std::lock_guard<std::mutex> lock(mutex);
  std::string error;
  baseDirectory = realPathOf(directory.empty() ? "." : directory, error);
  byReference.clear();
}

std::string emit::cannotRead(StringRef path, StringRef why) {
  return ("cannot read '" + path + "': " + why).str();
}

StringRef PayloadFiles::getBase(std::string &error) {
  if (baseDirectory.empty())
    baseDirectory = realPathOf(".", error);
  return baseDirectory;
}

bool PayloadFiles::allowFile(StringRef file, std::string &error) {
  std::string real = realPathOf(file, error);
  if (real.empty()) {
    error = cannotRead(file, error);
    return false;
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (!llvm::is_contained(allowed, real))
    allowed.push_back(real);
  return true;
}

std::string PayloadFiles::resolve(StringRef reference, std::string &error) {
  StringRef base = getBase(error);
  llvm::SmallString<256> full(reference);
  if (path::is_relative(full))
    full = (base + "/" + reference).str();
  std::string real = realPathOf(full, error);
  if (real.empty()) {
    error = "cannot read payload file '" + reference.str() + "' (" +
            full.str().str() + "): " + error;
    return std::string();
  }
  if (!isUnder(real, base) && !llvm::is_contained(allowed, real)) {
    // Name the real file when a link or `..` hides it.
    std::string where = real == full.str() ? std::string(" is")
                                           : " resolves to '" + real + "',";
    error = "payload file '" + reference.str() + "'" + where + " outside '" +
            base.str() +
            "' (the IR file's directory); only files under it, or given "
            "with --payload-file, may be named";
    return std::string();
  }
  return real;
}

PayloadFiles::OpenFile *
PayloadFiles::openReal(StringRef realPath, StringRef name, std::string &error) {
  std::unique_ptr<OpenFile> &slot = files[realPath];
  if (slot)
    return slot.get();
  std::shared_ptr<const FileBuffer> buffer =
      FileBuffer::open(realPath, error, name);
  if (!buffer) {
    files.erase(realPath);
    return nullptr;
  }
  slot = std::make_unique<OpenFile>();
  slot->buffer = std::move(buffer);
  return slot.get();
}

std::shared_ptr<const FileBuffer> PayloadFiles::open(StringRef file,
                                                     std::string &error) {
  std::string real = realPathOf(file, error);
  if (real.empty())
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (!llvm::is_contained(allowed, real))
    allowed.push_back(real);
  OpenFile *open = openReal(real, file, error);
  return open ? open->buffer : nullptr;
}

FailureOr<FileReference> PayloadFiles::describe(StringRef file,
                                                std::string &error) {
  std::string real = realPathOf(file, error);
  if (real.empty()) {
    error = cannotRead(file, error);
    return failure();
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (!llvm::is_contained(allowed, real))
    allowed.push_back(real);
  OpenFile *open = openReal(real, file, error);
  if (!open) {
    error = "cannot read payload file '" + real + "': " + error;
    return failure();
  }
  StringRef base = getBase(error);
  std::string name = real;
  if (isUnder(real, base))
    name = StringRef(real).drop_front(base.size()).ltrim('/').str();
  return FileReference{name, open->getFingerprint()};
}

FailureOr<ArrayRef<char>>
PayloadFiles::getBytes(StringRef reference, uint64_t offset, uint64_t size,
                       const FileFingerprint &expected, std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  OpenFile *&file = byReference[reference];
  if (!file) {
    std::string real = resolve(reference, error);
    if (!real.empty()) {
      file = openReal(real, real, error);
      if (!file)
        error = "cannot read payload file '" + real + "': " + error;
    }
    if (!file) {
      byReference.erase(reference);
      return failure();
    }
  }
  const FileFingerprint &found = file->getFingerprint();
  if (!(found == expected)) {
    error = "payload file '" + reference.str() +
            "' changed since the IR was written: it has " +
            std::to_string(found.size) + " bytes and sample 0x" +
            hex16(found.sample) + ", the IR recorded " +
            std::to_string(expected.size) + " bytes and sample 0x" +
            hex16(expected.sample);
    return failure();
  }
  if (offset > found.size || size > found.size - offset) {
    error = "bytes [" + std::to_string(offset) + ", " +
            std::to_string(offset + size) +
            ") are past the end of payload "
            "file '" +
            reference.str() + "' (" + std::to_string(found.size) + " bytes)";
    return failure();
  }
  StringRef bytes = file->buffer->getBytes();
  return ArrayRef<char>(bytes.data() + offset, size);
}

static llvm::cl::list<std::string> &getPayloadFileFlag() {
  static llvm::cl::list<std::string> files(
      "payload-file",
      llvm::cl::desc("A file the IR's payload references (#et.file) may name "
                     "wherever it lies (repeatable); without it, only files "
                     "under the IR file's directory may be named"),
      llvm::cl::value_desc("file"));
  return files;
}

void emit::registerPayloadFileOptions() { getPayloadFileFlag(); }

bool emit::applyPayloadFileOptions(PayloadFiles &files, StringRef irFile,
                                   std::string &error) {
  files.setBaseDirectory(irFile == "-" ? StringRef(".")
                                       : path::parent_path(irFile));
  for (const std::string &file : getPayloadFileFlag())
    if (!files.allowFile(file, error))
      return false;
  return true;
}
