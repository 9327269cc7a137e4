//===- ReflectedFields.cpp - Table fields as text, by binary schema -------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ReflectedFields.h"

#include "PayloadLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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
/// Formats one field's scalars by the field's type.
class ScalarText {
public:
  ScalarText(const reflection::Schema &schema, int32_t enumIndex,
             llvm::function_ref<std::string(int64_t)> formatInteger)
      : schema(schema), enumIndex(enumIndex), formatInteger(formatInteger) {}

  std::string integer(int64_t value) const {
    std::string name = getEnumValueName(schema, enumIndex, value);
    if (!name.empty())
      return name;
    if (enumIndex < 0 && formatInteger)
      return formatInteger(value);
    return std::to_string(value);
  }
  std::string unsignedLong(uint64_t value) const {
    return value > uint64_t(INT64_MAX) ? std::to_string(value)
                                       : integer(int64_t(value));
  }

private:
  const reflection::Schema &schema;
  int32_t enumIndex;
  llvm::function_ref<std::string(int64_t)> formatInteger;
};
} // namespace

/// The scalar at `at` in `table` (its default when absent), as text.
static std::string formatScalar(const flatbuffers::Table &table,
                                const reflection::Field &field,
                                const ScalarText &text) {
  using namespace reflection;
  uint16_t at = field.offset();
  int64_t def = field.default_integer();
  switch (field.type()->base_type()) {
  case Bool:
    return table.GetField<uint8_t>(at, uint8_t(def)) ? "true" : "false";
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
    return formatFloat(table.GetField<float>(at, float(field.default_real())));
  case Double:
    return formatFloat(table.GetField<double>(at, field.default_real()));
  default:
    return "?";
  }
}

/// `[a, b, ...]` of the vector `items`.
template <typename T, typename Format>
static std::string formatList(const flatbuffers::Vector<T> &items,
                              Format format) {
  std::string result = "[";
  for (auto [i, item] : llvm::enumerate(items))
    result += (i ? ", " : "") + format(item);
  return result + "]";
}

static std::string formatBytes(const flatbuffers::Vector<uint8_t> &bytes) {
  if (bytes.size() > kMaxHexBytes)
    return std::to_string(bytes.size()) + " bytes";
  return "0x" +
         llvm::toHex(StringRef(reinterpret_cast<const char *>(bytes.data()),
                               bytes.size()),
                     /*LowerCase=*/true);
}

/// The vector at `field` (present), as text; none for vectors of tables.
static std::optional<std::string> formatVector(const flatbuffers::Table &table,
                                               const reflection::Field &field,
                                               const ScalarText &text) {
  using namespace reflection;
  using flatbuffers::Vector;
  uint16_t at = field.offset();
  auto list = [&](auto element) -> std::string {
    using T = decltype(element);
    const auto &items = *table.GetPointer<const Vector<T> *>(at);
    return formatList(items, [&](T item) {
      if constexpr (std::is_floating_point_v<T>)
        return formatFloat(item);
      else if constexpr (std::is_same_v<T, uint64_t>)
        return text.unsignedLong(item);
      else
        return text.integer(int64_t(item));
    });
  };
  switch (field.type()->element()) {
  case Bool:
  case Byte:
    return list(int8_t());
  case UByte:
    if (field.type()->index() < 0)
      return formatBytes(*table.GetPointer<const Vector<uint8_t> *>(at));
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
  case String:
    return formatList(
        *table.GetPointer<
            const Vector<flatbuffers::Offset<flatbuffers::String>> *>(at),
        [](const flatbuffers::String *item) { return item->str(); });
  default:
    return std::nullopt;
  }
}

std::optional<std::string>
delegate::formatField(const reflection::Schema &schema,
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
      return formatVector(table, field, text);
    const auto *string = static_cast<const flatbuffers::String *>(pointer);
    if (string->size() > kMaxStringChars)
      return std::to_string(string->size()) + " bytes";
    return string->str();
  }
  if (type < Bool || type > Double)
    return std::nullopt;
  // An optional scalar that is absent says nothing; another reads as its
  // default.
  if (field.optional() && !table.CheckField(field.offset()))
    return std::nullopt;
  return formatScalar(table, field, text);
}
