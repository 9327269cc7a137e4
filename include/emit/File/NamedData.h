//===- NamedData.h - Where the runtime finds named data keys ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Where a named data key's bytes are when a program runs with some data
// files: one index over the program's `named_data` and the data files'
// (`.ptd`), built once, read as the runtime merges them
// (ptd-format.md, section 6). The data files are one map, the first to
// hold a key its owner (the runtime refuses a key two of them hold); a
// backend asks that map first and the program's only where it lacks the
// key; an external tensor asks the data files alone. Views ask this, never
// the tables.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_NAMEDDATA_H
#define EMIT_FILE_NAMEDDATA_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace emit {
class CheckedFile;
class DataFile;
class ProgramFile;

/// Where one key's bytes are.
struct NamedDataSource {
  /// The file: `program`, or a data file's name.
  StringRef file;
  /// Its segment's bytes; none when the segment index is past the table.
  std::optional<uint64_t> bytes;
  /// Its bytes, where they lie whole in its file.
  std::optional<ArrayRef<char>> contents;
};

/// Every named data key of a program and the data files it runs with.
class NamedDataIndex {
public:
  /// The index of `program`'s keys and those of the data files among
  /// `files` (other files are skipped), in the order given.
  NamedDataIndex(const ProgramFile &program,
                 ArrayRef<const CheckedFile *> files);

  /// The files given beside the program, by name (data files or not).
  ArrayRef<std::string> getDataFiles() const { return dataFiles; }
  /// Where a backend finds `key`: the data files first, then the program;
  /// null when neither holds it.
  const NamedDataSource *lookupForBackend(StringRef key) const;
  /// Where the runtime finds an external tensor's `key`: the data files
  /// only; null when none holds it.
  const NamedDataSource *lookupForTensor(StringRef key) const;

private:
  void addProgram(const ProgramFile &program);
  void addDataFile(const DataFile &file);

  llvm::StringMap<NamedDataSource> external;
  llvm::StringMap<NamedDataSource> inProgram;
  std::vector<std::string> dataFiles;
};

/// How many of `file`'s keys have no tensor layout (a backend's data, not
/// a tensor's); 0 for a file in 0.6's layout or one that did not verify.
size_t countKeysWithoutLayout(const DataFile &file);

} // namespace emit

#endif // EMIT_FILE_NAMEDDATA_H
