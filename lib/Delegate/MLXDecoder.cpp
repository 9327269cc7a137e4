//===- MLXDecoder.cpp - Apple MLX payloads --------------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An MLX payload (backends/mlx/serialization/MLXLoader.cpp.tmpl) is a
// 24-byte header (4 zero bytes, the magic MLX0, the data segment's 8-byte
// offset and size), the MLXGraph flatbuffer padded to 16 up to that offset,
// and the data segment (unused so far: constants come from named data). The
// runtime refuses a data offset at or before the header's end or past the
// payload; the flatbuffer is everything before it.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

using namespace emit;
using namespace emit::delegate;

namespace {
constexpr uint64_t kHeaderBytes = 24;
constexpr uint64_t kDataOffsetAt = 8, kDataSizeAt = 16;

class MLXDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "MLX"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.substr(4, 4) == "MLX0";
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};
} // namespace

void MLXDecoder::decode(const PayloadInput &input,
                        DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = "MLX0";
  if (!fitsHeader(bytes, kHeaderBytes, "MLX", decoded))
    return;
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, kHeaderBytes, 0);
  uint64_t dataAt = readField(bytes, kDataOffsetAt, 8);
  if (dataAt <= kHeaderBytes || dataAt > bytes.size()) {
    addProblem(decoded, kDataOffsetAt,
               "the data offset " + Twine(dataAt) +
                   " is not past the header and within the " +
                   Twine(bytes.size()) +
                   "-byte payload: the runtime refuses it");
    parts.add("unread", kHeaderBytes, bytes.size() - kHeaderBytes,
              kDataOffsetAt);
    return parts.finish();
  }
  parts.add("graph", kHeaderBytes, dataAt - kHeaderBytes, kDataOffsetAt);
  if (!parts.add("data", dataAt, readField(bytes, kDataSizeAt, 8), kDataSizeAt))
    decoded.problems.back().text +=
        " (the runtime does not read the data segment yet)";
  parts.finish();
}

const PayloadDecoder &delegate::getMLXDecoder() {
  static const MLXDecoder decoder;
  return decoder;
}
