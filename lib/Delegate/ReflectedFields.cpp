//===- ReflectedFields.cpp - Table fields as text, by binary schema -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ReflectedFields.h"

#include "PayloadLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace emit;
using namespace emit::delegate;

/// Bytes shown as hex up to this many, a string up to this many
/// characters (a Metal kernel's source is a program, not a setting); past
/// it, their count.
static constexpr size_t kMaxHexBytes = 32, kMaxStringChars = 64;

std::vector<const reflection::Field *>
delegate::getFieldsInOrder(const reflection::Object &object) {
  std::vector<const reflection::Field *> fields(object.fields()->begin(),
                                                object.fields()->end());
  llvm::sort(fields,
             [](const reflection::Field *a, const reflection::Field *b) {
               return a->id() < b->id();
             });
  return fields;
}

std::string delegate::getEnumValueName(const reflection::Schema &schema,
                                       int32_t index, int64_t value) {
  if (index < 0 || uint32_t(index) >= schema.enums()->size())
    return "";
  const reflection::EnumVal *member =
      schema.enums()->Get(index)->values()->LookupByKey(value);
  return member ? member->name()->str() : "";
}

namespace {
/// A scalar's text, and whether JSON writes it as a number (else as a
/// string: an enum member's name, a dtype).
struct ScalarValue {
  std::string text;
  bool number = true;
};

/// Formats one field's scalars by the field's type.
class ScalarText {
public:
  ScalarText(const reflection::Schema &schema, int32_t enumIndex,
             llvm::function_ref<std::string(int64_t)> formatInteger)
      : schema(schema), enumIndex(enumIndex), formatInteger(formatInteger) {}

  ScalarValue integer(int64_t value) const {
    std::string name = getEnumValueName(schema, enumIndex, value);
    if (!name.empty())
      return {std::move(name), false};
    if (enumIndex < 0 && formatInteger)
      return {formatInteger(value), false};
    return {std::to_string(value)};
  }
  ScalarValue unsignedLong(uint64_t value) const {
    return value > uint64_t(INT64_MAX) ? ScalarValue{std::to_string(value)}
                                       : integer(int64_t(value));
  }

private:
  const reflection::Schema &schema;
  int32_t enumIndex;
  llvm::function_ref<std::string(int64_t)> formatInteger;
};

/// A real number: JSON has none for inf and nan, which are strings there.
template <typename T>
ScalarValue real(T value) {
  return {formatFloat(value), std::isfinite(value)};
}

/// A field's text and JSON, item by item for a list.
class FieldValue {
public:
  void add(const ScalarValue &value) {
    text += (items ? ", " : "") + value.text;
    json += (items++ ? ", " : "") +
            (value.number ? value.text : formatJSONString(value.text));
  }
  delegate::Field scalar(std::string name) const {
    return delegate::Field(std::move(name), text, json);
  }
  delegate::Field list(std::string name) const {
    return delegate::Field(std::move(name), "[" + text + "]", "[" + json + "]");
  }

private:
  std::string text, json;
  unsigned items = 0;
};
} // namespace

/// The scalar at `at` in `table` (its default when absent).
static ScalarValue readScalar(const flatbuffers::Table &table,
                              const reflection::Field &field,
                              const ScalarText &text) {
  using namespace reflection;
  uint16_t at = field.offset();
  int64_t def = field.default_integer();
  switch (field.type()->base_type()) {
  case Bool:
    return {table.GetField<uint8_t>(at, uint8_t(def)) ? "true" : "false"};
  case Byte:
    return text.integer(table.GetField<int8_t>(at, int8_t(def)));
  case UByte:
    return text.integer(table.GetField<uint8_t>(at, uint8_t(def)));
  case Short:
    return text.integer(table.GetField<int16_t>(at, int16_t(def)));
  case UShort:
    return text.integer(table.GetField<uint16_t>(at, uint16_t(def)));
  case Int:
    return text.integer(table.GetField<int32_t>(at, int32_t(def)));
  case UInt:
    return text.integer(table.GetField<uint32_t>(at, uint32_t(def)));
  case Long:
    return text.integer(table.GetField<int64_t>(at, def));
  case ULong:
    return text.unsignedLong(table.GetField<uint64_t>(at, uint64_t(def)));
  case Float:
    return real(table.GetField<float>(at, float(field.default_real())));
  case Double:
    return real(table.GetField<double>(at, field.default_real()));
  default:
    return {"?", false};
  }
}

static std::string formatBytes(const flatbuffers::Vector<uint8_t> &bytes) {
  if (bytes.size() > kMaxHexBytes)
    return std::to_string(bytes.size()) + " bytes";
  return "0x" +
         llvm::toHex(StringRef(reinterpret_cast<const char *>(bytes.data()),
                               bytes.size()),
                     /*LowerCase=*/true);
}

/// The vector at `field` (present); none for vectors of tables.
static std::optional<delegate::Field>
readVector(std::string name, const flatbuffers::Table &table,
           const reflection::Field &field, const ScalarText &text) {
  using namespace reflection;
  using flatbuffers::Vector;
  uint16_t at = field.offset();
  auto list = [&](auto element) {
    using T = decltype(element);
    FieldValue value;
    for (T item : *table.GetPointer<const Vector<T> *>(at)) {
      if constexpr (std::is_floating_point_v<T>)
        value.add(real(item));
      else if constexpr (std::is_same_v<T, uint64_t>)
        value.add(text.unsignedLong(item));
      else
        value.add(text.integer(int64_t(item)));
    }
    return value.list(std::move(name));
  };
  switch (field.type()->element()) {
  case Bool:
  case Byte:
    return list(int8_t());
  case UByte:
    if (field.type()->index() < 0)
      return delegate::Field(
          std::move(name),
          formatBytes(*table.GetPointer<const Vector<uint8_t> *>(at)));
    return list(uint8_t());
  case Short:
    return list(int16_t());
  case UShort:
    return list(uint16_t());
  case Int:
    return list(int32_t());
  case UInt:
    return list(uint32_t());
  case Long:
    return list(int64_t());
  case ULong:
    return list(uint64_t());
  case Float:
    return list(float());
  case Double:
    return list(double());
  case String: {
    FieldValue value;
    for (const flatbuffers::String *item :
         *table.GetPointer<
             const Vector<flatbuffers::Offset<flatbuffers::String>> *>(at))
      value.add({item->str(), false});
    return value.list(std::move(name));
  }
  default:
    return std::nullopt;
  }
}

std::optional<delegate::Field>
delegate::readField(std::string name, const reflection::Schema &schema,
                    const flatbuffers::Table &table,
                    const reflection::Field &field,
                    llvm::function_ref<std::string(int64_t)> formatInteger) {
  using namespace reflection;
  BaseType type = field.type()->base_type();
  ScalarText text(schema, field.type()->index(), formatInteger);
  if (type == String || type == Vector) {
    const void *pointer = table.GetPointer<const void *>(field.offset());
    if (!pointer)
      return std::nullopt;
    if (type == Vector)
      return readVector(std::move(name), table, field, text);
    const auto *string = static_cast<const flatbuffers::String *>(pointer);
    if (string->size() > kMaxStringChars)
      return delegate::Field(std::move(name),
                             std::to_string(string->size()) + " bytes");
    return delegate::Field(std::move(name), string->str());
  }
  if (type < Bool || type > Double)
    return std::nullopt;
  // An optional scalar that is absent says nothing; another reads as its
  // default.
  if (field.optional() && !table.CheckField(field.offset()))
    return std::nullopt;
  FieldValue value;
  value.add(readScalar(table, field, text));
  return value.scalar(std::move(name));
}
