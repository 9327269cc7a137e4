//===- LinkFiles.h - emit-link on files -------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What emit-link does, from input files to output files, for the tool and
// the C API: import the programs and data files, link them (emit/Link),
// share equal data (the dedup pipeline), place the data (internalize, split
// into files of a bounded size, align segments), and write every output or
// none.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_PIPELINE_LINKFILES_H
#define EMIT_PIPELINE_LINKFILES_H

#include "emit/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace emit {

/// emit-link's options; each is the command-line option of its name.
struct LinkFilesOptions {
  std::vector<std::string> inputs;    // Programs (.pte).
  std::vector<std::string> dataFiles; // --data
  std::string output;                 // -o: one merged program.
  std::string outDir;                 // --out-dir: each program on its own.
  std::string externalData;           // --external-data
  /// --externalize-constants: the least size of a constant to move.
  std::optional<uint64_t> externalizeConstants;
  bool internalize = false;                 // --internalize
  std::optional<uint64_t> maxDataFileBytes; // --max-data-file-bytes
  std::optional<uint64_t> segmentAlignment; // --segment-alignment
  bool prefixMethods = false;               // --prefix-methods
  /// --report: a file for the JSON report, "-" to return it only.
  std::string reportPath;
};

/// The paths `linkFiles` writes the data files to: --external-data, or
/// with --max-data-file-bytes `DIR/NAME-<k>.ptd` for `count` files.
std::vector<std::string> getDataFilePaths(const LinkFilesOptions &options,
                                          size_t count);

/// Links the files `options` name and writes every output, all or none;
/// errors are reported through `context`. With a report path, the report
/// (docs/DedupReport.md, per input) is also returned in `report`.
LogicalResult linkFiles(const LinkFilesOptions &options,
                        mlir::MLIRContext &context, std::string &report);

} // namespace emit

#endif // EMIT_PIPELINE_LINKFILES_H
