//===- HeaderDecoders.cpp - Payloads known by their header ----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Backends whose payload starts with a header of a magic at byte 4 and the
// offsets and sizes of its parts: MLX's MLX0 (24 bytes, one data segment).
// Their parts are laid out and checked; their graphs are not decoded yet.
// Payloads known only by a magic (CoreML's CMJR reference, a TOSA flatbuffer)
// are named, and stay one part.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

using namespace emit;
using namespace emit::delegate;

namespace {
/// Where a header keeps one part's offset and size, and their widths.
struct PartField {
  const char *name;
  unsigned offsetAt, offsetWidth, sizeAt, sizeWidth;
};

struct HeaderLayout {
  const char *backend;
  const char *magic;
  unsigned length;
  ArrayRef<PartField> parts;
};

class HeaderDecoder final : public PayloadDecoder {
public:
  explicit HeaderDecoder(HeaderLayout layout) : layout(layout) {}
  StringRef getName() const override { return layout.backend; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.substr(4, 4) == layout.magic;
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;

private:
  HeaderLayout layout;
};
/// A payload known by its magic alone.
class MagicDecoder final : public PayloadDecoder {
public:
  MagicDecoder(const char *backend, StringRef magic, unsigned at,
               const char *part)
      : backend(backend), magic(magic), at(at), part(part) {}
  StringRef getName() const override { return backend; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.substr(at, magic.size()) == magic;
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override {
    decoded.magic = magic.str();
    decoded.regions.push_back({part, 0, input.bytes.size()});
  }

private:
  const char *backend;
  StringRef magic;
  unsigned at;
  const char *part;
};
} // namespace

void HeaderDecoder::decode(const PayloadInput &input,
                           DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = layout.magic;
  if (!fitsHeader(bytes, layout.length, layout.backend, decoded))
    return;
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, layout.length, 0);
  for (const PartField &part : layout.parts)
    parts.add(part.name, readField(bytes, part.offsetAt, part.offsetWidth),
              readField(bytes, part.sizeAt, part.sizeWidth), part.offsetAt);
  parts.finish();
}

ArrayRef<const PayloadDecoder *> delegate::getHeaderDecoders() {
  static constexpr PartField kDataSegment[] = {{"data", 8, 8, 16, 8}};
  static const HeaderDecoder mlx({"MLX", "MLX0", 24, kDataSegment});
  static const MagicDecoder coreML("CoreML", "CMJR", 0, "opaque");
  static const MagicDecoder tosa("TOSA", "TOSA", 4, "graph");
  static const PayloadDecoder *const decoders[] = {&mlx, &coreML, &tosa};
  return decoders;
}
