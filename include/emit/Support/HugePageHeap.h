//===- HugePageHeap.h - Back a tool's heap with huge pages ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A tool that imports a program builds hundreds of thousands of operations
// and attributes on a fresh heap, and on a virtual machine each first touch
// of a 4 KiB page is a costly fault: a third of a run's time on a program
// of 50,000 kernel calls. glibc's malloc can ask the kernel for transparent
// huge pages (its tunable glibc.malloc.hugetlb=1), but reads its tunables
// only when a process starts.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_HUGEPAGEHEAP_H
#define EMIT_SUPPORT_HUGEPAGEHEAP_H

namespace emit {

/// Restarts the tool (same executable, arguments, descriptors and process
/// id) with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES (and
/// glibc.malloc.mmap_threshold at 32 MiB, unless given), when the kernel grants
/// transparent huge pages on request and the environment says nothing of that
/// tunable; returns (changing nothing) otherwise, or when the restart fails.
/// Call first in main, before anything is allocated or opened. Setting the
/// tunable (to 0, say) in GLIBC_TUNABLES opts out.
void restartWithHugePageHeap(char **argv);

} // namespace emit

#endif // EMIT_SUPPORT_HUGEPAGEHEAP_H
