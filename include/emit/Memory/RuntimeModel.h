//===- RuntimeModel.h - ExecuTorch's runtime, as memory sees it -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The targets emit-memory sizes a method allocator for, each with the size
// and alignment of every type the runtime allocates from it
// (RuntimeLayouts.def), and the runtime revision those were read from.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_MEMORY_RUNTIMEMODEL_H
#define EMIT_MEMORY_RUNTIMEMODEL_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace emit::memory {

/// Each type the runtime takes from the method allocator.
enum class RuntimeType : uint8_t {
#define RUNTIME_TYPE(Name, Size64, Align64, Size32, Align32) Name,
#include "emit/Memory/RuntimeLayouts.def"
};
constexpr unsigned kNumRuntimeTypes = 0
#define RUNTIME_TYPE(Name, Size64, Align64, Size32, Align32) +1
#include "emit/Memory/RuntimeLayouts.def"
    ;

/// A target's layout of the runtime's types.
struct RuntimeTarget {
  /// Its pointer width, which names it in reports: "64", "32".
  StringRef name;
  /// What it stands for, for people.
  StringRef description;
  uint32_t sizes[kNumRuntimeTypes];
  uint32_t alignments[kNumRuntimeTypes];

  uint32_t sizeOf(RuntimeType type) const {
    return sizes[static_cast<unsigned>(type)];
  }
  uint32_t alignOf(RuntimeType type) const {
    return alignments[static_cast<unsigned>(type)];
  }
};

/// The targets, 64-bit first.
ArrayRef<RuntimeTarget> getRuntimeTargets();

/// The ExecuTorch commit whose runtime the model follows.
StringRef getRuntimeRevision();

} // namespace emit::memory

#endif // EMIT_MEMORY_RUNTIMEMODEL_H
