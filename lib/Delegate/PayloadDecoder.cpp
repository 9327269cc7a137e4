//===- PayloadDecoder.cpp - What a delegate payload holds -----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Delegate/PayloadDecoder.h"

#include "PayloadLayout.h"

#include "emit/Support/MappedMemory.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <charconv>

using namespace emit;
using namespace emit::delegate;

PayloadDecoder::~PayloadDecoder() = default;

bool PayloadDecoder::readsCallArguments() const { return false; }

ArrayRef<StringRef>
PayloadDecoder::getCompileSpecKeysRead(const PayloadInput &) const {
  return {};
}

std::vector<std::optional<uint32_t>>
PayloadDecoder::joinEvents(const DecodedGraph &,
                           ArrayRef<std::string> names) const {
  return std::vector<std::optional<uint32_t>>(names.size());
}

std::vector<std::optional<uint32_t>>
delegate::joinDelegateEvents(const DecodedPayload &payload,
                             ArrayRef<std::string> names) {
  if (payload.graph)
    for (const PayloadDecoder *decoder : getPayloadDecoders())
      if (decoder->getName() == payload.decoder)
        return decoder->joinEvents(*payload.graph, names);
  return std::vector<std::optional<uint32_t>>(names.size());
}

uint64_t DecodedPayload::getRegionBytes(StringRef name) const {
  uint64_t bytes = 0;
  for (const PayloadRegion &region : regions)
    if (region.name == name)
      bytes += region.size;
  return bytes;
}

uint64_t delegate::readField(StringRef bytes, uint64_t at, unsigned width) {
  const char *field = bytes.data() + at;
  switch (width) {
  case 2:
    return llvm::support::endian::read16le(field);
  case 4:
    return llvm::support::endian::read32le(field);
  default:
    return llvm::support::endian::read64le(field);
  }
}

bool delegate::fitsHeader(StringRef bytes, uint64_t length, StringRef backend,
                          DecodedPayload &decoded, StringRef announcer) {
  if (bytes.size() >= length)
    return true;
  addProblem(decoded, 0,
             "the payload's " + Twine(bytes.size()) +
                 " bytes are fewer than the " + Twine(length) + "-byte " +
                 backend + " header " + announcer + " announces");
  decoded.regions.push_back({"opaque", 0, bytes.size()});
  return false;
}

template <typename Float>
static std::string formatShortest(Float value) {
  char text[32];
  auto [end, error] = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, error == std::errc() ? end : text);
}

std::string delegate::formatFloat(float value) { return formatShortest(value); }

std::string delegate::formatFloat(double value) {
  return formatShortest(value);
}

namespace {
struct ScalarTypeInfo {
  const char *name;
  uint8_t bytes;
};
} // namespace

/// By value; 0 bytes: a value ExecuTorch reserves.
static constexpr ScalarTypeInfo kScalarTypes[] = {{"byte", 1},
                                                  {"char", 1},
                                                  {"short", 2},
                                                  {"int", 4},
                                                  {"long", 8},
                                                  {"half", 2},
                                                  {"float", 4},
                                                  {"double", 8},
                                                  {"complex_half", 4},
                                                  {"complex_float", 8},
                                                  {"complex_double", 16},
                                                  {"bool", 1},
                                                  {"qint8", 1},
                                                  {"quint8", 1},
                                                  {"qint32", 4},
                                                  {"bfloat16", 2},
                                                  {"quint4x2", 1},
                                                  {"quint2x4", 1},
                                                  {"bits1x8", 1},
                                                  {"bits2x4", 1},
                                                  {"bits4x2", 1},
                                                  {"bits8", 1},
                                                  {"bits16", 2},
                                                  {"float8_e5m2", 1},
                                                  {"float8_e4m3fn", 1},
                                                  {"float8_e5m2fnuz", 1},
                                                  {"float8_e4m3fnuz", 1},
                                                  {"uint16", 2},
                                                  {"uint32", 4},
                                                  {"uint64", 8}};

std::string delegate::getScalarTypeName(int64_t type) {
  if (type >= 0 && size_t(type) < std::size(kScalarTypes))
    return kScalarTypes[type].name;
  return "scalar type " + std::to_string(type);
}

std::optional<uint64_t> delegate::getScalarTypeBytes(int64_t type) {
  if (type >= 0 && size_t(type) < std::size(kScalarTypes))
    return kScalarTypes[type].bytes;
  return std::nullopt;
}

std::vector<uint32_t> delegate::countUp(uint64_t count, uint64_t from) {
  std::vector<uint32_t> positions;
  positions.reserve(count);
  for (uint64_t position = from; position < from + count; ++position)
    positions.push_back(uint32_t(position));
  return positions;
}

