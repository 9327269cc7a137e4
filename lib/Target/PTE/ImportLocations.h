//===- ImportLocations.h - Where imported ops come from ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every op an import builds is located in its file: a table at
// `"path"(file:0:<byte offset>)`. The entries of the tables a program has
// many of (segments, inline data, values, delegates, instructions) share
// their table's location, one for all of them, since an op's position
// already says which entry it is and a location each is a quarter of a
// large import; with entry locations each has a plain `file:0:<offset>` of
// its own, and a verifier's error on it names its entry's path.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_TARGET_PTE_IMPORTLOCATIONS_H
#define EMIT_LIB_TARGET_PTE_IMPORTLOCATIONS_H

#include "emit/File/ProgramFile.h"
#include "emit/Support/LLVM.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace emit {

/// An entry of a table of which a program has many.
struct TablePath {
  enum Kind : uint8_t {
    Segment,
    InlineData,
    Value,
    Delegate,
    Instruction
  } kind;
  uint32_t plan = 0, chain = 0, index = 0;
};

/// The locations of one program file's import.
class ImportLocations {
public:
  ImportLocations(const ProgramFile &file, MLIRContext *context,
                  bool entryLocations);

  /// The file's own location, `file:0:0`.
  Location getFileLoc() const { return fileLoc; }
  /// The location of what was read from `table`: its path, at the file
  /// position `file:0:<byte offset>`.
  Location locFor(const Twine &where, const void *table = nullptr);
  /// The location of the entry `path` read from `table`.
  Location entryLocFor(const void *table, TablePath path);
  /// Records `execution_plan[i] 'name'`, which entries' paths start with.
  void setPlanPath(unsigned plan, StringRef path);
  /// Verifies `module`, each error naming its table or entry.
  LogicalResult verify(ModuleOp module);

private:
  /// The path of the first entry recorded at `column` of a plain location.
  std::optional<std::string> pathAt(unsigned column);
  /// The path of `path`'s entry, or of its whole table.
  std::string spell(const TablePath &path, bool entry) const;
  /// The flatbuffer vector that holds `path`'s entry.
  const void *tableOf(const TablePath &path) const;
  /// The table path `loc` names, if it is a location in this file.
  std::optional<std::string> pathOf(Location loc);

  const ProgramFile &file;
  MLIRContext *context;
  bool entryLocations;
  mlir::StringAttr fileNameAttr; // Uniqued once, not once per location.
  Location fileLoc;
  /// Plain locations' entries, by file offset (as a location column), in
  /// creation order; sorted when first looked up.
  std::vector<std::pair<unsigned, TablePath>> plainPaths;
  bool plainPathsSorted = false;
  /// The location of each table whose entries are located at it.
  llvm::DenseMap<const void *, Location> tableLocs;
  /// `execution_plan[i] 'name'`, by plan index.
  std::vector<std::string> planPaths;
};

} // namespace emit

#endif // EMIT_LIB_TARGET_PTE_IMPORTLOCATIONS_H
