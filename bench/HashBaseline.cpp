//===- HashBaseline.cpp - The machine's hashing speed on a file -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-bench-hash FILE: hashes FILE with XXH3-128, the hash the dedup pass
// uses, twice: through a read-only mapping, and with pread into a 256 KiB
// buffer (as the pass reads a mapped .pte). Prints both and the faster as
// "hash: N bytes in S s", the baseline for bench/.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

using Clock = std::chrono::steady_clock;

static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: emit-bench-hash FILE\n");
    return 2;
  }
  int fd = open(argv[1], O_RDONLY);
  struct stat status;
  if (fd < 0 || fstat(fd, &status) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  size_t size = status.st_size;

  auto start = Clock::now();
  void *data =
      size ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  if (size && data == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  XXH128_hash_t mapped = XXH3_128bits(data, size);
  double mappedSeconds = secondsSince(start);
  if (size)
    munmap(data, size);

  start = Clock::now();
  constexpr size_t chunkSize = 256 << 10;
  auto buffer = std::make_unique<char[]>(chunkSize);
  XXH3_state_t *state = XXH3_createState();
  XXH3_128bits_reset(state);
  for (size_t offset = 0; offset < size;) {
    ssize_t got = pread(fd, buffer.get(), chunkSize, offset);
    if (got <= 0) {
      std::perror("pread");
      return 1;
    }
    XXH3_128bits_update(state, buffer.get(), got);
    offset += got;
  }
  XXH128_hash_t read = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  double readSeconds = secondsSince(start);
  if (read.low64 != mapped.low64 || read.high64 != mapped.high64) {
    std::fprintf(stderr, "error: the two reads hash differently\n");
    return 1;
  }

  std::printf("mapped %.6f s, pread %.6f s\n", mappedSeconds, readSeconds);
  std::printf("hash: %zu bytes in %.6f s (%016llx%016llx)\n", size,
              mappedSeconds < readSeconds ? mappedSeconds : readSeconds,
              (unsigned long long)read.high64, (unsigned long long)read.low64);
  return 0;
}
