//===- MappedMemoryTest.cpp - Mapped files read with pread ----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/MappedMemory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <string>

using namespace emit;

namespace {

/// A temporary file holding `content`, removed at the end of the test.
class TempFile {
public:
  explicit TempFile(StringRef content) {
    int fd;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("emit-mapped", "bin", fd, path));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << content;
  }
  ~TempFile() { llvm::sys::fs::remove(path); }
  llvm::SmallString<128> path;
};

std::string pattern(size_t size) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i)
    bytes[i] = char(i * 131 + i / 4096);
  return bytes;
}

TEST(MappedMemoryTest, OpenReadsTheFile) {
  std::string content = pattern(3 << 20);
  TempFile file(content);
  std::string error;
  std::unique_ptr<MappedFile> mapped = MappedFile::open(file.path, error);
  ASSERT_TRUE(mapped) << error;
  ASSERT_EQ(mapped->getBytes().size(), content.size());
  // Chunks of a mapped file come in order and cover every byte.
  std::string seen;
  size_t chunks = 0;
  forEachChunk(mapped->getBytes(), [&](ArrayRef<char> chunk) {
    seen.append(chunk.data(), chunk.size());
    ++chunks;
  });
  EXPECT_EQ(seen, content);
  EXPECT_GT(chunks, 1u);
  std::string sourceError;
  EXPECT_TRUE(checkSourcesUnchanged(sourceError)) << sourceError;
}

/// The resident KiB of the mapping that holds `at` (/proc/self/smaps).
size_t residentKiB(const void *at) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  uintptr_t address = reinterpret_cast<uintptr_t>(at);
  while (std::getline(smaps, line)) {
    unsigned long begin, end;
    if (sscanf(line.c_str(), "%lx-%lx ", &begin, &end) == 2 &&
        line.find(':') > line.find(' ')) {
      inside = begin <= address && address < end;
      continue;
    }
    size_t kib;
    if (inside && sscanf(line.c_str(), "Rss: %zu kB", &kib) == 1)
      return kib;
  }
  ADD_FAILURE() << "no mapping holds the address";
  return 0;
}

TEST(MappedMemoryTest, CopyFrontLeavesTheMappingOut) {
  std::string content = pattern(1 << 20);
  TempFile file(content);
  std::string error;
  std::unique_ptr<MappedFile> mapped = MappedFile::open(file.path, error);
  ASSERT_TRUE(mapped) << error;
  ArrayRef<char> payload = mapped->getBytes().drop_front(512 << 10);
  size_t before = residentKiB(payload.data());
  char front[16];
  copyFront(payload, front);
  EXPECT_EQ(std::string(front, sizeof(front)), content.substr(512 << 10, 16));
  EXPECT_EQ(residentKiB(payload.data()), before);
  // A read through the mapping is seen.
  volatile char touched = payload[0];
  (void)touched;
  EXPECT_GT(residentKiB(payload.data()), before);
  // Memory that is not a mapped file is copied as it is.
  char heap[4] = {1, 2, 3, 4};
  char out[3];
  copyFront(ArrayRef<char>(heap, 4), out);
  EXPECT_EQ(std::string(out, 3), std::string("\1\2\3", 3));
}

TEST(MappedMemoryTest, OpenNamesTheReason) {
  std::string error;
  EXPECT_FALSE(MappedFile::open("/nonexistent/emit-mapped", error));
  EXPECT_FALSE(error.empty());
}

TEST(MappedMemoryTest, EqualBytesAcrossMappedAndHeapMemory) {
  std::string content = pattern(1 << 20);
  TempFile file(content);
  std::string error;
  std::unique_ptr<MappedFile> mapped = MappedFile::open(file.path, error);
  ASSERT_TRUE(mapped) << error;
  ArrayRef<char> heap(content.data(), content.size());
  EXPECT_TRUE(equalBytes(mapped->getBytes(), heap));
  std::string changed = content;
  changed[content.size() - 1] ^= 1;
  EXPECT_FALSE(equalBytes(mapped->getBytes(),
                          ArrayRef<char>(changed.data(), changed.size())));
  EXPECT_FALSE(equalBytes(mapped->getBytes(), heap.drop_back()));
}

TEST(MappedMemoryTest, EqualBytesReadingAheadOverNeighbours) {
  // 64 neighbouring items of 1 KiB; the second half repeats the first, but
  // for one byte of item 40. Compared in file order with read-ahead on both
  // sides, as ContentGroups compares candidates, then out of order, so that
  // what a read-ahead left in a buffer is never taken for other bytes.
  constexpr size_t kItem = 1024, kCount = 64;
  std::string content = pattern(kItem * kCount / 2);
  content += content;
  content[40 * kItem + 5] ^= 1;
  TempFile file(content);
  std::string error;
  std::unique_ptr<MappedFile> mapped = MappedFile::open(file.path, error);
  ASSERT_TRUE(mapped) << error;
  auto item = [&](size_t index) {
    return mapped->getBytes().slice(index * kItem, kItem);
  };
  for (size_t index = kCount / 2; index < kCount; ++index)
    EXPECT_EQ(equalBytes(item(index - kCount / 2), item(index),
                         /*readAheadA=*/true, /*readAheadB=*/true),
              index != 40)
        << "item " << index;
  for (size_t index : {63u, 33u, 40u, 35u})
    EXPECT_EQ(equalBytes(item(index), item(index - kCount / 2), true, true),
              index != 40)
        << "item " << index;
  EXPECT_FALSE(equalBytes(item(1), item(5), true, true)); // Pages 0 and 1.
}

TEST(MappedMemoryTest, WriteBytesStreamsAMapping) {
  std::string content = pattern(2 << 20);
  TempFile file(content);
  std::string error;
  std::unique_ptr<MappedFile> mapped = MappedFile::open(file.path, error);
  ASSERT_TRUE(mapped) << error;
  std::string written;
  llvm::raw_string_ostream os(written);
  writeBytes(os, mapped->getBytes().slice(100, 1 << 20));
  os.flush();
  EXPECT_EQ(written, content.substr(100, 1 << 20));
}

TEST(MappedMemoryTest, ASmallFileIsACopyReadOnce) {
  // Too small to map: read once, so a later change cannot reach its bytes.
  std::string content = pattern(4096);
  TempFile file(content);
  std::string error;
  std::unique_ptr<MappedFile> read = MappedFile::open(file.path, error);
  ASSERT_TRUE(read) << error;
  {
    std::error_code code;
    llvm::raw_fd_ostream os(file.path, code, llvm::sys::fs::OF_Append);
    ASSERT_FALSE(code);
    os << "more";
  }
  EXPECT_EQ(StringRef(read->getBytes().data(), read->getBytes().size()),
            content);
  std::string sourceError;
  EXPECT_TRUE(checkSourcesUnchanged(sourceError)) << sourceError;
}

// Last: a changed source is reported for the rest of the process.
TEST(MappedMemoryTest, AChangedSourceIsReported) {
  TempFile file(pattern(1 << 20));
  std::string error;
  std::unique_ptr<MappedFile> mapped = MappedFile::open(file.path, error);
  ASSERT_TRUE(mapped) << error;
  {
    std::error_code code;
    llvm::raw_fd_ostream os(file.path, code, llvm::sys::fs::OF_Append);
    ASSERT_FALSE(code);
    os << "more";
  }
  std::string sourceError;
  EXPECT_FALSE(checkSourcesUnchanged(sourceError));
  EXPECT_NE(sourceError.find(std::string(file.path)), std::string::npos)
      << sourceError;
}

} // namespace
