//===- PayloadLayout.h - A payload's parts, checked -------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What every decoder does with a header: reads its little-endian fields
// only where the payload has them, and lays out the parts they announce,
// each checked against the payload's size as the backends' runtimes check
// them, the bytes between parts counted as padding.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DELEGATE_PAYLOADLAYOUT_H
#define EMIT_LIB_DELEGATE_PAYLOADLAYOUT_H

#include "emit/Delegate/PayloadDecoder.h"

#include "llvm/ADT/Twine.h"

#include "flatbuffers/flatbuffers.h"

namespace emit::delegate {

/// The `width`-byte (2, 4 or 8) little-endian field at `at` of `bytes`, which
/// the caller has checked holds it.
uint64_t readField(StringRef bytes, uint64_t at, unsigned width);

/// The shortest text that reads back as `value`.
std::string formatFloat(float value);
std::string formatFloat(double value);

/// ExecuTorch's ScalarType `type` as the et dialect names it (`float`,
/// `bfloat16`), and its element's bytes; for a value past ExecuTorch's,
/// `scalar type N` and none.
std::string getScalarTypeName(int64_t type);
std::optional<uint64_t> getScalarTypeBytes(int64_t type);

/// The positions [from, from + count), for CallArguments.
std::vector<uint32_t> countUp(uint64_t count, uint64_t from = 0);

/// Adds a problem at `offset`.
void addProblem(DecodedPayload &decoded, uint64_t offset, const Twine &text,
                ProblemEffect effect = ProblemEffect::Refuses);

/// Whether `bytes` hold the `length`-byte header of `backend` that their
/// `announcer` (their magic, their backend id) announces; if not, a problem,
/// and the payload is one opaque part.
bool fitsHeader(StringRef bytes, uint64_t length, StringRef backend,
                DecodedPayload &decoded, StringRef announcer = "its magic");

/// The root table of the flatbuffer `buffer`, once it verifies as a `Root`
/// the way the backends' runtimes verify theirs; otherwise null, and a
/// problem at `offset` saying that `what` (`graph's flatbuffer`) does not
/// verify, then `consequence`.
template <typename Root>
const Root *getVerifiedRoot(StringRef buffer, uint64_t offset,
                            std::vector<PayloadProblem> &problems,
                            StringRef what, StringRef consequence = "",
                            ProblemEffect effect = ProblemEffect::Refuses) {
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(buffer.data()), buffer.size());
  if (verifier.VerifyBuffer<Root>(nullptr))
    return flatbuffers::GetRoot<Root>(buffer.data());
  problems.push_back({offset,
                      ("the " + what + " does not verify" + consequence).str(),
                      effect});
  return nullptr;
}

/// Builds DecodedPayload::regions from the parts a header announces.
class PayloadLayout {
public:
  PayloadLayout(uint64_t payloadSize, DecodedPayload &decoded)
      : payloadSize(payloadSize), decoded(decoded) {}

  /// Adds the part `name` of `size` bytes at `offset`, announced by the
  /// header field at `fieldOffset`; a part past the payload is a problem
  /// and left out. Returns whether it fits.
  bool add(StringRef name, uint64_t offset, uint64_t size,
           uint64_t fieldOffset) {
    return addPadded(name, offset, size, size, fieldOffset);
  }
  /// Adds the part `name` of `size` bytes at `offset`, which its reader
  /// steps over as `extent` bytes (its data and the padding after it): the
  /// whole extent must fit, the padding is left to finish().
  bool addPadded(StringRef name, uint64_t offset, uint64_t size,
                 uint64_t extent, uint64_t fieldOffset);
  /// Sorts the parts, names the gaps between them `padding`, and reports
  /// parts that overlap.
  void finish();

private:
  uint64_t payloadSize;
  DecodedPayload &decoded;
};

/// The decoders, one per backend (or a family of alike headers).
#define DECODER(Name) const PayloadDecoder &get##Name##Decoder();
#include "Decoders.def"
/// The xnode each of an XNNPACK delegate call's own events times.
std::vector<std::optional<uint32_t>>
joinXNNPACKEvents(const DecodedGraph &graph, ArrayRef<std::string> names);
/// Fills in `decoded` from a QnnBackend entry's `qnn_compile_spec`.
void decodeQNNCompileSpec(StringRef value, DecodedCompileSpec &decoded);
/// Fills in `decoded` from an EnnBackend entry's `enn_compile_options`.
void decodeSamsungCompileSpec(StringRef value, DecodedCompileSpec &decoded);

} // namespace emit::delegate

#endif // EMIT_LIB_DELEGATE_PAYLOADLAYOUT_H
