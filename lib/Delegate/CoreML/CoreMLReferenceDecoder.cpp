//===- CoreMLReferenceDecoder.cpp - Core ML references into named data ----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A Core ML payload that starts with CMJR (coreml_backend_delegate.mm,
// parseNamedDataReference) holds no model: the magic and a JSON object,
// {"version", "key", "functionName"}, whose `key` names the model in named
// data (shared by the methods of a multifunction model) and whose
// `functionName` is the function the call runs. The runtime refuses a
// reference that is not a JSON object with a string key, and fails when no
// named data holds the key.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "llvm/Support/JSON.h"

using namespace emit;
using namespace emit::delegate;

namespace {
constexpr StringRef kMagic = "CMJR";

class CoreMLReferenceDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "CoreML"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.starts_with(kMagic);
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};
} // namespace

void CoreMLReferenceDecoder::decode(const PayloadInput &input,
                                    DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = kMagic.str();
  decoded.regions.push_back({"magic", 0, kMagic.size()});
  decoded.regions.push_back(
      {"reference", kMagic.size(), bytes.size() - kMagic.size()});
  llvm::Expected<llvm::json::Value> reference =
      llvm::json::parse(bytes.drop_front(kMagic.size()));
  if (!reference) {
    addProblem(decoded, kMagic.size(),
               "the reference is not JSON (" +
                   llvm::toString(reference.takeError()) +
                   "): the runtime refuses it");
    return;
  }
  const llvm::json::Object *object = reference->getAsObject();
  std::optional<StringRef> key =
      object ? object->getString("key") : std::nullopt;
  if (!key) {
    addProblem(decoded, kMagic.size(),
               "the reference is not a JSON object with a string 'key': the "
               "runtime refuses it");
    return;
  }
  if (std::optional<StringRef> function = object->getString("functionName"))
    decoded.target.push_back({"function", function->str()});
  decoded.namedParts.push_back({"model", key->str(), true});
}

const PayloadDecoder &delegate::getCoreMLReferenceDecoder() {
  static const CoreMLReferenceDecoder decoder;
  return decoder;
}
