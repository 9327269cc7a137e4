//===- ProtobufFields.cpp - Protocol buffer messages, field by field ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ProtobufFields.h"

#include "llvm/Support/Endian.h"

using namespace emit;
using namespace emit::delegate;

/// Reads the varint at `at` of `bytes`, moving `at` past it; false when it
/// runs past the end or past 10 bytes.
static bool readVarint(StringRef bytes, uint64_t &at, uint64_t &value) {
  value = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (at >= bytes.size())
      return false;
    uint8_t byte = uint8_t(bytes[at++]);
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

std::optional<uint64_t> delegate::forEachProtobufField(
    StringRef message, llvm::function_ref<bool(const ProtobufField &)> each) {
  uint64_t at = 0;
  while (at < message.size()) {
    uint64_t start = at, key = 0;
    if (!readVarint(message, at, key) || (key >> 3) == 0 ||
        (key >> 3) > UINT32_MAX)
      return start;
    ProtobufField field;
    field.number = uint32_t(key >> 3);
    field.wireType = unsigned(key & 7);
    switch (field.wireType) {
    case 0:
      if (!readVarint(message, at, field.value))
        return start;
      break;
    case 1:
    case 5: {
      unsigned width = field.wireType == 1 ? 8 : 4;
      if (message.size() - at < width)
        return start;
      field.value = width == 8
                        ? llvm::support::endian::read64le(message.data() + at)
                        : llvm::support::endian::read32le(message.data() + at);
      at += width;
      break;
    }
    case 2: {
      uint64_t length = 0;
      if (!readVarint(message, at, length) || length > message.size() - at)
        return start;
      field.bytes = message.substr(at, length);
      at += length;
      break;
    }
    default:
      return start;
    }
    if (!each(field))
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::vector<uint64_t>>
delegate::readPackedVarints(StringRef bytes) {
  std::vector<uint64_t> values;
  uint64_t at = 0, value = 0;
  while (at < bytes.size()) {
    if (!readVarint(bytes, at, value))
      return std::nullopt;
    values.push_back(value);
  }
  return values;
}
