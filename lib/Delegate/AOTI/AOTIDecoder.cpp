//===- AOTIDecoder.cpp - AOTInductor (CUDA, Metal) payloads ---------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A CudaBackend or MetalBackend payload holds no model: it names two keys
// into named data (backends/aoti/aoti_delegate_handle.h, resolve_blob_keys),
// the AOTInductor shared library and its weights, as "<so key>\n<weights
// key>". An empty payload (what exports before 1.4 wrote) leaves the keys to
// the entry's `method_name` compile spec: `<method>_so_blob` and
// `<method>_weights_blob`, or `so_blob` and `weights_blob` without one. The
// runtime fails without the shared library and goes on without the weights.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

using namespace emit;
using namespace emit::delegate;

namespace {
class AOTIDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "AOTI"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.backend == "CudaBackend" || input.backend == "MetalBackend";
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
  ArrayRef<StringRef>
  getCompileSpecKeysRead(const PayloadInput &input) const override;
};

/// The entry's `method_name`, as the runtime reads it; empty without one.
StringRef getMethodName(ArrayRef<std::pair<StringRef, StringRef>> specs) {
  for (const auto &[key, value] : specs)
    if (key == "method_name")
      return value;
  return "";
}
} // namespace

void AOTIDecoder::decode(const PayloadInput &input,
                         DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  auto name = [&](StringRef library, StringRef weights) {
    decoded.namedParts.push_back({"shared library", library.str(), true});
    decoded.namedParts.push_back({"weights", weights.str(), false});
  };
  if (!bytes.empty()) {
    decoded.regions.push_back({"keys", 0, bytes.size()});
    size_t newline = bytes.find('\n');
    if (newline == StringRef::npos)
      return addProblem(decoded, 0,
                        "the payload names its keys without the newline "
                        "between them: the runtime refuses it");
    return name(bytes.take_front(newline), bytes.drop_front(newline + 1));
  }
  if (!input.compileSpecs) {
    decoded.target.push_back(
        {"keys", "from each entry's method_name compile spec"});
    return;
  }
  StringRef method = getMethodName(*input.compileSpecs);
  if (method.empty())
    return name("so_blob", "weights_blob");
  name((method + "_so_blob").str(), (method + "_weights_blob").str());
}

ArrayRef<StringRef>
AOTIDecoder::getCompileSpecKeysRead(const PayloadInput &input) const {
  // Only an empty payload (before 1.4) leaves its keys to the entry.
  static const StringRef kMethodName[] = {"method_name"};
  if (!input.bytes.empty())
    return {};
  return kMethodName;
}

const PayloadDecoder &delegate::getAOTIDecoder() {
  static const AOTIDecoder decoder;
  return decoder;
}
