//===- Field.cpp - A decoded field, as text and as typed JSON -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Delegate/Field.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace emit;
using namespace emit::delegate;

Field::Field(std::string name, StringRef text, StringRef json)
    : name(std::move(name)) {
  value = json == text ? kJSONText + text.str()
                       : kOwnJSON + json.str() + '\0' + text.str();
}

StringRef Field::getText() const {
  StringRef rest = StringRef(value).drop_front();
  return value.front() == kOwnJSON ? rest.split('\0').second : rest;
}

StringRef Field::getJSON() const {
  StringRef rest = StringRef(value).drop_front();
  switch (value.front()) {
  case kJSONText:
    return rest;
  case kOwnJSON:
    return rest.split('\0').first;
  default:
    return "";
  }
}

Field Field::integer(std::string name, int64_t value) {
  std::string text = std::to_string(value);
  return Field(std::move(name), text, text);
}

Field Field::integer(std::string name, uint64_t value) {
  std::string text = std::to_string(value);
  return Field(std::move(name), text, text);
}

Field Field::real(std::string name, double value, StringRef text) {
  if (!std::isfinite(value))
    return Field(std::move(name), text);
  return Field(std::move(name), text, text);
}

Field Field::boolean(std::string name, bool value) {
  std::string text = value ? "true" : "false";
  return Field(std::move(name), text, text);
}

std::string delegate::formatJSONString(StringRef text) {
  std::string json;
  llvm::raw_string_ostream os(json);
  llvm::json::OStream(os).value(
      llvm::json::isUTF8(text) ? text.str() : llvm::json::fixUTF8(text));
  return json;
}

/// Whether `text` is a number as JSON writes one.
static bool isJSONNumber(StringRef text) {
  static const llvm::Regex number(
      "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$");
  return number.match(text);
}

/// One displayed item's JSON; none when the item is not one item (a nested
/// list, part of a string split at its comma).
static std::optional<std::string> getItemJSON(StringRef item) {
  if (item == "?")
    return "null";
  if (item == "true" || item == "false" || isJSONNumber(item))
    return item.str();
  StringRef value = item;
  if (value.consume_front("%") && !value.empty() &&
      llvm::all_of(value, llvm::isDigit))
    return "{\"value\": " + value.str() + "}";
  if (item.size() >= 2 && item.front() == '"' && item.back() == '"' &&
      !item.drop_front().drop_back().contains('"'))
    return formatJSONString(item.drop_front().drop_back());
  if (item.find_first_of("[]\"") != StringRef::npos)
    return std::nullopt;
  return formatJSONString(item);
}

Field Field::fromDisplay(std::string name, StringRef text) {
  StringRef items = text;
  if (!items.consume_front("[") || !items.consume_back("]")) {
    std::optional<std::string> json = getItemJSON(text);
    return json ? Field(std::move(name), text, *json)
                : Field(std::move(name), text);
  }
  SmallVector<StringRef> parts;
  if (!items.empty())
    items.split(parts, ", ");
  std::string json = "[";
  for (auto [i, part] : llvm::enumerate(parts)) {
    std::optional<std::string> item = getItemJSON(part);
    if (!item)
      return Field(std::move(name), text);
    json += (i ? ", " : "") + *item;
  }
  return Field(std::move(name), text, json + "]");
}

std::string delegate::formatIntegers(ArrayRef<int64_t> values) {
  std::string text = "[";
  llvm::interleave(
      values, [&](int64_t value) { text += std::to_string(value); },
      [&] { text += ", "; });
  return text + "]";
}

Field Field::integers(std::string name, ArrayRef<int64_t> values) {
  std::string text = formatIntegers(values);
  return Field(std::move(name), text, text);
}
