//===- BlobsTest.cpp - The blob layer -------------------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Dialect/ET/IR/ETDialect.h"
#include "emit/Dialect/ET/Utils/Payloads.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {

// Every kind of blob user, and blobs named twice or not at all.
constexpr const char *kProgram = R"mlir(
et.program @p {
  et.blob @c align 16 segment = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @m align 16 segment = dense<[5, 6]> : tensor<2xi8>
  et.blob @w align 1 = dense<[7]> : tensor<1xi8>
  et.blob @shared align 1 = dense<[8, 9]> : tensor<2xi8>
  et.blob @unused align 1 = dense<[0]> : tensor<1xi8>
  et.constant_segment @c offsets [0, 0]
  et.mutable_data_segment @m offsets [0, 0]
  et.named_data "weight" = @w
  et.named_data "both" = @shared
  et.method @forward {
    %a = et.delegate "A" @shared
    %b = et.delegate "B" @w
    et.chain inputs() outputs() {
      et.call_delegate %a ()
      et.call_delegate %b ()
    }
    et.signature inputs() outputs()
  }
}
)mlir";

class BlobsTest : public ::testing::Test {
protected:
  BlobsTest() {
    context.loadDialect<ETDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &context);
  }
  ProgramOp program() { return *module->getOps<ProgramOp>().begin(); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(BlobsTest, ForEachBlobUserVisitsInProgramOrder) {
  ASSERT_TRUE(module);
  std::vector<std::string> seen;
  forEachBlobUser(program(), [&](BlobUserOpInterface user) {
    FlatSymbolRefAttr blob = user.getBlobRef();
    seen.push_back(stringifyDataKind(user.getDataKind()).str() + ":" +
                   (blob ? blob.getValue().str() : "inline"));
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"constant:c", "mutable:m",
                                            "named_data:w", "named_data:shared",
                                            "delegate:shared", "delegate:w"}));
}

TEST_F(BlobsTest, ClassifyTakesTheFirstKindInDataKindOrder) {
  ASSERT_TRUE(module);
  DenseMap<StringAttr, DataKind> kinds = classifyBlobs(program());
  auto kindOf = [&](StringRef name) {
    return kinds.lookup(StringAttr::get(&context, name));
  };
  EXPECT_EQ(kinds.size(), 4u);
  EXPECT_EQ(kindOf("c"), DataKind::Constant);
  EXPECT_EQ(kindOf("m"), DataKind::Mutable);
  // Named by a delegate entry and as named data: a delegate payload first.
  EXPECT_EQ(kindOf("shared"), DataKind::Delegate);
  EXPECT_EQ(kindOf("w"), DataKind::Delegate);
  EXPECT_FALSE(kinds.count(StringAttr::get(&context, "unused")));
}

TEST_F(BlobsTest, ReplaceBlobReferencesRepointsEveryUser) {
  ASSERT_TRUE(module);
  DenseMap<StringAttr, StringAttr> renames{
      {StringAttr::get(&context, "w"), StringAttr::get(&context, "shared")}};
  replaceBlobReferences(program(), renames);
  std::vector<std::string> names;
  forEachBlobUser(program(), [&](BlobUserOpInterface user) {
    names.push_back(user.getBlobRef().getValue().str());
  });
  EXPECT_EQ(names, (std::vector<std::string>{"c", "m", "shared", "shared",
                                             "shared", "shared"}));
}

TEST_F(BlobsTest, GatherBytesPlacesPiecesAndZeroFills) {
  const char first[] = {1, 2, 3}, second[] = {9};
  ElementsAttr gathered = gatherBytes(
      &context, "gathered", 8,
      {{ArrayRef<char>(first, 3), 0}, {ArrayRef<char>(second, 1), 6}});
  SplatStorage splats;
  std::optional<ArrayRef<char>> bytes = getPayloadBytes(gathered, splats);
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(std::vector<char>(bytes->begin(), bytes->end()),
            (std::vector<char>{1, 2, 3, 0, 0, 0, 9, 0}));
}

TEST_F(BlobsTest, SplatPayloadsExpandIntoStorage) {
  auto type = RankedTensorType::get({5}, IntegerType::get(&context, 8));
  auto splat = DenseElementsAttr::get(type, static_cast<int8_t>(7));
  SplatStorage splats;
  std::optional<ArrayRef<char>> bytes =
      getPayloadBytes(cast<ElementsAttr>(splat), splats);
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(std::vector<char>(bytes->begin(), bytes->end()),
            std::vector<char>(5, 7));
  EXPECT_EQ(splats.size(), 1u);
}

} // namespace
