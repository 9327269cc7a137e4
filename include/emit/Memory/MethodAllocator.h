//===- MethodAllocator.h - What loading a method allocates ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The bytes ExecuTorch's Program::load_method takes from the method
// allocator, when that allocator is a bump allocator over a 64-byte-aligned
// pool (an embedded application's fixed pool) and a temp allocator is given
// (the operators' tensor metadata goes there). The runtime's allocation
// sequence is replayed, table by table, on a target's type layout
// (RuntimeModel.h); backends' own allocations in `init` are not counted.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_MEMORY_METHODALLOCATOR_H
#define EMIT_MEMORY_METHODALLOCATOR_H

#include "emit/Memory/RuntimeModel.h"

namespace executorch_flatbuffer {
struct ExecutionPlan;
} // namespace executorch_flatbuffer

namespace emit::memory {

/// The method allocator bytes loading `plan` takes on `target`. With
/// `mergesDataMaps`, the runtime merges the data files it is given with the
/// program's named data (both present), which takes one more object. The
/// plan's tables must have passed the file layer's checks.
uint64_t
getMethodAllocatorBytes(const executorch_flatbuffer::ExecutionPlan &plan,
                        bool mergesDataMaps, const RuntimeTarget &target);

} // namespace emit::memory

#endif // EMIT_MEMORY_METHODALLOCATOR_H
