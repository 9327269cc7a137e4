//===- FileFormat.h - ExecuTorch file identifiers and headers ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The parts of ExecuTorch's two file formats that are not flatbuffer, in one
// place: the file identifiers, the `.pte`'s optional extended header
// (`eh00`) and the `.ptd`'s required header (`FH01`) at byte 8, and the
// constants of the layout a writer must respect.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_FILEFORMAT_H
#define EMIT_SUPPORT_FILEFORMAT_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

namespace emit {

/// The flatbuffer file identifier of `bytes` (bytes 4 to 7), or "" when the
/// file is too short to have one.
inline StringRef getFileIdentifier(StringRef bytes) {
  return bytes.size() >= 8 ? bytes.substr(4, 4) : StringRef();
}

/// A header of `Fields`, and the length it declares, read as the runtime
/// reads them.
template <typename Fields>
struct ReadHeader {
  uint32_t length;
  Fields fields;
};

/// The words of an extended header, which both formats place at byte 8: a
/// 4-byte magic, a u32 length, then u64 fields from byte 16 on.
class HeaderWords {
public:
  /// The header of `bytes` if it starts with `magic` at byte 8.
  static std::optional<HeaderWords> read(StringRef bytes, const char *magic) {
    if (bytes.size() < 16 || bytes.substr(8, 4) != StringRef(magic, 4))
      return std::nullopt;
    return HeaderWords(bytes);
  }
  /// The length the header declares.
  uint32_t getLength() const {
    return llvm::support::endian::read32le(bytes.data() + 12);
  }
  /// The u64 field at byte `offset` (16, 24, ...), 0 past the end of the
  /// bytes.
  uint64_t getField(uint64_t offset) const {
    return offset + 8 <= bytes.size()
               ? llvm::support::endian::read64le(bytes.data() + offset)
               : 0;
  }

private:
  explicit HeaderWords(StringRef bytes) : bytes(bytes) {}
  StringRef bytes;
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

namespace pte {

/// Identifier of a program (`.pte`).
inline constexpr char kIdentifier[] = "ET12";
/// Identifier of a bundled program (`.bpte`), which embeds a program.
inline constexpr char kBundledIdentifier[] = "BP08";
/// Magic of the extended header, at file offset 8.
inline constexpr char kHeaderMagic[4] = {'e', 'h', '0', '0'};
/// ExecuTorch's default segment alignment (since 0.4; 4096 before).
inline constexpr uint64_t kDefaultSegmentAlignment = 128;
/// Length the header declares since ExecuTorch 1.0 (24 before).
inline constexpr uint32_t kHeaderLength = 32;
/// The shortest header length the runtime accepts (no segment_data_size).
inline constexpr uint32_t kMinHeaderLength = 24;
/// `force_align` of inline delegate data and constant buffers in the schema.
inline constexpr uint64_t kInlineDataAlignment = 16;
/// The largest alignment of data inside the flatbuffer, as ExecuTorch's own
/// build allows (the writer builds with FLATBUFFERS_MAX_ALIGNMENT to match).
inline constexpr uint64_t kMaxInlineAlignment = 4096;

/// The extended header's fields after magic and length.
struct ExtendedHeader {
  uint64_t programSize = 0;
  uint64_t segmentBaseOffset = 0;
  uint64_t segmentDataSize = 0;
};

/// The extended header of `bytes` and its declared length, read as the
/// runtime reads them: segment_data_size only from a 32-byte header on (0,
/// not recorded, before).
using ReadHeader = emit::ReadHeader<ExtendedHeader>;
inline std::optional<ReadHeader> readHeader(StringRef bytes) {
  std::optional<HeaderWords> words = HeaderWords::read(bytes, kHeaderMagic);
  if (!words)
    return std::nullopt;
  uint32_t length = words->getLength();
  return ReadHeader{length,
                    {words->getField(16), words->getField(24),
                     length >= kHeaderLength ? words->getField(32) : 0}};
}

/// Writes the 32-byte header region (magic, length, three u64 fields).
inline void writeHeader(raw_ostream &os, const ExtendedHeader &header) {
  os.write(kHeaderMagic, 4);
  writeLE32(os, kHeaderLength);
  writeLE64(os, header.programSize);
  writeLE64(os, header.segmentBaseOffset);
  writeLE64(os, header.segmentDataSize);
}

} // namespace pte

namespace ptd {

/// Identifier of a data file (`.ptd`, FlatTensor).
inline constexpr char kIdentifier[] = "FT01";
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

/// The header of `bytes` and its declared length, read as the runtime
/// reads them.
using ReadHeader = emit::ReadHeader<Header>;
inline std::optional<ReadHeader> readHeader(StringRef bytes) {
  std::optional<HeaderWords> words = HeaderWords::read(bytes, kHeaderMagic);
  if (!words)
    return std::nullopt;
  return ReadHeader{words->getLength(),
                    {words->getField(16), words->getField(24),
                     words->getField(32), words->getField(40)}};
}

} // namespace ptd

/// A run's profile (ETDump, .etdp), as the runtime's ETDumpGen writes it
/// (devtools/etdump): a size-prefixed flatbuffer, and the names it gives
/// its events, which say what each timed.
namespace etdp {

/// The file identifier, after the 4-byte size prefix and the root offset.
inline constexpr char kIdentifier[] = "ED00";
inline constexpr uint64_t kIdentifierOffset = 8;

/// Program::load_method (runtime/executor/program.cpp), around
/// Method::init (method.cpp): a method's load.
inline constexpr char kLoadMethodEvent[] = "Program::load_method";
inline constexpr char kInitEvent[] = "Method::init";
/// Method::execute (method.cpp): one run of a method.
inline constexpr char kExecuteEvent[] = "Method::execute";
/// The event a kernel wrapper logs around its kernel: this, then the
/// operator's name after its namespace and its overload (codegen/gen.py).
inline constexpr char kKernelEventPrefix[] = "native_call_";
/// The events Method::execute logs around each instruction, by kind.
inline constexpr char kOperatorCallEvent[] = "OPERATOR_CALL";
inline constexpr char kDelegateCallEvent[] = "DELEGATE_CALL";
inline constexpr char kMoveCallEvent[] = "MOVE_CALL";
inline constexpr char kJumpFalseCallEvent[] = "JF_CALL";
inline constexpr char kFreeCallEvent[] = "FREE_CALL";

} // namespace etdp

/// Whether `bytes` hold a data file (.ptd) rather than a program.
inline bool isDataFileBuffer(StringRef bytes) {
  return getFileIdentifier(bytes) == ptd::kIdentifier;
}

} // namespace emit

#endif // EMIT_SUPPORT_FILEFORMAT_H
