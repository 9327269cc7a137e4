//===- SanitizerCompat.h - ASan with an uninstrumented LLVM -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Force-included into sanitizer builds. LLVM's headers poison allocator
// slabs by hand when they see ASan, but Debian's LLVM and MLIR libraries are
// not instrumented and allocate from those slabs without unpoisoning, so
// every access from emit's code would be reported. Turning the manual
// poisoning into no-ops keeps ASan's own checks and drops the false ones.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_CMAKE_SANITIZERCOMPAT_H
#define EMIT_CMAKE_SANITIZERCOMPAT_H

#include <sanitizer/asan_interface.h>

#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
#define __asan_unpoison_memory_region(addr, size) ((void)(addr), (void)(size))

#endif // EMIT_CMAKE_SANITIZERCOMPAT_H
