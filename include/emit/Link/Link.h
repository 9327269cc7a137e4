//===- Link.h - Link ExecuTorch programs and data files ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What emit-link does to the IR, as llvm-link's library is to llvm-link:
// merge separately exported programs into one, and gather the named data of
// programs and their data files into one data file they all load with.
// Sharing the bytes that are then equal is the dedup pass's job; writing
// the files is the translations'.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LINK_LINK_H
#define EMIT_LINK_LINK_H

#include "emit/Dialect/ET/IR/ETOps.h"

#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <string>

namespace emit::link {

/// A program to link, and the file it came from (named in messages).
struct Input {
  std::string path;
  et::ProgramOp program;
};

/// A data file to link, and the file it came from.
struct DataInput {
  std::string path;
  et::DataFileOp dataFile;
};

/// Links programs and data files in one module. One linker keeps the keys
/// it has gathered into a data file, so that every key of every input is
/// checked against every other.
class Linker {
public:
  Linker();
  ~Linker();

  /// Moves the methods and data of `inputs` into one new program named
  /// `name` at the end of `module`, and erases the input programs:
  ///
  /// - every method, keeping its name (with `prefixMethods`,
  ///   `<file>_<name>`, file being the input's base name, `<file>_<n>` for
  ///   a second input of that name); a name two inputs have is an error
  ///   naming the method and both files;
  /// - every blob, renamed `<file>_<name>`;
  /// - the constant segments, one after the other as one constant segment,
  ///   each program's tensors pointing at their entries in it;
  /// - the mutable data segments, in order;
  /// - the named data: a key two inputs hold with the same bytes once, with
  ///   different bytes an error naming the key, both files and both sizes.
  ///
  /// Delegate entries, operators and values move with their methods: every
  /// call keeps its backend id, compile specs and payload.
  FailureOr<et::ProgramOp> mergePrograms(mlir::ModuleOp module,
                                         ArrayRef<Input> inputs, StringRef name,
                                         bool prefixMethods);

  /// Moves every named datum of `programs` and of `dataFiles` into
  /// `target`, each key once (a key two of them hold with different bytes
  /// or layouts is an error naming the key, both files and both sizes), and
  /// erases `dataFiles` and the program blobs only named data used. Each
  /// program then finds every key it had in `target`.
  LogicalResult gatherNamedData(ArrayRef<Input> programs,
                                ArrayRef<DataInput> dataFiles,
                                et::DataFileOp target);

  /// Moves the data of every constant tensor of `input` that has a fully
  /// qualified name and at least `minBytes` bytes into `target` under that
  /// name, with its layout, and marks the tensor external, as ExecuTorch's
  /// external-constants export does. The bytes stay in the program's
  /// constant segment until it is compacted (the dedup pass's
  /// `compact-segments`).
  LogicalResult externalizeConstants(const Input &input, et::DataFileOp target,
                                     uint64_t minBytes);

  /// Moves into `input`'s program the data of `dataFiles` it loads with,
  /// and erases them: the data of every external constant tensor goes to
  /// the end of the constant segment (the tensor keeps its fully qualified
  /// name, each key's bytes are stored once), and every other key becomes
  /// the program's named data. The program then loads with no data file.
  /// A key a tensor needs that no data file holds, or a key two data files
  /// hold with different bytes, is an error naming it.
  LogicalResult internalizeData(const Input &input,
                                ArrayRef<DataInput> dataFiles);

  /// The size in bytes of a data file as written.
  using DataFileSize = function_ref<FailureOr<uint64_t>(et::DataFileOp)>;

  /// Splits `dataFile` into data files of at most `maxBytes` bytes each, as
  /// `sizeOf` measures them when written with segments aligned to at least
  /// `segmentAlignment`, named `<name>_<k>` (k from 1) and placed after it
  /// in order; erases it and returns them. Keys keep their order and a blob
  /// stays in one file with every key that names it; a blob whose file
  /// alone is larger than `maxBytes` gets a file of its own.
  FailureOr<SmallVector<et::DataFileOp>>
  splitDataFile(et::DataFileOp dataFile, uint64_t maxBytes,
                uint64_t segmentAlignment, DataFileSize sizeOf);

  /// Where what the linker moved came from, so that a report can say what
  /// each input saves.
  struct Origins {
    /// The input file of every blob the linker renamed or copied, by the
    /// program or data file that now holds it and the blob's name.
    std::map<std::pair<std::string, std::string>, std::string> blobs;
    /// The input file of blob `blob` of `container`, or "" when unknown.
    StringRef blobOrigin(StringRef container, StringRef blob) const {
      auto it = blobs.find({container.str(), blob.str()});
      return it == blobs.end() ? StringRef() : StringRef(it->second);
    }
    /// Per input file, the merged constant segment's entries that were its
    /// own: [first, last].
    llvm::StringMap<std::pair<unsigned, unsigned>> constantEntries;
    /// Per input file, the bytes of keys another input already held with
    /// the same bytes (stored once by the linker itself).
    llvm::StringMap<uint64_t> sharedKeyBytes;
  };
  const Origins &getOrigins() const { return origins; }

  /// Keys and where their bytes came from.
  struct KeyTable;

private:
  /// The keys gathered into a data file, with where each came from.
  std::unique_ptr<KeyTable> gathered;
  Origins origins;
};

} // namespace emit::link

#endif // EMIT_LINK_LINK_H
