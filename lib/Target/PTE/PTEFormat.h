//===- PTEFormat.h - .pte byte layout constants and header -------*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The parts of the `.pte` layout that are not flatbuffer: the extended header
// at byte 8 and the limits a writer must respect.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_TARGET_PTE_PTEFORMAT_H
#define EMIT_LIB_TARGET_PTE_PTEFORMAT_H

#include "emit/Support/LLVM.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace emit::pte {

/// Magic of the extended header, at file offset 8.
inline constexpr char kHeaderMagic[4] = {'e', 'h', '0', '0'};
/// ExecuTorch's default segment alignment (since 0.4; 4096 before).
inline constexpr uint64_t kDefaultSegmentAlignment = 128;
/// Length the header declares since ExecuTorch 1.0 (24 before).
inline constexpr uint32_t kHeaderLength = 32;
/// `force_align` of inline delegate data and constant buffers in the schema.
inline constexpr uint64_t kInlineDataAlignment = 16;
/// The largest alignment of data inside the flatbuffer (the build raises
/// FLATBUFFERS_MAX_ALIGNMENT to match).
inline constexpr uint64_t kMaxInlineAlignment = EMIT_PTE_MAX_INLINE_ALIGNMENT;

/// The extended header's fields after magic and length.
struct ExtendedHeader {
  uint64_t programSize = 0;
  uint64_t segmentBaseOffset = 0;
  uint64_t segmentDataSize = 0;
};

inline void writeLE32(raw_ostream &os, uint32_t value) {
  char bytes[4];
  llvm::support::endian::write32le(bytes, value);
  os.write(bytes, 4);
}

inline void writeLE64(raw_ostream &os, uint64_t value) {
  char bytes[8];
  llvm::support::endian::write64le(bytes, value);
  os.write(bytes, 8);
}

/// Writes the 32-byte header region (magic, length, three u64 fields).
inline void writeHeader(raw_ostream &os, const ExtendedHeader &header) {
  os.write(kHeaderMagic, 4);
  writeLE32(os, kHeaderLength);
  writeLE64(os, header.programSize);
  writeLE64(os, header.segmentBaseOffset);
  writeLE64(os, header.segmentDataSize);
}

} // namespace emit::pte

#endif // EMIT_LIB_TARGET_PTE_PTEFORMAT_H
