//===- KernelLibraries.h - What each kernel library registers ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The kernel libraries of every ExecuTorch release as data: which operators
// `portable`, `optimized`, `quantized`, `cortex_m`, `llm` (and the prim ops
// the runtime registers itself) register at each release, read from that
// release's own files by scripts/kernels/gen_kernel_libraries.py. Releases
// are positions in getReleaseNames(). Every kernel of these libraries is a
// fallback (no kernel key): it runs any dtype and dim order.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_KERNELS_KERNELLIBRARIES_H
#define EMIT_KERNELS_KERNELLIBRARIES_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace emit::kernels {

/// The prim ops, as the libraries table names them.
constexpr StringRef kPrimLibrary = "prim";

/// The libraries a build can link, as --kernels names them (the prim ops
/// not among them: every build registers those).
ArrayRef<StringRef> getLibraryNames();
bool isLibrary(StringRef name);

/// One operator a library registers at some releases.
struct LibraryOperator {
  StringRef library;
  /// As the runtime names it: `aten::add.out`.
  StringRef name;
  /// The file of the release's tree that lists it.
  StringRef source;
};

/// Calls `visit` on every operator `library` registers at `release`.
void forEachOperator(StringRef library, unsigned release,
                     function_ref<void(const LibraryOperator &)> visit);

/// Whether `library` registers `name` at `release`.
bool registers(StringRef library, StringRef name, unsigned release);

/// Whether the optimized library's kernel of `name` at `release` is
/// portable's (merged in where optimized.yaml has none).
bool isPortableFallback(StringRef name, unsigned release);

/// The first release whose runtime registers prim op `name`; none when no
/// release does.
std::optional<unsigned> getFirstPrimRelease(StringRef name);

/// The snapshot the table was generated from (`main (cff6f4dd32)`).
StringRef getKernelTableOrigin();

} // namespace emit::kernels

#endif // EMIT_KERNELS_KERNELLIBRARIES_H
