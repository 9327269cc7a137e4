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

#include <vector>

namespace emit {
class MethodModel;

namespace memory {

/// The method allocator bytes loading `method` takes on each of `targets`,
/// in their order, counted in one pass over the method. With
/// `mergesDataMaps`, the runtime merges the data files it is given with the
/// program's named data (both present), which takes one more object.
std::vector<uint64_t> getMethodAllocatorBytes(const MethodModel &method,
                                              bool mergesDataMaps,
                                              ArrayRef<RuntimeTarget> targets);

} // namespace memory

} // namespace emit

#endif // EMIT_MEMORY_METHODALLOCATOR_H
