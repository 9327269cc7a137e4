//===- QNNDecoder.cpp - Qualcomm QNN context binary payloads --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A QNN payload (backends/qualcomm/runtime/backends/QnnCustomProtocol.*):
// a 256-byte header (the magic 0x5678abcd, an 8-byte graph signature, the
// context binary's 8-byte size, zeros) and the context binary, whose layout
// Qualcomm does not document: it stays one part. Up to 1.1 the header was
// the 20 bytes of its fields alone, the binary right after them; runtimes
// from 1.2 read the binary at byte 256 (v1.2.0 QnnCustomProtocol.cpp), so
// an older payload's binary is read shifted and past the payload's end.
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
/// The header up to 1.1: its fields alone.
constexpr uint64_t kOldHeaderBytes = 20;

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

/// Whether `bytes` are a payload in the layout of 1.1 and before: its
/// binary fills the payload after the 20-byte header, and would not fit
/// after a 256-byte one.
static bool isOldLayout(StringRef bytes) {
  if (bytes.size() < kOldHeaderBytes)
    return false;
  uint64_t size = readField(bytes, kBinarySizeAt, 8);
  return size == bytes.size() - kOldHeaderBytes &&
         (bytes.size() < kHeaderBytes || size > bytes.size() - kHeaderBytes);
}

void QNNDecoder::decode(const PayloadInput &input,
                        DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = "0x5678abcd";
  bool old = isOldLayout(bytes);
  if (!fitsHeader(bytes, old ? kOldHeaderBytes : kHeaderBytes, "QNN", decoded))
    return;
  int64_t signature = readField(bytes, kSignatureAt, 8);
  decoded.target.push_back(Field::integer("signature", signature));
  PayloadLayout parts(bytes.size(), decoded);
  uint64_t header = old ? kOldHeaderBytes : kHeaderBytes;
  parts.add("header", 0, header, 0);
  parts.add("context binary", header, readField(bytes, kBinarySizeAt, 8),
            kBinarySizeAt);
  parts.finish();
  if (!old)
    return;
  decoded.target.push_back({"layout", "20-byte header (1.1 and before)"});
  addProblem(decoded, kBinarySizeAt,
             "the payload is in the layout of 1.1 and before (a 20-byte "
             "header, the context binary right after it): runtimes from 1.2 "
             "read the binary at byte 256, shifted, and past the payload's "
             "end",
             ProblemEffect::Undefined);
}

const PayloadDecoder &delegate::getQNNDecoder() {
  static const QNNDecoder decoder;
  return decoder;
}
