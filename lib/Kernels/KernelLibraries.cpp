//===- KernelLibraries.cpp - What each kernel library registers -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Kernels/KernelLibraries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>

using namespace emit;
using namespace emit::kernels;

namespace {
struct KernelSource {
  const char *library;
  const char *path;
};
struct KernelRow {
  const char *name;
  /// Bit i: release i of getReleaseNames() registers it.
  uint16_t releases;
  uint16_t source;
};
} // namespace

#include "KernelLibraries.inc"

static const StringRef kLibraries[] = {
    "portable", "optimized",       "quantized", "cortex_m",
    "llm",      "portable_custom", "et_copy"};

ArrayRef<StringRef> kernels::getLibraryNames() { return kLibraries; }

bool kernels::isLibrary(StringRef name) {
  return llvm::is_contained(kLibraries, name);
}

StringRef kernels::getKernelTableOrigin() { return kKernelTableOrigin; }

static LibraryOperator toOperator(const KernelRow &row) {
  const KernelSource &source = kKernelSources[row.source];
  return {source.library, row.name, source.path};
}

static bool atRelease(const KernelRow &row, unsigned release) {
  return release < 16 && (row.releases >> release & 1);
}

void kernels::forEachOperator(
    StringRef library, unsigned release,
    function_ref<void(const LibraryOperator &)> visit) {
  for (const KernelRow &row : kKernelRows)
    if (atRelease(row, release) &&
        library == kKernelSources[row.source].library)
      visit(toOperator(row));
}

/// The table's rows by operator name, built once.
static const llvm::StringMap<SmallVector<const KernelRow *, 2>> &
getRowsByName() {
  static const auto *rows = [] {
    auto *byName = new llvm::StringMap<SmallVector<const KernelRow *, 2>>();
    for (const KernelRow &row : kKernelRows)
      (*byName)[row.name].push_back(&row);
    return byName;
  }();
  return *rows;
}

bool kernels::registers(StringRef library, StringRef name, unsigned release) {
  auto found = getRowsByName().find(name);
  if (found == getRowsByName().end())
    return false;
  return llvm::any_of(found->second, [&](const KernelRow *row) {
    return atRelease(*row, release) &&
           library == kKernelSources[row->source].library;
  });
}

bool kernels::isPortableFallback(StringRef name, unsigned release) {
  auto found = getRowsByName().find(name);
  if (found == getRowsByName().end())
    return false;
  bool fallback = false;
  for (const KernelRow *row : found->second) {
    const KernelSource &source = kKernelSources[row->source];
    if (!atRelease(*row, release) || StringRef(source.library) != "optimized")
      continue;
    if (StringRef(source.path) != "kernels/portable/functions.yaml")
      return false;
    fallback = true;
  }
  return fallback;
}

std::optional<unsigned> kernels::getFirstPrimRelease(StringRef name) {
  auto found = getRowsByName().find(name);
  if (found == getRowsByName().end())
    return std::nullopt;
  for (const KernelRow *row : found->second)
    if (kPrimLibrary == kKernelSources[row->source].library)
      for (unsigned release = 0; release < 16; ++release)
        if (atRelease(*row, release))
          return release;
  return std::nullopt;
}
