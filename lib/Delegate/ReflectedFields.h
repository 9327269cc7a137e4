//===- ReflectedFields.h - Table fields as text, by binary schema -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A payload whose operators are many tables of settings (MLX's
// instructions, TOSA's attributes) is read through its binary schema,
// embedded by flatc --bfbs-gen-embed: one reader for every table, which
// knows each field's type, default and enum. The table must have been
// verified as the object whose fields are read.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DELEGATE_REFLECTEDFIELDS_H
#define EMIT_LIB_DELEGATE_REFLECTEDFIELDS_H

#include "emit/Delegate/Field.h"
#include "emit/Support/LLVM.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include "flatbuffers/reflection.h"

#include <optional>
#include <string>
#include <vector>

namespace emit::delegate {

/// The fields of `object` in their schema's order (a binary schema sorts
/// them by name).
std::vector<const reflection::Field *>
getFieldsInOrder(const reflection::Object &object);

/// The name of `value` in `schema`'s enum `index`; empty when it has none.
std::string getEnumValueName(const reflection::Schema &schema, int32_t index,
                             int64_t value);

/// The text of a scalar, string, or vector-of-scalars-or-strings field of
/// `table`: an absent scalar reads as its default, an enum value by its
/// name, bytes (a ubyte vector) as hex or their count; none for an absent
/// optional scalar, string or vector, and for other types. Integers of no
/// enum go through `formatInteger` when it is given.
/// `field` of `table`, named `name`: its text, and its JSON typed by the
/// schema (a number, a list, a boolean; an enum member's name and what
/// `formatInteger` writes are strings); none when absent or a table.
std::optional<Field>
readField(std::string name, const reflection::Schema &schema,
          const flatbuffers::Table &table, const reflection::Field &field,
          llvm::function_ref<std::string(int64_t)> formatInteger = nullptr);

} // namespace emit::delegate

#endif // EMIT_LIB_DELEGATE_REFLECTEDFIELDS_H
