//===- PayloadDecoder.h - What a delegate payload holds ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A delegate payload opened by the decoder of its backend: what its bytes
// are made of (header, graph, constants, padding), the target it was built
// for where it says, and, for a backend whose payload is a graph, that
// graph's nodes and values. One decoder per backend, each recognizing its
// payloads by backend id and magic; a payload no decoder knows stays
// opaque. Decoders read only the payload's bytes they are given (never a
// constant's), check every header field and table as the backend's runtime
// does, and report what is wrong as a problem at a byte offset, never by
// failing.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DELEGATE_PAYLOADDECODER_H
#define EMIT_DELEGATE_PAYLOADDECODER_H

#include "emit/Delegate/CallArguments.h"
#include "emit/Delegate/Field.h"
#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace emit::delegate {

/// A part of a payload: its bytes [offset, offset + size).
struct PayloadRegion {
  /// `header`, `graph`, `constants`, `padding`, `context binary`, ...
  std::string name;
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// What a backend's runtime does with a payload that has a problem.
enum class ProblemEffect : uint8_t {
  /// Its init refuses the payload: load_method fails.
  Refuses,
  /// It reads past the payload's bytes or a table, or through a null
  /// pointer: it may crash or read wrong bytes.
  Undefined,
  /// emit cannot tell: a part it does not read (an operator it does not
  /// know, nesting past its limit), or a format no ExecuTorch runtime
  /// reads as it is.
  Unknown,
};

/// Something wrong with a payload, at a byte offset in it.
struct PayloadProblem {
  uint64_t offset = 0;
  std::string text;
  ProblemEffect effect = ProblemEffect::Refuses;
};

/// A value of a decoded graph.
struct DecodedValue {
  uint32_t id = 0;
  std::string dtype;
  std::vector<uint64_t> shape;
  /// How it is quantized (`per_tensor scale=0.5 zero_point=3`, ...); empty
  /// when it is not.
  std::string quant;
  /// A constant's bytes, where they are: in the payload, or under a key of
  /// named data.
  std::optional<uint64_t> constantBytes;
  /// Where those bytes are among the payload's, where they lie whole in it
  /// (decoders that know their constants' places say).
  std::optional<uint64_t> constantOffset;
  std::optional<std::string> namedKey;
  /// Its place among the delegate call's inputs or outputs.
  std::optional<uint32_t> externalInput, externalOutput;
};

/// A node of a decoded graph: an operator and its operands.
struct DecodedNode {
  uint32_t id = 0;
  std::string op;
  std::vector<uint32_t> inputs, outputs;
  /// Its other fields, in the schema's order.
  Fields attrs;
};

struct DecodedGraph {
  std::vector<DecodedNode> nodes;
  std::vector<DecodedValue> values;
};

/// A part of what a delegate call loads that its payload names but does not
/// hold: a key into named data (AOTI's shared library and weights).
struct NamedPart {
  /// `shared library`, `weights`, ...
  std::string name;
  std::string key;
  /// Whether the backend fails to load without it (else it goes on).
  bool required = true;
};

/// What a payload holds, as far as its decoder can tell.
struct DecodedPayload {
  /// The decoder that opened it (`XNNPACK`, `QNN`, ...); empty: opaque.
  std::string decoder;
  /// The magic it starts with or is identified by (`XH00`, `0x5678abcd`).
  std::string magic;
  /// Its bytes by part, in order, covering it; a part out of bounds is a
  /// problem instead.
  std::vector<PayloadRegion> regions;
  /// What it was built for, where it says (`version`, `soc`, ...).
  Fields target;
  std::optional<DecodedGraph> graph;
  /// What the call loads from named data, by key.
  std::vector<NamedPart> namedParts;
  /// Which of the call's arguments the backend reads and which it writes,
  /// where the payload says (a graph decoded).
  std::optional<CallArguments> arguments;
  std::vector<PayloadProblem> problems;

