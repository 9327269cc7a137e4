//===- EthosUDecoder.cpp - Arm Ethos-U vela_bin_stream payloads -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An Ethos-U payload (backends/arm/runtime/VelaBinStream.*) is a stream of
// blocks, each a 32-byte header (a 16-byte name, the data's 4-byte size,
// after 1.4 an external flag, reserved bytes) and its data padded to 16:
// `vela_bin_stream` first, the command stream (`cmd_data`, starting COP1 or
// COP2), the weights, the scratch size (from 0.7; before, the scratch
// buffer itself, `scratch_data`), the inputs and outputs (a count and
// per tensor a 4-D, from 0.7 6-D, shape, element size, offset and region),
// `vela_end_stream` last and ending the payload. An external block's data
// is a 64-byte key into named data, a part the call loads. The stream is
// checked as vela_bin_validate checks it and its blocks read as
// vela_bin_read reads them; what either refuses is a problem here.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "llvm/ADT/StringExtras.h"

#include <string>

using namespace emit;
using namespace emit::delegate;

namespace {
constexpr uint64_t kBlockHeader = 32, kNameLength = 16, kSizeAt = 16,
                   kExternalAt = 20, kExternalKeyBytes = 64;
constexpr StringRef kStreamHeader = "vela_bin_stream",
                    kStreamFooter = "vela_end_stream";

uint64_t roundUp16(uint64_t value) { return (value + 15) / 16 * 16; }

/// One block of the stream, as its header says.
struct VelaBlock {
  uint64_t at = 0;
  std::string name;
  uint64_t size = 0;
  bool external = false;
  StringRef data;
};

class EthosUDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "Ethos-U"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.starts_with(kStreamHeader);
  }
  bool readsCallArguments() const override { return true; }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

/// Reads the stream's blocks into `decoded`.
class StreamReader {
public:
  StreamReader(StringRef bytes, DecodedPayload &decoded)
      : bytes(bytes), decoded(decoded), parts(bytes.size(), decoded) {}
  void read();

private:
  /// The block at `at`; none (and a problem) when its header or data runs
  /// past the payload.
  std::optional<VelaBlock> readBlock(uint64_t at);
  /// What a known block says; false (and a problem) for a block the runtime
  /// refuses.
  bool describe(const VelaBlock &block, bool first);
  void describeIOs(const VelaBlock &block);
  void set(const Twine &name, const Twine &value) {
    decoded.target.push_back({name.str(), value.str()});
  }

  /// Sets the call's arguments once the stream names both counts: the
  /// runtime reads its inputs from the first arguments and writes its
  /// outputs to those after them (EthosUBackend::execute).
  void setArguments();

  StringRef bytes;
  DecodedPayload &decoded;
  PayloadLayout parts;
  std::optional<uint64_t> inputCount, outputCount;
};
} // namespace

void StreamReader::setArguments() {
  if (!inputCount || !outputCount)
    return;
  CallArguments &arguments = decoded.arguments.emplace();
  arguments.inputs = countUp(*inputCount);
  arguments.outputs = countUp(*outputCount, *inputCount);
}

std::optional<VelaBlock> StreamReader::readBlock(uint64_t at) {
  if (bytes.size() - at < kBlockHeader) {
    addProblem(decoded, at,
               "a block header of " + Twine(kBlockHeader) + " bytes at " +
                   Twine(at) +
                   " runs past the payload: the runtime reads "
                   "past it");
    return std::nullopt;
  }
  VelaBlock block;
  block.at = at;
  StringRef name = bytes.substr(at, kNameLength);
  block.name = name.take_until([](char c) { return c == '\0'; }).str();
  block.size = readField(bytes, at + kSizeAt, 4);
  block.external = bytes[at + kExternalAt] == 1;
  parts.add("block header", at, kBlockHeader, at);
  // The runtime steps over the data padded to 16: all of it must be there.
  uint64_t dataAt = at + kBlockHeader;
  if (!parts.addPadded(block.name.empty() ? "block" : block.name, dataAt,
                       block.size, roundUp16(block.size), at + kSizeAt))
    return std::nullopt;
  block.data = bytes.substr(dataAt, block.size);
  return block;
}

void StreamReader::read() {
  uint64_t at = 0;
  for (bool first = true; at < bytes.size(); first = false) {
    std::optional<VelaBlock> block = readBlock(at);
    // What follows a block the runtime stops at is not read.
    uint64_t unread = std::min<uint64_t>(
        bytes.size(),
        block ? at + kBlockHeader + roundUp16(block->size) : at + kBlockHeader);
    if (!block || !describe(*block, first)) {
      if (bytes.size() - at < kBlockHeader)
        unread = at;
      if (unread < bytes.size())
        parts.add("unread", unread, bytes.size() - unread, at);
      return parts.finish();
    }
    at = unread;
    if (block->name == kStreamFooter) {
      if (at != bytes.size())
        addProblem(decoded, block->at,
                   "vela_end_stream ends at " + Twine(at) +
                       ", not at the "
                       "payload's end: the runtime refuses the payload");
      return parts.finish();
    }
  }
  addProblem(decoded, at,
             "the stream has no vela_end_stream block: the runtime refuses "
             "the payload");
  parts.finish();
}

