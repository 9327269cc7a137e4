//===- HeaderDecoders.cpp - Payloads known by their magic alone -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Payloads known only by a magic (Core ML's CMJR reference into named data):
// named, and one part.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

using namespace emit;
using namespace emit::delegate;

namespace {
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

ArrayRef<const PayloadDecoder *> delegate::getHeaderDecoders() {
  static const MagicDecoder coreML("CoreML", "CMJR", 0, "opaque");
  static const PayloadDecoder *const decoders[] = {&coreML};
  return decoders;
}
