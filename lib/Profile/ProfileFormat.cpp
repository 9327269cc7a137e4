//===- ProfileFormat.cpp - How emit-profile's reports print values --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ProfileFormat.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace emit;
using namespace emit::profile;

std::string profile::formatNs(uint64_t ns) {
  if (ns < 1000)
    return (Twine(ns) + " ns").str();
  static constexpr std::pair<double, const char *> kUnits[] = {
      {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}};
  double value = ns;
  const char *unit = "s";
  for (auto [scale, name] : kUnits)
    if (ns < scale * 1000 || scale == 1e9) {
      value = ns / scale;
      unit = name;
      break;
    }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.3g %s", value, unit);
  return text;
}

std::string profile::formatOperand(const Operand &operand) {
  std::string text = "%" + std::to_string(operand.value) + " ";
  if (operand.kind != ValueKind::Tensor)
    return text + getValueKindName(operand.kind).str();
  text += operand.dtype + "[";
  for (auto [index, size] : llvm::enumerate(operand.shape))
    text += (index ? ", " : "") + std::to_string(size);
  text += "]";
  if (operand.buffer)
    text += llvm::formatv(" @{0}+{1}", *operand.buffer, operand.offset).str();
  return text;
}

std::string profile::formatLogged(const LoggedValue &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (value.kind != "tensor") {
    os << value.kind;
    if (value.scalar)
      os << llvm::format(" %g", *value.scalar);
    return text;
  }
  os << value.dtype << "[";
  llvm::interleaveComma(value.shape, os);
  os << "]";
  if (!value.stats)
    return text + " (" + value.noStats + ")";
  const TensorStats &stats = *value.stats;
  os << llvm::format(" min %g max %g mean %g", stats.min, stats.max, stats.mean)
     << " nan " << stats.nan << " inf " << stats.inf;
  return text;
}