bool StreamReader::describe(const VelaBlock &block, bool first) {
  auto refuse = [&](const Twine &why) {
    addProblem(decoded, block.at,
               "block '" + block.name + "': " + why +
                   ": the runtime refuses the payload");
    return false;
  };
  if (block.name == kStreamHeader)
    return first ? true : refuse("not the stream's first block");
  if (block.external) {
    if (block.size != kExternalKeyBytes)
      return refuse("an external block's key is " + Twine(block.size) +
                    " bytes, not " + Twine(kExternalKeyBytes));
    // The runtime loads the block's data from named data by this key.
    decoded.namedParts.push_back({block.name, block.data.str(), true});
    return true;
  }
  if (block.name == "cmd_data") {
    StringRef magic = block.data.take_front(4);
    if (magic != "COP1" && magic != "COP2")
      return refuse("the command stream does not start with COP1 or COP2");
    set("command stream", magic);
  } else if (block.name == "scratch_size") {
    if (block.size < 4)
      return refuse("holds " + Twine(block.size) + " bytes, not a 4-byte size");
    decoded.target.push_back(
        Field::integer("scratch_size", readField(block.data, 0, 4)));
  } else if (block.name == "scratch_data") {
    // 0.4 to 0.6 packed the scratch buffer itself; their runtimes read it.
    decoded.target.push_back(Field::integer("scratch_size", block.size));
    addProblem(decoded, block.at,
               "block 'scratch_data' holds the scratch buffer, as ExecuTorch "
               "0.4 to 0.6 wrote it: their runtimes read it, 0.7 and later "
               "refuse the payload");
  } else if (block.name == "inputs" || block.name == "outputs") {
    describeIOs(block);
  } else if (block.name != "weight_data" && block.name != kStreamFooter) {
    return refuse("not a block the runtime knows");
  }
  return true;
}

void StreamReader::describeIOs(const VelaBlock &block) {
  if (block.size < 4)
    return addProblem(decoded, block.at,
                      "block '" + block.name + "' has no tensor count");
  uint64_t count = readField(block.data, 0, 4);
  // A tensor: its shape (4-D up to 0.6, 6-D from 0.7), element size,
  // offset and region, each a 4-byte int.
  unsigned dims = 0;
  for (unsigned candidate : {6u, 4u})
    if (block.size == 4 + count * (candidate + 3) * 4)
      dims = candidate;
  if (!dims)
    return addProblem(decoded, block.at,
                      "block '" + block.name + "' of " + Twine(block.size) +
                          " bytes does not hold " + Twine(count) +
                          " tensors of a 4-D or 6-D shape");
  (block.name == "inputs" ? inputCount : outputCount) = count;
  setArguments();
  // For a reader `[1, 1, 5, 7] x 1 B; ...`; for a program a list of
  // {"shape": [...], "element_bytes": n}.
  SmallVector<std::string> texts, jsons;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t at = 4 + i * (dims + 3) * 4;
    SmallVector<int64_t> shape;
    for (unsigned d = 0; d < dims; ++d)
      shape.push_back(int32_t(readField(block.data, at + 4 * d, 4)));
    std::string elementBytes =
        std::to_string(int32_t(readField(block.data, at + 4 * dims, 4)));
    texts.push_back(formatIntegers(shape) + " x " + elementBytes + " B");
    jsons.push_back("{\"shape\": " + formatIntegers(shape) +
                    ", \"element_bytes\": " + elementBytes + "}");
  }
  decoded.target.push_back(Field::typed(block.name, llvm::join(texts, "; "),
                                        "[" + llvm::join(jsons, ", ") + "]"));
}

void EthosUDecoder::decode(const PayloadInput &input,
                           DecodedPayload &decoded) const {
  decoded.magic = kStreamHeader.str();
  if (input.bytes.size() % 16)
    addProblem(decoded, input.bytes.size(),
               "the stream's " + Twine(input.bytes.size()) +
                   " bytes are not a multiple of 16: the runtime refuses the "
                   "payload");
  StreamReader(input.bytes, decoded).read();
}

const PayloadDecoder &delegate::getEthosUDecoder() {
  static const EthosUDecoder decoder;
  return decoder;
}
