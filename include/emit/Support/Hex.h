//===- Hex.h - Fixed-width hex digits ---------------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_HEX_H
#define EMIT_SUPPORT_HEX_H

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace emit {

/// `value` as exactly 16 lower-case hex digits (llvm::utohexstr gives 0 a
/// seventeenth).
inline std::string hex16(uint64_t value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex_no_prefix(value, 16);
  return text;
}

} // namespace emit

#endif // EMIT_SUPPORT_HEX_H
