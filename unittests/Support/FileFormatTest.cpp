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
  EXPECT_TRUE(pte::readHeader(pte));
  EXPECT_FALSE(pte::readHeader(StringRef(pte).take_front(15)));
  EXPECT_FALSE(ptd::readHeader(pte));
  std::string ptd("\x44\0\0\0FT01FH01\x28\0\0\0", 16);
  EXPECT_TRUE(ptd::readHeader(ptd));
  EXPECT_FALSE(pte::readHeader(ptd));
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

TEST(FileFormatTest, ReadHeadersAsTheRuntimeDoes) {
  // AddModel.pte's header, then the pre-1.0 length: segment_data_size is
  // read only from a 32-byte header on.
  std::string pte("\x3c\0\0\0ET12eh00\x20\0\0\0"
                  "\x10\x04\0\0\0\0\0\0\x80\x04\0\0\0\0\0\0"
                  "\x04\0\0\0\0\0\0\0",
                  40);
  std::optional<pte::ReadHeader> header = pte::readHeader(pte);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->length, 32u);
  EXPECT_EQ(header->fields.programSize, 1040u);
  EXPECT_EQ(header->fields.segmentBaseOffset, 1152u);
  EXPECT_EQ(header->fields.segmentDataSize, 4u);
  pte[12] = 24;
  header = pte::readHeader(pte);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->fields.segmentDataSize, 0u);
  // Fields past the end of the bytes read as 0; no header without magic.
  header = pte::readHeader(StringRef(pte).take_front(20));
  ASSERT_TRUE(header);
  EXPECT_EQ(header->fields.programSize, 0u);
  EXPECT_FALSE(pte::readHeader(StringRef(pte).take_front(15)));
  EXPECT_FALSE(ptd::readHeader(pte));

  std::string ptd("\x44\0\0\0FT01FH01\x28\0\0\0"
                  "\x30\0\0\0\0\0\0\0\x20\0\0\0\0\0\0\0"
                  "\x80\0\0\0\0\0\0\0\x08\0\0\0\0\0\0\0",
                  48);
  std::optional<ptd::ReadHeader> data = ptd::readHeader(ptd);
  ASSERT_TRUE(data);
  EXPECT_EQ(data->length, 40u);
  EXPECT_EQ(data->fields.flatbufferOffset, 48u);
  EXPECT_EQ(data->fields.flatbufferSize, 32u);
  EXPECT_EQ(data->fields.segmentBaseOffset, 128u);
  EXPECT_EQ(data->fields.segmentDataSize, 8u);
  EXPECT_FALSE(pte::readHeader(ptd));
}

} // namespace
