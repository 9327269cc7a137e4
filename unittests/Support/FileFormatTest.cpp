//===- FileFormatTest.cpp - File identifiers and headers ------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/FileFormat.h"

#include "llvm/ADT/SmallString.h"
#include "gtest/gtest.h"

using namespace emit;

namespace {

TEST(FileFormatTest, Identifiers) {
  EXPECT_EQ(getFileIdentifier("1234ET12"), "ET12");
  EXPECT_EQ(getFileIdentifier("1234ET1"), "");
  EXPECT_TRUE(isDataFileBuffer(StringRef("\0\0\0\0FT01", 8)));
  EXPECT_FALSE(isDataFileBuffer(StringRef("\0\0\0\0ET12", 8)));
  EXPECT_FALSE(isDataFileBuffer("FT01"));
}

TEST(FileFormatTest, HeaderMagics) {
  std::string pte("\x3c\0\0\0ET12eh00\x20\0\0\0", 16);
  EXPECT_TRUE(pte::hasExtendedHeader(pte));
  EXPECT_FALSE(pte::hasExtendedHeader(StringRef(pte).take_front(15)));
  EXPECT_FALSE(ptd::hasHeader(pte));
  std::string ptd("\x44\0\0\0FT01FH01\x28\0\0\0", 16);
  EXPECT_TRUE(ptd::hasHeader(ptd));
  EXPECT_FALSE(pte::hasExtendedHeader(ptd));
}

TEST(FileFormatTest, WriteHeaderAsExecuTorchDoes) {
  // AddModel.pte's header: (32, 1040, 1152, 4).
  llvm::SmallString<32> bytes;
  llvm::raw_svector_ostream os(bytes);
  pte::writeHeader(os, {1040, 1152, 4});
  const char expected[] = "eh00\x20\0\0\0\x10\x04\0\0\0\0\0\0"
                          "\x80\x04\0\0\0\0\0\0\x04\0\0\0\0\0\0\0";
  ASSERT_EQ(bytes.size(), pte::kHeaderLength);
  EXPECT_EQ(StringRef(bytes), StringRef(expected, 32));
}

} // namespace
