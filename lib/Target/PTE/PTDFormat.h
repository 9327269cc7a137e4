//===- PTDFormat.h - .ptd byte layout constants and header ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The parts of the `.ptd` (FlatTensor) layout that are not flatbuffer: the
// required `FH01` header at byte 8.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_TARGET_PTE_PTDFORMAT_H
#define EMIT_LIB_TARGET_PTE_PTDFORMAT_H

#include <cstdint>

namespace emit::ptd {

/// Magic of the FlatTensor header, at file offset 8.
inline constexpr char kHeaderMagic[4] = {'F', 'H', '0', '1'};
/// The length the header declares: magic, length and four u64 fields.
inline constexpr uint32_t kHeaderLength = 40;
/// The header region ExecuTorch inserts after byte 8: 40 bytes padded to
/// 16, a multiple of the flatbuffer's largest internal alignment (8).
inline constexpr uint64_t kHeaderRegion = 48;
/// The runtime reads the first 64 bytes to find the header.
inline constexpr uint64_t kMinFileSize = 64;

/// The header's fields after magic and length.
struct Header {
  uint64_t flatbufferOffset = 0; // The inserted header region's length.
  uint64_t flatbufferSize = 0;   // The built flatbuffer's length.
  uint64_t segmentBaseOffset = 0;
  uint64_t segmentDataSize = 0;
};

} // namespace emit::ptd

#endif // EMIT_LIB_TARGET_PTE_PTDFORMAT_H
