//===- FieldTest.cpp - A decoded field, as text and as typed JSON ---------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Delegate/Field.h"

#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

using namespace emit;
using namespace emit::delegate;

namespace {

/// `field`'s JSON, parsed: a typed field must be JSON.
llvm::json::Value parse(const Field &field) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(field.getJSON());
  EXPECT_TRUE(bool(value)) << field.getJSON().str();
  if (!value) {
    llvm::consumeError(value.takeError());
    return nullptr;
  }
  return std::move(*value);
}

TEST(FieldTest, NumbersAndListsAreTyped) {
  Field size = Field::integer("scratch_size", uint64_t(12352));
  EXPECT_EQ(size.getText(), "12352");
  EXPECT_EQ(parse(size), llvm::json::Value(12352));
  Field padding = Field::integers("padding", {1, 1, -1, 1});
  EXPECT_EQ(padding.getText(), "[1, 1, -1, 1]");
  EXPECT_EQ(parse(padding), llvm::json::Value(llvm::json::Array{1, 1, -1, 1}));
  EXPECT_EQ(parse(Field::boolean("b", true)), llvm::json::Value(true));
  EXPECT_TRUE(Field("soc", "SM8650").isString());
}

TEST(FieldTest, ARealJSONHasNoNumberForIsAString) {
  EXPECT_EQ(parse(Field::real("x", 0.5, "0.5")), llvm::json::Value(0.5));
  EXPECT_EQ(parse(Field::real("x", 1e5, "1e+05")), llvm::json::Value(1e5));
  Field infinite = Field::real("x", INFINITY, "inf");
  EXPECT_TRUE(infinite.isString());
  EXPECT_EQ(infinite.getText(), "inf");
}

TEST(FieldTest, ADisplayedListIsTypedItemByItem) {
  Field slots = Field::fromDisplay("shape", "[2, %30, ?, true, -0.5]");
  EXPECT_EQ(slots.getText(), "[2, %30, ?, true, -0.5]");
  EXPECT_EQ(parse(slots),
            llvm::json::Value(llvm::json::Array{
                2, llvm::json::Object{{"value", 30}}, nullptr, true, -0.5}));
  EXPECT_EQ(parse(Field::fromDisplay("names", "[\"a\", b]")),
            llvm::json::Value(llvm::json::Array{"a", "b"}));
  EXPECT_EQ(parse(Field::fromDisplay("empty", "[]")),
            llvm::json::Value(llvm::json::Array{}));
  EXPECT_EQ(parse(Field::fromDisplay("one", "%7")),
            llvm::json::Value(llvm::json::Object{{"value", 7}}));
}

TEST(FieldTest, TextThatIsNotItemsStaysAString) {
  // A nested list, and a string holding the item separator.
  EXPECT_TRUE(Field::fromDisplay("x", "[[1, 2], [3]]").isString());
  EXPECT_TRUE(Field::fromDisplay("x", "[\"a, b\"]").isString());
  // A number JSON does not write so ("01", "inf") is a string item.
  EXPECT_EQ(parse(Field::fromDisplay("x", "[01, inf]")),
            llvm::json::Value(llvm::json::Array{"01", "inf"}));
}

TEST(FieldTest, TextAndJSONComeBackAsGiven) {
  // A payload's text may hold NUL bytes; JSON never does.
  Field field = Field::typed("x", StringRef("a\0b", 3), "[1]");
  EXPECT_EQ(field.getText(), StringRef("a\0b", 3));
  EXPECT_EQ(field.getJSON(), "[1]");
  Field string("y", StringRef("c\0", 2));
  EXPECT_TRUE(string.isString());
  EXPECT_EQ(string.getText(), StringRef("c\0", 2));
  EXPECT_EQ(string.getJSON(), "");
}

TEST(FieldTest, AStringIsQuotedAndRepaired) {
  EXPECT_EQ(formatJSONString("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(parse(Field("x", "", formatJSONString("\xff"))),
            llvm::json::Value("\xef\xbf\xbd"));
}

} // namespace
