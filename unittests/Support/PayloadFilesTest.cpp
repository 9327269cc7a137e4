//===- PayloadFilesTest.cpp - A job's files
//--------------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/PayloadFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace emit;
namespace fs = llvm::sys::fs;

namespace {

/// A temporary directory holding `name` with `content`, removed at the end
/// of the test.
class TempDir {
public:
  TempDir() { EXPECT_FALSE(fs::createUniqueDirectory("emit-payloads", path)); }
  ~TempDir() { fs::remove_directories(path); }
  std::string write(StringRef name, StringRef content) {
    llvm::SmallString<128> file(path);
    llvm::sys::path::append(file, name);
    std::error_code code;
    llvm::raw_fd_ostream os(file, code);
    EXPECT_FALSE(code);
    os << content;
    return file.str().str();
  }
  llvm::SmallString<128> path;
};

TEST(PayloadFilesTest, OpensEachFileOnce) {
  TempDir dir;
  std::string path = dir.write("model.pte", "0123456789");
  PayloadFiles files(dir.path);
  std::string error;
  std::shared_ptr<const FileBuffer> first = files.open(path, error);
  ASSERT_TRUE(first) << error;
  EXPECT_EQ(first->getBytes(), "0123456789");
  EXPECT_EQ(first->getName(), path);
  EXPECT_TRUE(first->isFile());
  // The same file by another name is the same mapping.
  llvm::SmallString<128> other(dir.path);
  llvm::sys::path::append(other, ".", "model.pte");
  EXPECT_EQ(files.open(other, error), first);
  EXPECT_FALSE(files.open((dir.path + "/missing.pte").str(), error));
  EXPECT_FALSE(error.empty());
}

TEST(PayloadFilesTest, EachJobResolvesAgainstItsOwnBase) {
  TempDir one, two;
  std::string first = one.write("w.ptd", "aaaa");
  two.write("w.ptd", "bbbbbb");
  PayloadFiles a(one.path), b(two.path);
  std::string error;
  FailureOr<FileReference> reference = a.describe(first, error);
  ASSERT_TRUE(succeeded(reference)) << error;
  EXPECT_EQ(reference->path, "w.ptd");
  FailureOr<ArrayRef<char>> bytes =
      a.getBytes("w.ptd", 1, 2, reference->fingerprint, error);
  ASSERT_TRUE(succeeded(bytes)) << error;
  EXPECT_EQ(StringRef(bytes->data(), bytes->size()), "aa");
  // The other job's w.ptd is another file: its fingerprint does not match.
  EXPECT_TRUE(failed(b.getBytes("w.ptd", 1, 2, reference->fingerprint, error)));
  EXPECT_NE(error.find("changed since the IR was written"), std::string::npos);
}

TEST(PayloadFilesTest, ReferencesStayUnderTheBase) {
  TempDir base, elsewhere;
  std::string outside = elsewhere.write("secret.pte", "x");
  PayloadFiles files(base.path);
  std::string error;
  EXPECT_TRUE(failed(files.getBytes(outside, 0, 1, {1, 0}, error)));
  EXPECT_NE(error.find("outside"), std::string::npos) << error;
  // A file the user named may be referred to wherever it lies.
  ASSERT_TRUE(files.allowFile(outside, error)) << error;
  FailureOr<FileReference> reference = files.describe(outside, error);
  ASSERT_TRUE(succeeded(reference)) << error;
  EXPECT_TRUE(
      succeeded(files.getBytes(outside, 0, 1, reference->fingerprint, error)));
}

} // namespace
