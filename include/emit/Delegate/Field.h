//===- Field.h - A decoded field, as text and as typed JSON -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a decoder reads from a payload or a compile spec besides its graph's
// operands (a node's attributes, what a payload was built for, a spec's
// settings) is a list of fields. Each has the text a reader sees (text and
// HTML) and the value a program reads (JSON): a number is a number, a list
// a list, so no script parses display text.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DELEGATE_FIELD_H
#define EMIT_DELEGATE_FIELD_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace emit::delegate {

class Field {
public:
  std::string name;

  /// A string.
  Field(std::string name, StringRef text)
      : name(std::move(name)), value(kString + text.str()) {}
  /// `json` for a program, `text` for a reader.
  Field(std::string name, StringRef text, StringRef json);

  static Field integer(std::string name, int64_t value);
  static Field integer(std::string name, uint64_t value);
  static Field integer(std::string name, uint32_t value) {
    return integer(std::move(name), uint64_t(value));
  }
  static Field integer(std::string name, int32_t value) {
    return integer(std::move(name), int64_t(value));
  }
  /// A number written as its shortest text; a string where JSON has no
  /// number for it (`inf`, `nan`).
  static Field real(std::string name, double value, StringRef text);
  static Field boolean(std::string name, bool value);
  /// `[a, b, ...]`.
  static Field integers(std::string name, ArrayRef<int64_t> values);
  /// A field whose text is a decoder's display of a scalar or a list of
  /// them (`[2, %30]`, `[0.5, true, "same"]`), typed item by item: a
  /// number, true or false, `%N` (the value N: {"value": N}), `?` (null),
  /// a quoted string; any other item a string. Text it cannot split into
  /// items (a nested list, a string holding ", ") stays a string.
  static Field fromDisplay(std::string name, StringRef text);
  /// `text` for a reader and `json`, a JSON value the caller wrote.
  static Field typed(std::string name, StringRef text, StringRef json) {
    return Field(std::move(name), text, json);
  }

  /// For a reader: `[1, 1, 1, 1]`, `12352`, `SM8650`.
  StringRef getText() const;
  /// For a program: the value as JSON (`[1, 1, 1, 1]`, `12352`); for a
  /// string, empty.
  StringRef getJSON() const;
  /// Whether its JSON is a string (its text).
  bool isString() const { return value.front() == kString; }
  bool operator==(const Field &other) const {
    return name == other.name && value == other.value;
  }

private:
  /// How `value` holds the field: its first byte says.
  static constexpr char kString = 's';   // then the text
  static constexpr char kJSONText = 't'; // then the text, which is JSON
  static constexpr char kOwnJSON = 'j';  // then the JSON, NUL, the text
  /// One string for both, so that a field costs what a pair of strings
  /// does (a payload graph holds tens of thousands); JSON holds no NUL.
  std::string value;
};

using Fields = std::vector<Field>;

/// `text` as a JSON string, quoted and escaped (bad UTF-8 repaired).
std::string formatJSONString(StringRef text);

/// `[a, b, ...]`: the text of a list of integers, which is also its JSON.
std::string formatIntegers(ArrayRef<int64_t> values);

} // namespace emit::delegate

#endif // EMIT_DELEGATE_FIELD_H
