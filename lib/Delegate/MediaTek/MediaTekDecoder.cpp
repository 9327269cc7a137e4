//===- MediaTekDecoder.cpp - MediaTek NeuroPilot payloads -----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A NeuropilotBackend payload (backends/mediatek/runtime/include/
// NeuronPayloadHeader.h) is a packed 13-byte header (a 1-byte version, the
// 4-byte input count, output count and compiled network's size) and the
// compiled network, which the runtime hands to the Neuron adapter as that
// many bytes after the header. It has no magic: it is known by its backend
// id. The compiled network's layout is MediaTek's and stays one part.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

using namespace emit;
using namespace emit::delegate;

namespace {
constexpr uint64_t kHeaderBytes = 13;
constexpr uint64_t kInputsAt = 1, kOutputsAt = 5, kNetworkSizeAt = 9;
/// The only version ExecuTorch's preprocess writes and reads back.
constexpr unsigned kVersion = 1;

class MediaTekDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "MediaTek"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.backend == "NeuropilotBackend";
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};
} // namespace

void MediaTekDecoder::decode(const PayloadInput &input,
                             DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  if (!fitsHeader(bytes, kHeaderBytes, "NeuroPilot", decoded, "its backend id"))
    return;
  unsigned version = static_cast<unsigned char>(bytes[0]);
  decoded.target.push_back(Field::integer("header version", version));
  if (version != kVersion)
    addProblem(decoded, 0,
               "header version " + Twine(version) + " is not the version " +
                   Twine(kVersion) +
                   " ExecuTorch's NeuroPilot preprocess "
                   "writes");
  decoded.target.push_back(
      Field::integer("inputs", readField(bytes, kInputsAt, 4)));
  decoded.target.push_back(
      Field::integer("outputs", readField(bytes, kOutputsAt, 4)));
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, kHeaderBytes, 0);
  if (!parts.add("compiled network", kHeaderBytes,
                 readField(bytes, kNetworkSizeAt, 4), kNetworkSizeAt))
    decoded.problems.back().text +=
        ": the runtime hands the Neuron adapter bytes past it";
  parts.finish();
}

const PayloadDecoder &delegate::getMediaTekDecoder() {
  static const MediaTekDecoder decoder;
  return decoder;
}
