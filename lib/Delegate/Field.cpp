//===- Field.cpp - A decoded field, as text and as typed JSON -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Delegate/Field.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace emit;
using namespace emit::delegate;

Field Field::integer(std::string name, int64_t value) {
  std::string text = std::to_string(value);
  return Field(std::move(name), text, text);
}

Field Field::integer(std::string name, uint64_t value) {
  std::string text = std::to_string(value);
  return Field(std::move(name), text, text);
}

Field Field::real(std::string name, double value, std::string text) {
  if (!std::isfinite(value))
    return Field(std::move(name), std::move(text));
  std::string json = text;
  return Field(std::move(name), std::move(text), std::move(json));
}

Field Field::boolean(std::string name, bool value) {
  std::string text = value ? "true" : "false";
  return Field(std::move(name), text, text);
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