  /// The bytes of the regions named `name`.
  uint64_t getRegionBytes(StringRef name) const;
};

/// A delegate call's payload as a decoder sees it.
struct PayloadInput {
  StringRef backend;
  /// The payload's bytes (a view of the mapped file: only what a decoder
  /// touches is read).
  StringRef bytes;
  /// Whether to decode a graph, or only what the payload is made of.
  bool withGraph = true;
  /// The calling entry's compile specs (key, value), for a backend whose
  /// payload leaves to them what it names; none when the payload is
  /// described apart from an entry (then what they would name stays
  /// unknown).
  std::optional<ArrayRef<std::pair<StringRef, StringRef>>> compileSpecs;
};

/// How many first bytes of a payload tell its decoder: every magic lies
/// within them.
constexpr size_t kRecognizedBytes = 16;

/// One backend's payloads.
class PayloadDecoder {
public:
  virtual ~PayloadDecoder();
  /// The backend, as in DecodedPayload::decoder.
  virtual StringRef getName() const = 0;
  /// Whether this decoder reads `input`, by its backend id and its first
  /// kRecognizedBytes bytes (all `input.bytes` holds when asked).
  virtual bool recognizes(const PayloadInput &input) const = 0;
  /// Fills in what `input` holds.
  virtual void decode(const PayloadInput &input,
                      DecodedPayload &decoded) const = 0;
  /// Whether decode says which of a call's arguments the backend reads and
  /// writes (DecodedPayload::arguments): a view that needs only that
  /// decodes no other payload. By default it does not.
  virtual bool readsCallArguments() const;
  /// The compile spec keys whose values decode reads for `input` (it may
  /// look at the payload's size, not its bytes): entries that share a
  /// payload and agree on these decode to the same. By default none.
  virtual ArrayRef<StringRef>
  getCompileSpecKeysRead(const PayloadInput &input) const;
  /// The node of `graph` (a position in its nodes) each of a call's own
  /// profiling events times, the events named as the backend's runtime
  /// logs them; none for an event the decoder cannot place. By default it
  /// places none.
  virtual std::vector<std::optional<uint32_t>>
  joinEvents(const DecodedGraph &graph, ArrayRef<std::string> names) const;
};

/// Every decoder, in the order they are asked.
ArrayRef<const PayloadDecoder *> getPayloadDecoders();

/// The decoder that reads `input`, the first that recognizes it; none when
/// none does. Reads only its first kRecognizedBytes bytes, through
/// emit::copyFront.
const PayloadDecoder *findPayloadDecoder(const PayloadInput &input);

/// What `input` holds, by `decoder` (which recognizes it, as
/// findPayloadDecoder found it); opaque (one region) when null.
DecodedPayload decodePayloadWith(const PayloadDecoder *decoder,
                                 const PayloadInput &input);

/// What `input` holds, by the first decoder that recognizes it; opaque
/// (no decoder, one region) when none does. The first bytes are read
/// through emit::copyFront: a payload no decoder knows brings none of its
/// pages into the resident set.
DecodedPayload decodePayload(const PayloadInput &input);

/// The node of `payload`'s graph each of a delegate call's own profiling
/// events (`names`, in the run's order) times, by the decoder that opened
/// the payload; none for an event it cannot place, all none for a payload
/// without a graph.
std::vector<std::optional<uint32_t>>
joinDelegateEvents(const DecodedPayload &payload, ArrayRef<std::string> names);

/// What a delegate entry's compile spec says, by its backend's decoder.
/// Specs are per entry: entries that share a payload may differ in them.
struct DecodedCompileSpec {
  /// Its settings, in the schema's order (`soc`, `htp_arch`, ...).
  Fields settings;
  /// What is wrong with it, at byte offsets in its value.
  std::vector<PayloadProblem> problems;

  /// The settings as one line: `soc_model=SM8650, htp_arch=V75, ...`.
  std::string describe() const;
};

/// The compile spec `key` of an entry of `backend`, whose value is `value`,
/// decoded; std::nullopt when no decoder knows that backend's key.
std::optional<DecodedCompileSpec>
decodeCompileSpec(StringRef backend, StringRef key, StringRef value);

} // namespace emit::delegate

#endif // EMIT_DELEGATE_PAYLOADDECODER_H
