//===- NeutronDecoder.cpp - NXP Neutron payloads --------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A NeutronBackend payload (backends/nxp/runtime/NeutronBackend.cpp) has no
// magic of its own: it is known by its backend id. It starts with byte
// flags: the Neutron input and output counts, the call's input count, a
// format flag per input and output (1: channels last), an index per input
// and output, and from 1.1 the payload version. Then, each padded to 16,
// the microcode (the magic 0x64434d6e, its size at word 6, the weights'
// size at word 7, the scratch size and the I/O counts at words that the
// payload version places), the weights and the kernels, which run to the
// payload's end. A 1.0 payload has no version byte, but its flags are an
// odd 3 + 2 * (inputs + outputs) bytes: its microcode starts where a later
// one's does, after a zero of padding that reads as version 0, whose words
// are 1.0's.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

using namespace emit;
using namespace emit::delegate;

namespace {
constexpr uint64_t kAlignment = 16;
constexpr uint64_t kMicrocodeMagic = 0x64434d6e;
constexpr unsigned kMicrocodeSizeWord = 6, kWeightsSizeWord = 7,
                   kScratchWord = 9;

uint64_t alignUp(uint64_t value) {
  return (value + kAlignment - 1) / kAlignment * kAlignment;
}

/// Where a payload version keeps its microcode header's fields.
struct MicrocodeWords {
  unsigned inputs, outputs;
  /// Version 1's profiling and debug buffer sizes; 0: none.
  unsigned profile = 0, debug = 0;
};

std::optional<MicrocodeWords> getMicrocodeWords(unsigned version) {
  if (version == 0)
    return MicrocodeWords{11, 12};
  if (version == 1)
    return MicrocodeWords{13, 14, 10, 11};
  return std::nullopt;
}

class NeutronDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "Neutron"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.backend == "NeutronBackend";
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

/// Reads one payload into `decoded`.
class NeutronReader {
public:
  NeutronReader(StringRef bytes, DecodedPayload &decoded)
      : bytes(bytes), decoded(decoded), parts(bytes.size(), decoded) {}
  void read();

private:
  /// Whether the microcode's magic is at `at`.
  bool hasMicrocodeAt(uint64_t at) const {
    return at <= bytes.size() && bytes.size() - at >= 4 &&
           readField(bytes, at, 4) == kMicrocodeMagic;
  }
  /// The flags' length, where the microcode starts, the payload version;
  /// false (a problem) when the microcode's magic is not there.
  bool placeMicrocode();
  /// The microcode's header: its I/O counts against the flags', the parts
  /// its sizes announce; false (a problem) where the runtime stops.
  bool readMicrocode();
  /// Says what a part past the payload means; false.
  bool readsPast() {
    decoded.problems.back().text += ": the Neutron driver reads past it";
    return false;
  }
  uint64_t word(unsigned index) const {
    return readField(bytes, microcodeAt + 4 * index, 4);
  }
  void set(const char *name, uint64_t value) {
    decoded.target.push_back(Field::integer(name, value));
  }

  StringRef bytes;
  DecodedPayload &decoded;
  PayloadLayout parts;
  unsigned inputs = 0, outputs = 0;
  uint64_t flagsEnd = 0, microcodeAt = 0;
  /// Where reading stopped: the rest is `unread`.
  uint64_t unreadFrom = 0;
  unsigned version = 0;
};
} // namespace

bool NeutronReader::placeMicrocode() {
  inputs = static_cast<unsigned char>(bytes[0]);
  outputs = static_cast<unsigned char>(bytes[1]);
  uint64_t versionAt = 3 + 2 * inputs + 2 * outputs;
  flagsEnd = versionAt + 1;
  microcodeAt = alignUp(flagsEnd);
  if (flagsEnd > bytes.size()) {
    addProblem(decoded, 0,
               "the flags of " + Twine(inputs) + " inputs and " +
                   Twine(outputs) + " outputs (" + Twine(flagsEnd) +
                   " bytes) run past the payload: the runtime reads past it",
               ProblemEffect::Undefined);
    unreadFrom = 0;
    return false;
  }
  if (!hasMicrocodeAt(microcodeAt)) {
    addProblem(decoded, microcodeAt,
               "no Neutron microcode (magic 0x64434d6e) after the " +
                   Twine(inputs) + " inputs' and " + Twine(outputs) +
                   " outputs' flags: the runtime refuses the payload");
    parts.add("header", 0, flagsEnd, 0);
    unreadFrom = flagsEnd;
    return false;
  }
  decoded.magic = "0x64434d6e";
  version = static_cast<unsigned char>(bytes[versionAt]);
  set("payload version", version);
  parts.add("header", 0, flagsEnd, 0);
  return true;
}

bool NeutronReader::readMicrocode() {
  unreadFrom = microcodeAt;
  std::optional<MicrocodeWords> words = getMicrocodeWords(version);
  if (!words) {
    addProblem(decoded, flagsEnd - 1,
               "unknown payload version " + Twine(version) +
                   ": the runtime refuses the payload");
    return false;
  }
  uint64_t headerWords = 1 + std::max(words->inputs, words->outputs);
  if (bytes.size() - microcodeAt < 4 * headerWords) {
    addProblem(decoded, microcodeAt,
               "the microcode's header (" + Twine(4 * headerWords) +
                   " bytes) runs past the payload: the runtime reads past it",
               ProblemEffect::Undefined);
    return false;
  }
  set("inputs", inputs);
  set("outputs", outputs);
  set("input args", static_cast<unsigned char>(bytes[2]));
  set("scratch bytes", word(kScratchWord));
  if (words->profile)
    set("profile bytes", word(words->profile) & 0x7fffffff);
  if (words->debug)
    set("debug bytes", word(words->debug));
  if (word(words->inputs) != inputs || word(words->outputs) != outputs)
    addProblem(decoded, microcodeAt + 4 * words->inputs,
               "the microcode runs " + Twine(word(words->inputs)) +
                   " inputs and " + Twine(word(words->outputs)) +
                   " outputs, the flags say " + Twine(inputs) + " and " +
                   Twine(outputs) + ": the runtime refuses the payload");
  uint64_t microcodeSize = word(kMicrocodeSizeWord);
  uint64_t weightsSize = word(kWeightsSizeWord);
  if (!parts.addPadded("microcode", microcodeAt, microcodeSize,
                       alignUp(microcodeSize),
                       microcodeAt + 4 * kMicrocodeSizeWord))
    return readsPast();
  uint64_t weightsAt = microcodeAt + alignUp(microcodeSize);
  unreadFrom = weightsAt;
  if (!parts.addPadded("weights", weightsAt, weightsSize, alignUp(weightsSize),
                       microcodeAt + 4 * kWeightsSizeWord))
    return readsPast();
  uint64_t kernelsAt = weightsAt + alignUp(weightsSize);
  parts.add("kernels", kernelsAt, bytes.size() - kernelsAt, kernelsAt);
  return true;
}

void NeutronReader::read() {
  if (!placeMicrocode() || !readMicrocode())
    parts.add("unread", unreadFrom, bytes.size() - unreadFrom, unreadFrom);
  parts.finish();
}

void NeutronDecoder::decode(const PayloadInput &input,
                            DecodedPayload &decoded) const {
  if (fitsHeader(input.bytes, 3, "Neutron", decoded, "its backend id"))
    NeutronReader(input.bytes, decoded).read();
}

const PayloadDecoder &delegate::getNeutronDecoder() {
  static const NeutronDecoder decoder;
  return decoder;
}
