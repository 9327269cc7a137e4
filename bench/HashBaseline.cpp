//===- HashBaseline.cpp - The machine's hashing speed on a file -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-bench-hash FILE: maps FILE and hashes it with XXH3-128, the hash the
// dedup pass uses, printing "hash: N bytes in S s". A baseline for bench/.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

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
  auto start = std::chrono::steady_clock::now();
  void *data =
      size ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  if (size && data == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  XXH128_hash_t hash = XXH3_128bits(data, size);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("hash: %zu bytes in %.6f s (%016llx%016llx)\n", size, seconds,
              (unsigned long long)hash.high64, (unsigned long long)hash.low64);
  return 0;
}
