//===- JSONWriter.h - JSON for documents of many small objects --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// llvm::json::OStream quotes every key and formats every number through
// raw_ostream: in a report of hundreds of thousands of tensors or graph
// nodes that is most of the time the tool takes. A JSONWriter writes what
// OStream would, byte for byte, at a given depth and indentation (or on
// one line), with keys the caller promises need no escaping, numbers by
// std::to_chars, and strings quoted directly unless they need escaping or
// repair, which OStream then does. Used for one object at a time through
// OStream::rawValue, so the document around it stays OStream's.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_JSONWRITER_H
#define EMIT_SUPPORT_JSONWRITER_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstring>
#include <optional>

namespace emit {

class JSONWriter {
public:
  /// Writes to `os` as an OStream of `indentWidth` (0: one line) would
  /// where its current depth is `depth`; a container opened deeper than
  /// `flatDepth` is written on one line, as an OStream without indentation
  /// writes it (an array of one-line objects, each on a line of its own).
  explicit JSONWriter(raw_ostream &os, unsigned indentWidth = 0,
                      unsigned depth = 0, unsigned flatDepth = ~0u)
      : os(os), indentWidth(indentWidth), depth(depth),
        lastIndented(indentWidth ? int64_t(flatDepth) : -1) {}
  ~JSONWriter() { flush(); }

  void objectBegin() { open('{'); }
  void objectEnd() { close('}'); }
  void arrayBegin() { open('['); }
  void arrayEnd() { close(']'); }
  /// Starts the attribute `name`, which must need no escaping. Inline: a
  /// key is mostly a literal, whose copy is then a few stores.
  void key(StringRef name) {
    separate();
    if (name.size() + 4 > sizeof(text))
      return longKey(name);
    reserve(name.size() + 4);
    *at++ = '"';
    if (!name.empty()) // An empty StringRef may hold no pointer.
      std::memcpy(at, name.data(), name.size());
    at += name.size();
    *at++ = '"';
    *at++ = ':';
    if (isIndented())
      *at++ = ' ';
    afterKey = true;
  }

  void number(uint64_t value);
  void number(int64_t value);
  void number(std::optional<uint64_t> value);
  void null();
  void boolean(bool value);
  void string(StringRef text);
  /// The string of `prefix` (plain ASCII) and `number` (an id such as
  /// `i12`), written without building it.
  void string(StringRef prefix, uint64_t number);
  /// `json`, a JSON value written elsewhere, as it is.
  void raw(StringRef json) {
    beginValue();
    append(json);
  }
  /// An array of numbers.
  void numbers(ArrayRef<uint32_t> values);
  void numbers(ArrayRef<int32_t> values);

  /// Writes out what is buffered.
  void flush();

private:
  void open(char bracket);
  void close(char bracket);
  /// Before a value: a separator and a new line in an array. Inline, as
  /// separate(): a document of many small objects calls them for each.
  void beginValue() {
    if (afterKey) {
      afterKey = false;
      return;
    }
    // The root value.
    if (!filled.empty())
      separate();
  }
  /// Before an attribute: a separator and a new line.
  void separate() {
    if (filled.back()) {
      reserve(1);
      *at++ = ',';
    }
    if (isIndented())
      newLine();
    filled.back() = true;
  }
  void longKey(StringRef name);
  /// Whether the container open now lays its elements out on lines: one
  /// comparison, as it is asked before every element.
  bool isIndented() const { return int64_t(depth) <= lastIndented; }
  /// A new line at the depth, where isIndented() says.
  void newLine();
  void append(StringRef part) {
    // An empty StringRef may hold no pointer, which memcpy must not see.
    if (part.empty())
      return;
    if (part.size() > sizeof(text))
      return appendLong(part);
    reserve(part.size());
    std::memcpy(at, part.data(), part.size());
    at += part.size();
  }
  void appendLong(StringRef part);
  /// Room for `bytes` more in the buffer.
  void reserve(size_t bytes) {
    if (static_cast<size_t>(text + sizeof(text) - at) < bytes)
      flush();
  }

  raw_ostream &os;
  unsigned indentWidth;
  unsigned depth;
  /// The deepest container laid out on lines; -1 without indentation.
  int64_t lastIndented;
  /// Per open container: whether it has an element yet.
  SmallVector<bool, 8> filled;
  bool afterKey = false;
  char text[512];
  char *at = text;
};

} // namespace emit

#endif // EMIT_SUPPORT_JSONWRITER_H
