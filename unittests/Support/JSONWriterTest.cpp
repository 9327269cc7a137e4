//===- JSONWriterTest.cpp - JSONWriter writes what OStream writes ---------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/JSONWriter.h"

#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>

using namespace emit;

namespace {

/// One object with every kind of value; `longText` is longer than the
/// writer's buffer, `""` an empty StringRef that holds no pointer.
struct Sample {
  std::string longKey = std::string(600, 'k');
  std::string longText = std::string(700, 'x') + "\"\n";
  /// Plain text that fills the writer's buffer with its quotes.
  std::string fullText = std::string(510, 'f');
};

std::string byOStream(const Sample &s, unsigned indent) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream json(os, indent);
  json.object([&] {
    json.attribute("empty", StringRef());
    json.attribute("", "empty key");
    json.attribute(s.longKey, s.longText);
    json.attribute("escaped", "tab\there");
    json.attribute("full", s.fullText);
    json.attribute("id", "input12");
    json.attribute("big id", "i18446744073709551615");
    json.attribute("number", int64_t(-5));
    json.attribute("big", uint64_t(1) << 63);
    json.attribute("none", nullptr);
    json.attribute("yes", true);
    json.attributeArray("list", [&] {
      for (int32_t v : {1, -2, 3})
        json.value(v);
    });
    json.attributeArray("nothing", [] {});
  });
  return out;
}

std::string byWriter(const Sample &s, unsigned indent) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    JSONWriter json(os, indent);
    json.objectBegin();
    json.key("empty");
    json.string(StringRef());
    json.key(StringRef());
    json.string("empty key");
    json.key(s.longKey);
    json.string(s.longText);
    json.key("escaped");
    json.string("tab\there");
    json.key("full");
    json.string(s.fullText);
    json.key("id");
    json.string("input", 12);
    json.key("big id");
    json.string("i", UINT64_MAX);
    json.key("number");
    json.number(int64_t(-5));
    json.key("big");
    json.number(uint64_t(1) << 63);
    json.key("none");
    json.null();
    json.key("yes");
    json.boolean(true);
    json.key("list");
    json.numbers(ArrayRef<int32_t>({1, -2, 3}));
    json.key("nothing");
    json.numbers(ArrayRef<uint32_t>());
    json.objectEnd();
  }
  return out;
}

TEST(JSONWriterTest, OneLineAsOStream) {
  Sample s;
  EXPECT_EQ(byWriter(s, 0), byOStream(s, 0));
}

TEST(JSONWriterTest, IndentedAsOStream) {
  Sample s;
  EXPECT_EQ(byWriter(s, 2), byOStream(s, 2));
}

/// Arrays nested `levels` deep around an object and a number: lines
/// indented past the 63 spaces the writer copies at once.
std::string nestedByOStream(unsigned levels) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream json(os, 2);
  std::function<void(unsigned)> nest = [&](unsigned level) {
    if (level < levels)
      return json.array([&] { nest(level + 1); });
    json.object([&] {
      json.attribute("key", "text");
      json.attributeArray("empty", [] {});
    });
    json.value(level);
  };
  nest(0);
  return out;
}

std::string nestedByWriter(unsigned levels) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    JSONWriter json(os, 2);
    for (unsigned level = 0; level < levels; ++level)
      json.arrayBegin();
    json.objectBegin();
    json.key("key");
    json.string("text");
    json.key("empty");
    json.numbers(ArrayRef<uint32_t>());
    json.objectEnd();
    json.number(uint64_t(levels));
    for (unsigned level = 0; level < levels; ++level)
      json.arrayEnd();
  }
  return out;
}

TEST(JSONWriterTest, DeeplyIndentedAsOStream) {
  for (unsigned levels : {30u, 31u, 32u, 40u})
    EXPECT_EQ(nestedByWriter(levels), nestedByOStream(levels))
        << levels << " levels";
}

/// An indented document whose `rows` array holds `count` objects, each on
/// one line: by OStream, each row a one-line OStream's raw value.
std::string rowsByOStream(unsigned count) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attributeArray("rows", [&] {
      for (unsigned row = 0; row < count; ++row)
        json.rawValue([&](raw_ostream &line) {
          llvm::json::OStream flat(line);
          flat.object([&] {
            flat.attribute("id", int64_t(row));
            flat.attributeArray("list", [&] {
              flat.value(1);
              flat.array([] {});
            });
            flat.attributeObject("inner", [&] { flat.attribute("a", "b"); });
          });
        });
    });
    json.attribute("after", true);
  });
  return out;
}

/// The same through one writer whose containers below the array are flat.
std::string rowsByWriter(unsigned count) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attributeBegin("rows");
    json.rawValue([&](raw_ostream &stream) {
      JSONWriter rows(stream, 2, /*depth=*/1, /*flatDepth=*/2);
      rows.arrayBegin();
      for (unsigned row = 0; row < count; ++row) {
        rows.objectBegin();
        rows.key("id");
        rows.number(uint64_t(row));
        rows.key("list");
        rows.arrayBegin();
        rows.number(uint64_t(1));
        rows.numbers(ArrayRef<uint32_t>());
        rows.arrayEnd();
        rows.key("inner");
        rows.objectBegin();
        rows.key("a");
        rows.string("b");
        rows.objectEnd();
        rows.objectEnd();
      }
      rows.arrayEnd();
    });
    json.attributeEnd();
    json.attribute("after", true);
  });
  return out;
}

TEST(JSONWriterTest, FlatRowsAsOneLineOStreams) {
  for (unsigned count : {0u, 1u, 3u})
    EXPECT_EQ(rowsByWriter(count), rowsByOStream(count)) << count << " rows";
}

} // namespace
