//===- CHeader.h - Programs as a C header for embedded builds ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One or several programs written as a C header an embedded build includes:
// each program's bytes as a `const uint8_t` array placed in a section and
// aligned as its segments need (the largest power of two, at least 16, that
// every segment's start in the file is a multiple of, so each keeps its
// alignment in memory), and as macros the memory each method needs: its
// planned buffers' bytes per memory id, the bytes load_method takes from
// the method allocator on 64-bit and 32-bit targets (and the one this
// build's pointer width picks), and the most any method needs. Nothing at
// build time needs Python.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_MEMORY_CHEADER_H
#define EMIT_MEMORY_CHEADER_H

#include "emit/Support/LLVM.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace emit {
class ProgramModel;

namespace memory {

struct CHeaderOptions {
  /// The section the arrays go to.
  std::string section = ".rodata.executorch_pte";
  /// The include guard; empty: from the first program's name.
  std::string guard;
};

/// A program to write: its model (of a readable program) and the C name
/// its array and macros take (`model`: `model_pte`, `MODEL_...`).
struct CHeaderProgram {
  const ProgramModel *model;
  std::string name;
};

/// The C name a file at `path` takes: its stem, lower case, every other
/// character than a letter or digit an underscore, `_` first when it would
/// start with a digit. A method's macros take its name so.
std::string getCName(StringRef path);

/// The alignment the bytes of `model`'s file need in memory.
uint64_t getArrayAlignment(const ProgramModel &model);

/// Fails, with the reason in `error`, when two of `programs` take the same
/// C name.
LogicalResult checkCHeaderNames(ArrayRef<CHeaderProgram> programs,
                                std::string &error);

/// Writes `programs`, whose names checkCHeaderNames accepts, as one header.
void writeCHeader(ArrayRef<CHeaderProgram> programs,
                  const CHeaderOptions &options, raw_ostream &os);

} // namespace memory
} // namespace emit

#endif // EMIT_MEMORY_CHEADER_H
