//===- HugePageHeap.cpp - Back a tool's heap with huge pages ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/HugePageHeap.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>

/// Whether the kernel backs memory with transparent huge pages when asked
/// to (madvise) or always; "[never]" and kernels without them do not.
static bool kernelGrantsHugePages() {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(mode, line) &&
         (line.find("[madvise]") != std::string::npos ||
          line.find("[always]") != std::string::npos);
}

/// The largest allocation taken from the heap rather than mapped on its
/// own: glibc's most (on 64-bit hosts).
static constexpr size_t kHeapAllocationMax = size_t(32) << 20;

void emit::restartWithHugePageHeap(char **argv) {
// Not under AddressSanitizer, whose allocator is not glibc's.
#if defined(__linux__) && defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  constexpr const char *kTunable = "glibc.malloc.hugetlb";
  const char *tunables = getenv("GLIBC_TUNABLES");
  if ((tunables && strstr(tunables, kTunable)) || !kernelGrantsHugePages())
    return;
  std::string original = tunables ? tunables : "";
  std::string value = original.empty() ? "" : original + ":";
  value += std::string(kTunable) + "=1";
  // glibc maps each allocation over 128 KiB on its own, at an address no
  // huge page fits (a 3 MiB array is 700 faults); from the heap, which
  // grows in huge pages, it is a few. (Growing the heap further ahead,
  // glibc.malloc.top_pad, saves more faults but backs untouched memory:
  // 3 MiB more resident on a small program.)
  constexpr const char *kThreshold = "glibc.malloc.mmap_threshold";
  if (!strstr(original.c_str(), kThreshold))
    value += ":" + std::string(kThreshold) + "=" +
             std::to_string(kHeapAllocationMax);
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
    return;
  execv("/proc/self/exe", argv);
  // Still here: run as started.
  if (tunables)
    setenv("GLIBC_TUNABLES", original.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}
