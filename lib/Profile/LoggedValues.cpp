//===- LoggedValues.cpp - What an ETDump's debug events logged ------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// ETDumpGen keeps a logged tensor's metadata in the ETDump and its bytes in
// the debug buffer its data sink writes (tensor.nbytes() at the recorded
// offset). Statistics are computed from those bytes, element by element, in
// the tensor's scalar type; a type with no numeric reading (quantized,
// packed bits, complex) gets its dtype and shape alone.
//
//===----------------------------------------------------------------------===//

#include "LoggedValues.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/etdump_generated.h"

#include "llvm/Support/Endian.h"

#include <cmath>
#include <cstring>

using namespace emit;
using namespace emit::profile;
using et::ScalarType;

double profile::decodeHalf(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double sign = bits & 0x8000 ? -1 : 1;
  if (exponent == 0x1f)
    return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

double profile::decodeBFloat16(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// Element `index` of `data` read as `type`; none for a type with no
/// numeric reading.
static std::optional<double> readElement(ScalarType type, const char *data,
                                         uint64_t index) {
  namespace endian = llvm::support::endian;
  const char *at = data + index * et::getScalarTypeByteSize(type);
  switch (type) {
  case ScalarType::Byte:
  case ScalarType::Bool:
    return uint8_t(*at);
  case ScalarType::Char:
    return int8_t(*at);
  case ScalarType::Short:
    return int16_t(endian::read16le(at));
  case ScalarType::UInt16:
    return endian::read16le(at);
  case ScalarType::Int:
    return int32_t(endian::read32le(at));
  case ScalarType::UInt32:
    return endian::read32le(at);
  case ScalarType::Long:
    return double(int64_t(endian::read64le(at)));
  case ScalarType::UInt64:
    return double(endian::read64le(at));
  case ScalarType::Half:
    return decodeHalf(endian::read16le(at));
  case ScalarType::BFloat16:
    return decodeBFloat16(endian::read16le(at));
  case ScalarType::Float: {
    uint32_t word = endian::read32le(at);
    float value;
    std::memcpy(&value, &word, sizeof(value));
    return value;
  }
  case ScalarType::Double: {
    uint64_t word = endian::read64le(at);
    double value;
    std::memcpy(&value, &word, sizeof(value));
    return value;
  }
  default:
    return std::nullopt;
  }
}

/// The statistics of `count` elements of `type` at `data`; none when the
/// type has no numeric reading.
static std::optional<TensorStats>
computeStats(ScalarType type, const char *data, uint64_t count) {
  if (!readElement(type, data, 0) && count)
    return std::nullopt;
  // Min and max over every value but NaN; the mean over the finite ones.
  TensorStats stats;
  double sum = 0;
  uint64_t seen = 0, finite = 0;
  for (uint64_t index = 0; index < count; ++index) {
    double value = *readElement(type, data, index);
    if (std::isnan(value)) {
      ++stats.nan;
      continue;
    }
    stats.min = seen ? std::min(stats.min, value) : value;
    stats.max = seen ? std::max(stats.max, value) : value;
    ++seen;
    if (std::isinf(value)) {
      ++stats.inf;
      continue;
    }
    sum += value;
    ++finite;
  }
  stats.mean = finite ? sum / finite : 0;
  return stats;
}

static void describeTensor(const etdump::Tensor &tensor, StringRef buffer,
                           LoggedValue &value) {
  value.kind = "tensor";
  auto type =
      et::symbolizeScalarType(static_cast<int32_t>(tensor.scalar_type()));
  value.dtype = type ? et::stringifyScalarType(*type).str()
                     : std::to_string(static_cast<int>(tensor.scalar_type()));
  SmallVector<int32_t> sizes;
  if (tensor.sizes())
    for (int64_t size : *tensor.sizes()) {
      value.shape.push_back(size);
      sizes.push_back(size < 0 || size > INT32_MAX ? -1 : int32_t(size));
    }
  std::optional<uint64_t> bytes =
      type ? et::getTensorByteSize(*type, sizes) : std::nullopt;
  if (buffer.empty()) {
    value.noStats = "no debug buffer given";
  } else if (!bytes || tensor.offset() < 0 ||
             uint64_t(tensor.offset()) > buffer.size() ||
             *bytes > buffer.size() - tensor.offset()) {
    value.noStats = "its data is not in the debug buffer";
  } else {
    value.stats = computeStats(*type, buffer.data() + tensor.offset(),
                               *bytes / et::getScalarTypeByteSize(*type));
    if (!value.stats)
      value.noStats = "no statistics for " + value.dtype;
  }
}

void profile::describeLoggedValue(const etdump::Value &value,
                                  StringRef debugBuffer,
                                  std::vector<LoggedValue> &values) {
  LoggedValue logged;
  switch (value.val()) {
  case etdump::ValueType::Tensor:
    if (value.tensor())
      describeTensor(*value.tensor(), debugBuffer, logged);
    values.push_back(std::move(logged));
    return;
  case etdump::ValueType::TensorList: {
    logged.kind = "tensor_list";
    values.push_back(std::move(logged));
    if (value.tensor_list() && value.tensor_list()->tensors())
      for (const etdump::Tensor *tensor : *value.tensor_list()->tensors()) {
        LoggedValue item;
        describeTensor(*tensor, debugBuffer, item);
        values.push_back(std::move(item));
      }
    return;
  }
  case etdump::ValueType::Int:
    logged.kind = "int";
    if (value.int_value())
      logged.scalar = double(value.int_value()->int_val());
    break;
  case etdump::ValueType::Bool:
    logged.kind = "bool";
    if (value.bool_value())
      logged.scalar = value.bool_value()->bool_val();
    break;
  case etdump::ValueType::Float:
    logged.kind = "float";
    if (value.float_value())
      logged.scalar = value.float_value()->float_val();
    break;
  case etdump::ValueType::Double:
    logged.kind = "double";
    if (value.double_value())
      logged.scalar = value.double_value()->double_val();
    break;
  case etdump::ValueType::String:
    logged.kind = "string";
    break;
  default:
    logged.kind = "null";
    break;
  }
  values.push_back(std::move(logged));
}
