//===- QNNDecoder.cpp - Qualcomm QNN context binary payloads --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A QNN payload (backends/qualcomm/runtime/backends/QnnCustomProtocol.*):
// a 256-byte header (the magic 0x5678abcd, an 8-byte graph signature, the
// context binary's 8-byte size, zeros) and the context binary, whose layout
// Qualcomm does not document: it stays one part.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "llvm/Support/Endian.h"

using namespace emit;
using namespace emit::delegate;

namespace {
constexpr uint32_t kMagic = 0x5678abcd;
constexpr uint64_t kHeaderBytes = 256;
constexpr uint64_t kSignatureAt = 4, kBinarySizeAt = 12;

class QNNDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "QNN"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.size() >= 4 &&
           llvm::support::endian::read32le(input.bytes.data()) == kMagic;
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};
} // namespace

void QNNDecoder::decode(const PayloadInput &input,
                        DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = "0x5678abcd";
  if (!fitsHeader(bytes, kHeaderBytes, "QNN", decoded))
    return;
  int64_t signature = readField(bytes, kSignatureAt, 8);
  decoded.target.push_back({"signature", std::to_string(signature)});
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, kHeaderBytes, 0);
  parts.add("context binary", kHeaderBytes, readField(bytes, kBinarySizeAt, 8),
            kBinarySizeAt);
  parts.finish();
}

const PayloadDecoder &delegate::getQNNDecoder() {
  static const QNNDecoder decoder;
  return decoder;
}