void delegate::addProblem(DecodedPayload &decoded, uint64_t offset,
                          const Twine &text, ProblemEffect effect) {
  decoded.problems.push_back({offset, text.str(), effect});
}

bool PayloadLayout::addPadded(StringRef name, uint64_t offset, uint64_t size,
                              uint64_t extent, uint64_t fieldOffset) {
  if (offset > payloadSize || extent > payloadSize - offset) {
    addProblem(decoded, fieldOffset,
               "the " + name + " (offset " + Twine(offset) + ", " +
                   Twine(extent) + " bytes) does not fit in the " +
                   Twine(payloadSize) + "-byte payload");
    return false;
  }
  decoded.regions.push_back({name.str(), offset, size});
  return true;
}

void PayloadLayout::finish() {
  std::vector<PayloadRegion> parts = std::move(decoded.regions);
  llvm::stable_sort(parts, [](const PayloadRegion &a, const PayloadRegion &b) {
    return a.offset < b.offset;
  });
  decoded.regions.clear();
  uint64_t end = 0;
  for (PayloadRegion &part : parts) {
    if (part.size == 0)
      continue;
    if (part.offset < end)
      addProblem(decoded, part.offset,
                 "the " + part.name + " (offset " + Twine(part.offset) +
                     ") overlaps the " + decoded.regions.back().name +
                     ", which ends at " + Twine(end));
    else if (part.offset > end)
      decoded.regions.push_back({"padding", end, part.offset - end});
    end = std::max(end, part.offset + part.size);
    decoded.regions.push_back(std::move(part));
  }
  if (end < payloadSize)
    decoded.regions.push_back({"padding", end, payloadSize - end});
}

ArrayRef<const PayloadDecoder *> delegate::getPayloadDecoders() {
  // In Decoders.def's order, which is the order of recognition.
  static const PayloadDecoder *const decoders[] = {
#define DECODER(Name) &get##Name##Decoder(),
#include "Decoders.def"
  };
  return decoders;
}

/// `input` with only its first kRecognizedBytes bytes, copied to `front`.
static PayloadInput probeFront(const PayloadInput &input,
                               char (&front)[kRecognizedBytes]) {
  size_t frontBytes = std::min(input.bytes.size(), sizeof(front));
  copyFront(ArrayRef<char>(input.bytes.data(), input.bytes.size()),
            MutableArrayRef<char>(front, frontBytes));
  PayloadInput probe = input;
  probe.bytes = StringRef(front, frontBytes);
  return probe;
}

/// The first decoder that recognizes `probe`, its first bytes only.
static const PayloadDecoder *findRecognizing(const PayloadInput &probe) {
  for (const PayloadDecoder *decoder : getPayloadDecoders())
    if (decoder->recognizes(probe))
      return decoder;
  return nullptr;
}

const PayloadDecoder *delegate::findPayloadDecoder(const PayloadInput &input) {
  char front[kRecognizedBytes];
  return findRecognizing(probeFront(input, front));
}

DecodedPayload delegate::decodePayloadWith(const PayloadDecoder *decoder,
                                           const PayloadInput &input) {
  DecodedPayload decoded;
  if (decoder) {
    decoded.decoder = decoder->getName().str();
    decoder->decode(input, decoded);
  } else if (!input.bytes.empty()) {
    decoded.regions.push_back({"opaque", 0, input.bytes.size()});
  }
  return decoded;
}

DecodedPayload delegate::decodePayload(const PayloadInput &input) {
  return decodePayloadWith(findPayloadDecoder(input), input);
}

std::string DecodedCompileSpec::describe() const {
  std::string text;
  for (const Field &setting : settings)
    text += (text.empty() ? "" : ", ") + setting.name + "=" +
            setting.getText().str();
  return text;
}

std::optional<DecodedCompileSpec>
delegate::decodeCompileSpec(StringRef backend, StringRef key, StringRef value) {
  struct SpecDecoder {
    const char *backend, *key;
    void (*decode)(StringRef, DecodedCompileSpec &);
  };
  static constexpr SpecDecoder kDecoders[] = {
      {"QnnBackend", "qnn_compile_spec", decodeQNNCompileSpec},
      {"EnnBackend", "enn_compile_options", decodeSamsungCompileSpec}};
  for (const SpecDecoder &decoder : kDecoders) {
    if (backend != decoder.backend || key != decoder.key)
      continue;
    // A copy aligned for any scalar: a spec's bytes may sit anywhere (in an
    // attribute's storage, in a vector of the program).
    std::vector<uint64_t> aligned((value.size() + 7) / 8);
    llvm::copy(value, reinterpret_cast<char *>(aligned.data()));
    DecodedCompileSpec decoded;
    decoder.decode(
        StringRef(reinterpret_cast<const char *>(aligned.data()), value.size()),
        decoded);
    return decoded;
  }
  return std::nullopt;
}
