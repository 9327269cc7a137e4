//===- ProtobufFields.h - Protocol buffer messages, field by field -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The protocol buffer wire format, read without a schema: a message is a
// sequence of fields, each a number, a wire type and a value (a varint, 4
// or 8 fixed bytes, or a length-prefixed byte range holding a string, a
// nested message or packed scalars). Every length is checked against what
// the message has left; groups (wire types 3 and 4, long deprecated) are
// malformed here.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DELEGATE_PROTOBUFFIELDS_H
#define EMIT_LIB_DELEGATE_PROTOBUFFIELDS_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace emit::delegate {

/// One field of a message.
struct ProtobufField {
  uint32_t number = 0;
  /// 0 varint, 1 fixed 8 bytes, 2 length-delimited, 5 fixed 4 bytes.
  unsigned wireType = 0;
  /// A varint's or a fixed field's value.
  uint64_t value = 0;
  /// A length-delimited field's bytes (a view into the message).
  StringRef bytes;
};

/// Calls `each` for every field of `message`, in order, until it returns
/// false. Returns the offset in `message` of the first malformed byte, or
/// none when the message reads to its end.
std::optional<uint64_t>
forEachProtobufField(StringRef message,
                     llvm::function_ref<bool(const ProtobufField &)> each);

/// The varints packed in `bytes`; none when they are malformed.
std::optional<std::vector<uint64_t>> readPackedVarints(StringRef bytes);

} // namespace emit::delegate

#endif // EMIT_LIB_DELEGATE_PROTOBUFFIELDS_H
