//===- JSONWriter.cpp - JSON for documents of many small objects ----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The layout is llvm::json::OStream's: a comma after an element, each
// array element and each attribute on a new line at the container's
// depth (with an indentation), `"key": value`, a closing bracket on a line
// of its own unless the container is empty.
//
//===----------------------------------------------------------------------===//

#include "emit/Support/JSONWriter.h"

#include "llvm/Support/JSON.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cstring>
#include <iterator>

using namespace emit;

void JSONWriter::flush() {
  os.write(text, at - text);
  at = text;
}

void JSONWriter::appendLong(StringRef part) {
  flush();
  os.write(part.data(), part.size());
}

/// A new line and 63 spaces, copied at once (a fixed-size copy is a few
/// stores; a memset of a length known only at run time is a string
/// instruction or a call).
static constexpr size_t kNewLineBytes = 64;
static constexpr char kNewLine[kNewLineBytes + 1] =
    "\n                                                               ";
static_assert(sizeof(kNewLine) == kNewLineBytes + 1 &&
                  kNewLine[kNewLineBytes - 1] == ' ',
              "a new line and 63 spaces");

void JSONWriter::newLine() {
  // No report nests this deep; a deeper one is misindented, not overrun.
  size_t spaces = std::min(size_t(depth) * indentWidth, sizeof(text) - 1);
  if (spaces >= kNewLineBytes) {
    reserve(spaces + 1);
    *at++ = '\n';
    std::memset(at, ' ', spaces);
    at += spaces;
    return;
  }
  reserve(kNewLineBytes);
  std::memcpy(at, kNewLine, kNewLineBytes);
  at += spaces + 1;
}

void JSONWriter::open(char bracket) {
  beginValue();
  filled.push_back(false);
  ++depth;
  append(StringRef(&bracket, 1));
}

void JSONWriter::close(char bracket) {
  bool indented = isIndented();
  --depth;
  if (filled.back() && indented)
    newLine();
  append(StringRef(&bracket, 1));
  filled.pop_back();
}

void JSONWriter::longKey(StringRef name) {
  append("\"");
  appendLong(name);
  append(isIndented() ? "\": " : "\":");
  afterKey = true;
}

void JSONWriter::number(uint64_t value) {
  beginValue();
  reserve(24);
  at = std::to_chars(at, std::end(text), value).ptr;
}

void JSONWriter::number(int64_t value) {
  beginValue();
  reserve(24);
  at = std::to_chars(at, std::end(text), value).ptr;
}

void JSONWriter::number(std::optional<uint64_t> value) {
  if (value)
    number(*value);
  else
    null();
}

void JSONWriter::null() {
  beginValue();
  append("null");
}

void JSONWriter::boolean(bool value) {
  beginValue();
  append(value ? "true" : "false");
}

/// The bytes a string holds as they are: printable ASCII but the quote and
/// the backslash (a table: one load per byte, where a string of many
/// small objects is mostly such bytes).
static constexpr auto kPlain = [] {
  std::array<bool, 256> plain{};
  for (unsigned c = 0x20; c < 0x7f; ++c)
    plain[c] = c != '"' && c != '\\';
  return plain;
}();

void JSONWriter::string(StringRef text) {
  beginValue();
  bool plain = llvm::all_of(
      text, [](char c) { return kPlain[static_cast<unsigned char>(c)]; });
  if (plain && text.size() + 2 <= sizeof(this->text)) {
    reserve(text.size() + 2);
    *at++ = '"';
    if (!text.empty())
      std::memcpy(at, text.data(), text.size());
    at += text.size();
    *at++ = '"';
    return;
  }
  if (plain) {
    append("\"");
    append(text);
    append("\"");
    return;
  }
  // Escapes and bad UTF-8's repair, as OStream does them.
  flush();
  llvm::json::OStream(os).value(text);
}

void JSONWriter::string(StringRef prefix, uint64_t number) {
  assert(prefix.size() < 64 && "an id's prefix is a short word");
  beginValue();
  reserve(prefix.size() + 24);
  *at++ = '"';
  if (!prefix.empty())
    std::memcpy(at, prefix.data(), prefix.size());
  at += prefix.size();
  at = std::to_chars(at, std::end(text), number).ptr;
  *at++ = '"';
}

template <typename T>
static void writeNumbers(JSONWriter &writer, ArrayRef<T> values) {
  writer.arrayBegin();
  for (T value : values)
    writer.number(int64_t(value));
  writer.arrayEnd();
}

void JSONWriter::numbers(ArrayRef<uint32_t> values) {
  writeNumbers(*this, values);
}

void JSONWriter::numbers(ArrayRef<int32_t> values) {
  writeNumbers(*this, values);
}
