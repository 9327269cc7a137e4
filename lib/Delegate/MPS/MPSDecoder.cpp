//===- MPSDecoder.cpp - Apple MPS payloads
//---------------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An MPS payload (backends/apple/mps) is an MPSGraph flatbuffer (identifier
// MP00) of nodes over values. Since 0.4 it follows a 24-byte header whose
// magic is the same MP00 at byte 4 (MPSDelegateHeader: its first four
// bytes zero, the constant segment's offset and size), the constants in a
// segment after the flatbuffer; the runtime takes every payload with MP00
// at byte 4 for a header, refuses one under 30 bytes, and reads the
// flatbuffer from byte 24 unverified. 0.2 and 0.3 wrote the flatbuffer
// alone (its first four bytes, the root's offset, are never zero), with an
// older layout (schema/mps.fbs: MPSGraphV0) and data type numbering.
//
// A node's operands are its fields named `*_id` (one value) and `*_ids`,
// `indices_id` (a list), outputs those named `output*`; its other fields
// are attributes. The fields are read through the generated type tables,
// so one reader serves every operator.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "emit/Delegate/mps_generated.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <numeric>

using namespace emit;
using namespace emit::delegate;

namespace mps = emit_mps;

namespace {
constexpr StringRef kMagic = "MP00";
constexpr uint64_t kHeaderBytes = 24, kMinPayloadBytes = 30;

/// The data types by number: from 0.4 (with a header), and before.
constexpr const char *kDtypes[] = {
    "invalid",         "float16",        "float32", "float64",
    "bfloat16",        "int4",           "int8",    "int16",
    "int32",           "int64",          "uint4",   "uint8",
    "uint16",          "uint32",         "uint64",  "bool",
    "complex_float16", "complex_float32"};
constexpr const char *kDtypesV0[] = {
    "invalid", "float16", "float32",         "bfloat16",
    "int8",    "int16",   "int32",           "int64",
    "uint8",   "bool",    "complex_float16", "complex_float32"};

class MPSDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "MPS"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.substr(4, 4) == kMagic;
  }
  bool readsCallArguments() const override { return true; }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

/// Reads a verified MPSGraph (or MPSGraphV0) into a graph.
class GraphReader {
public:
  GraphReader(StringRef payload, bool headerless, DecodedPayload &decoded)
      : payload(payload), headerless(headerless), decoded(decoded) {}
  /// The node union of the layout read, and, where a headerless graph
  /// reads as both 0.2's and 0.3's, the other one's.
  const flatbuffers::TypeTable *unionType = mps::MPSNodeUnionTypeTable();
  const flatbuffers::TypeTable *otherUnionType = nullptr;
  template <typename Graph>
  void read(const Graph &root);
  /// Reads a tensor's constant: in the segment at `segmentOffset`, or in
  /// the flatbuffer.
  void readConstant(DecodedValue &value, uint64_t bytes, uint64_t segmentOffset,
                    const mps::Buffer *inlineBuffer, const void *at);
  /// The segment the header announces, once checked.
  std::optional<PayloadRegion> segment;

private:
  template <typename Node>
  void readNode(const Node &node, uint32_t id);
  std::string getDtypeName(int16_t dtype) const;
  uint64_t offsetOf(const void *table) const {
    return static_cast<const char *>(table) - payload.data();
  }

  StringRef payload;
  bool headerless;
  DecodedPayload &decoded;
  DecodedGraph graph;
};
} // namespace

std::string GraphReader::getDtypeName(int16_t dtype) const {
  ArrayRef<const char *> names =
      headerless ? ArrayRef(kDtypesV0) : ArrayRef(kDtypes);
  if (dtype >= 0 && size_t(dtype) < names.size())
    return names[dtype];
  return "dtype " + std::to_string(dtype);
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

/// Fields of a shared table that an operator's writer never sets (an
/// absent field reads as value 0) and its runtime never reads: ReLU's table
/// is _MPSNode2x1, Full's has FullLike's input.
static bool isUnusedField(StringRef op, StringRef field) {
  return (op == "ReLU" && field == "input2_id") ||
         (op == "Full" && field == "input1_id");
}

namespace {
/// Reads one node table's fields by its type table.
class FieldReader {
public:
  FieldReader(const flatbuffers::Table &table, DecodedNode &node,
              llvm::function_ref<std::string(int16_t)> dtypeName)
      : table(table), node(node), dtypeName(dtypeName) {}
  void read(const flatbuffers::TypeTable &type);

private:
  void readFields(const flatbuffers::TypeTable &type);
  void readOperands(StringRef name, bool list, flatbuffers::voffset_t field);
  Field readAttr(StringRef name, flatbuffers::ElementaryType type, bool list,
                 flatbuffers::voffset_t field) const;

  const flatbuffers::Table &table;
  DecodedNode &node;
  llvm::function_ref<std::string(int16_t)> dtypeName;
  /// The field each output came from.
  std::vector<StringRef> outputNames;
};
} // namespace

void FieldReader::read(const flatbuffers::TypeTable &type) {
  readFields(type);
  // Outputs in the order their names number them: BatchNorm's fields are
  // output2_id, output1_id, output3_id.
  std::vector<size_t> order(node.outputs.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return outputNames[a] < outputNames[b];
  });
  std::vector<uint32_t> outputs;
  for (size_t position : order)
    outputs.push_back(node.outputs[position]);
  node.outputs = std::move(outputs);
}

void FieldReader::readFields(const flatbuffers::TypeTable &type) {
  for (size_t i = 0; i < type.num_elems; ++i) {
    StringRef name = type.names[i];
    auto base = flatbuffers::ElementaryType(type.type_codes[i].base_type);
    bool list = type.type_codes[i].is_repeating;
    auto field = flatbuffers::voffset_t(
        flatbuffers::FieldIndexToOffset(flatbuffers::voffset_t(i)));
    bool operand = base == flatbuffers::ET_INT &&
                   (name.ends_with("_id") || name.ends_with("_ids"));
    if (isUnusedField(node.op, name))
      continue;
    if (operand)
      readOperands(name, list, field);
    else
      node.attrs.push_back(readAttr(name, base, list, field));
  }
}

void FieldReader::readOperands(StringRef name, bool list,
                               flatbuffers::voffset_t field) {
  bool output = name.starts_with("output");
  std::vector<uint32_t> &operands = output ? node.outputs : node.inputs;
  // A negative id is no operand (an absent bias); an absent field is 0, as
  // the runtime reads it.
  auto add = [&](int32_t id) {
    if (id < 0)
      return;
    operands.push_back(uint32_t(id));
    if (output)
      outputNames.push_back(name);
  };
  if (!list)
    return add(table.GetField<int32_t>(field, 0));
  if (const auto *ids =
          table.GetPointer<const flatbuffers::Vector<int32_t> *>(field))
    for (int32_t id : *ids)
      add(id);
}

Field FieldReader::readAttr(StringRef name, flatbuffers::ElementaryType type,
                            bool list, flatbuffers::voffset_t field) const {
  using flatbuffers::Vector;
  std::string key = name.str();
  if (list) {
    if (type != flatbuffers::ET_INT)
      return Field(key, "[...]");
    SmallVector<int64_t> items;
    if (const auto *values = table.GetPointer<const Vector<int32_t> *>(field))
      items.assign(values->begin(), values->end());
    return Field::integers(key, items);
  }
  switch (type) {
  case flatbuffers::ET_BOOL:
    return Field::boolean(key, table.GetField<uint8_t>(field, 0));
  case flatbuffers::ET_SHORT: {
    int16_t value = table.GetField<int16_t>(field, 0);
    return name.ends_with("dtype") ? Field(key, dtypeName(value))
                                   : Field::integer(key, int64_t(value));
  }
  case flatbuffers::ET_INT:
    return Field::integer(key, table.GetField<int32_t>(field, 0));
  case flatbuffers::ET_LONG:
    return Field::integer(key, table.GetField<int64_t>(field, 0));
  case flatbuffers::ET_FLOAT: {
    float value = table.GetField<float>(field, 0.0f);
    return Field::real(key, value, formatFloat(value));
  }
  case flatbuffers::ET_STRING: {
    const auto *text = table.GetPointer<const flatbuffers::String *>(field);
    return Field(key, text ? text->str() : "");
  }
  default:
    return Field(key, "?");
  }
}

/// An operator's name in `unionType`: `Add` for MPSAdd.
static std::string getOpName(const flatbuffers::TypeTable &unionType,
                             unsigned tag) {
  return StringRef(unionType.names[tag]).drop_front(3).str(); // "MPS"
}

template <typename Node>
void GraphReader::readNode(const Node &mpsNode, uint32_t id) {
  DecodedNode node;
  node.id = id;
  unsigned tag = unsigned(mpsNode.mpsnode_union_type());
  const auto *table =
      static_cast<const flatbuffers::Table *>(mpsNode.mpsnode_union());
  std::string other = otherUnionType && tag < otherUnionType->num_elems
                          ? getOpName(*otherUnionType, tag)
                          : "";
  if (!table || tag == 0 || tag >= unionType->num_elems) {
    node.op = "unknown";
    addProblem(decoded, offsetOf(&mpsNode),
               "node " + Twine(id) + " is of operator tag " + Twine(tag) +
                   ", which this decoder does not know",
               ProblemEffect::Unknown);
  } else if (otherUnionType && other != getOpName(*unionType, tag)) {
    // Which release wrote it, the file does not say: the table is read as
    // neither operator's.
    node.op = getOpName(*unionType, tag) + " (0.3) or " +
              (other.empty() ? "none" : other) + " (0.2)";
  } else {
    node.op = getOpName(*unionType, tag);
    const flatbuffers::TypeCode &code = unionType->type_codes[tag];
    auto dtypeName = [this](int16_t dtype) { return getDtypeName(dtype); };
    FieldReader(*table, node, dtypeName)
        .read(*unionType->type_refs[code.sequence_ref]());
  }
  if (const mps::MPSMinMax *range = mpsNode.min_max()) {
    node.attrs.push_back(Field::real("min_value", range->min_value(),
                                     formatFloat(range->min_value())));
    node.attrs.push_back(Field::real("max_value", range->max_value(),
                                     formatFloat(range->max_value())));
  }
  // The runtime indexes its tensors by these ids unchecked.
  for (uint32_t operand :
       llvm::concat<const uint32_t>(node.inputs, node.outputs))
    if (operand >= graph.values.size())
      addProblem(decoded, offsetOf(&mpsNode),
                 "node " + Twine(id) + " (" + node.op + ") names value " +
                     Twine(operand) + " of " + Twine(graph.values.size()) +
                     ": the runtime indexes past its values",
                 ProblemEffect::Undefined);
  graph.nodes.push_back(std::move(node));
}

//===----------------------------------------------------------------------===//
// Values and the graph
//===----------------------------------------------------------------------===//

void GraphReader::readConstant(DecodedValue &value, uint64_t bytes,
                               uint64_t segmentOffset,
                               const mps::Buffer *inlineBuffer,
                               const void *at) {
  if (!bytes)
    return;
  value.constantBytes = bytes;
  if (inlineBuffer && inlineBuffer->storage() &&
      inlineBuffer->storage()->size()) {
    if (inlineBuffer->storage()->size() < bytes)
      addProblem(decoded, offsetOf(at),
                 "value " + Twine(value.id) + "'s constant of " + Twine(bytes) +
                     " bytes has " + Twine(inlineBuffer->storage()->size()) +
                     " in the flatbuffer: the runtime reads past them",
                 ProblemEffect::Undefined);
    return;
  }
  if (headerless)
    return addProblem(decoded, offsetOf(at),
                      "value " + Twine(value.id) + "'s constant of " +
                          Twine(bytes) + " bytes has none in the flatbuffer");
  if (!segment || segmentOffset > segment->size ||
      bytes > segment->size - segmentOffset)
    addProblem(decoded, offsetOf(at),
               "value " + Twine(value.id) + "'s constant (segment offset " +
                   Twine(segmentOffset) + ", " + Twine(bytes) +
                   " bytes) runs past the constant segment: the runtime "
                   "reads past it",
               ProblemEffect::Undefined);
}

template <typename Graph>
void GraphReader::read(const Graph &root) {
  if (root.version())
    decoded.target.push_back({"graph version", root.version()->str()});
  decoded.target.push_back(
      {"graph type", mps::EnumNameOpType(root.graph_type())});
  if (const auto *values = root.mps_values())
    for (auto [id, tensor] : llvm::enumerate(*values)) {
      DecodedValue value;
      value.id = id;
      value.dtype = getDtypeName(tensor->datatype());
      if (const auto *dims = tensor->dims())
        for (int32_t dim : *dims)
          value.shape.push_back(uint64_t(std::max(dim, 0)));
      uint64_t segmentOffset = 0;
      if constexpr (std::is_same_v<Graph, mps::MPSGraph>)
        segmentOffset = tensor->segment_offset();
      readConstant(value, uint64_t(tensor->constant_buffer_size()),
                   segmentOffset, tensor->constant_buffer(), tensor);
      graph.values.push_back(std::move(value));
    }
  auto mark = [&](const flatbuffers::Vector<int32_t> *ids, bool input) {
    if (ids)
      for (auto [position, id] : llvm::enumerate(*ids))
        if (id >= 0 && size_t(id) < graph.values.size())
          (input ? graph.values[id].externalInput
                 : graph.values[id].externalOutput) = position;
  };
  mark(root.input_ids(), true);
  mark(root.output_ids(), false);
  // MPSBackend::execute takes the call's tensor arguments in order: its
  // inputs, then its outputs.
  CallArguments &arguments = decoded.arguments.emplace();
  arguments.counting = CallArguments::Counting::Tensors;
  uint64_t inputs = root.input_ids() ? root.input_ids()->size() : 0;
  arguments.inputs = countUp(inputs);
  arguments.outputs =
      countUp(root.output_ids() ? root.output_ids()->size() : 0, inputs);
  if (const auto *nodes = root.mps_nodes())
    for (auto [id, node] : llvm::enumerate(*nodes))
      readNode(*node, id);
  decoded.graph = std::move(graph);
}

//===----------------------------------------------------------------------===//
// The payload
//===----------------------------------------------------------------------===//

/// Lays out a payload with the MP00 header; the flatbuffer's bytes, or
/// none when the runtime refuses the header.
static std::optional<StringRef>
readHeader(StringRef bytes, DecodedPayload &decoded,
           std::optional<PayloadRegion> &segment) {
  if (bytes.size() < kMinPayloadBytes) {
    addProblem(decoded, 0,
               "the payload's " + Twine(bytes.size()) +
                   " bytes are fewer than the " + Twine(kMinPayloadBytes) +
                   " the runtime's MPSDelegateHeader::Parse requires: it "
                   "refuses the payload");
    decoded.regions.push_back({"opaque", 0, bytes.size()});
    return std::nullopt;
  }
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, kHeaderBytes, 0);
  PayloadRegion constants{"constants", readField(bytes, 8, 8),
                          readField(bytes, 16, 8)};
  // The flatbuffer runs from the header to the segment (or the end).
  uint64_t graphEnd =
      constants.offset >= kHeaderBytes && constants.offset <= bytes.size()
          ? constants.offset
          : bytes.size();
  parts.add("graph", kHeaderBytes, graphEnd - kHeaderBytes, 0);
  if (parts.add(constants.name, constants.offset, constants.size, 8))
    segment = constants;
  parts.finish();
  return bytes.slice(kHeaderBytes, graphEnd);
}

/// Whether `buffer` verifies as a `Root`.
template <typename Root>
static bool verifies(StringRef buffer) {
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(buffer.data()), buffer.size());
  return verifier.VerifyBuffer<Root>(nullptr);
}

/// Reads a graph without a header as 0.3's layout or 0.2's, whichever it
/// verifies as; as 0.3's, naming both operators where they differ, when
/// it verifies as both.
static void readHeaderless(StringRef buffer, GraphReader &reader,
                           DecodedPayload &decoded) {
  bool as03 = verifies<mps::MPSGraphV0>(buffer);
  bool as02 = verifies<mps::MPSGraphV02>(buffer);
  if (as02 && !as03) {
    decoded.target.push_back({"schema", "0.2"});
    reader.unionType = mps::MPSNodeUnionV02TypeTable();
    return reader.read(*flatbuffers::GetRoot<mps::MPSGraphV02>(buffer.data()));
  }
  if (as03 && as02)
    reader.otherUnionType = mps::MPSNodeUnionV02TypeTable();
  decoded.target.push_back(
      {"schema", as02 ? "0.2 or 0.3: the graph reads as either" : "0.3"});
  if (const auto *root = getVerifiedRoot<mps::MPSGraphV0>(
          buffer, 0, decoded.problems, "graph's flatbuffer",
          ": the runtime reads it unverified", ProblemEffect::Undefined))
    reader.read(*root);
}

void MPSDecoder::decode(const PayloadInput &input,
                        DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = kMagic.str();
  // A flatbuffer's root offset is never zero; the header's first bytes are.
  bool headerless = readField(bytes, 0, 4) != 0;
  std::optional<PayloadRegion> segment;
  std::optional<StringRef> buffer;
  if (headerless) {
    decoded.target.push_back(
        {"layout", "no header (0.2 or 0.3): 0.4 and later runtimes refuse it"});
    decoded.regions.push_back({"graph", 0, bytes.size()});
    buffer = bytes;
  } else {
    buffer = readHeader(bytes, decoded, segment);
  }
  if (!buffer || !input.withGraph)
    return;
  uint64_t at = buffer->data() - bytes.data();
  if (buffer->size() < 8)
    return addProblem(decoded, at,
                      "the graph's " + Twine(buffer->size()) +
                          " bytes are fewer than a flatbuffer's 8: the "
                          "runtime reads past them",
                      ProblemEffect::Undefined);
  if (buffer->substr(4, 4) != kMagic)
    return addProblem(decoded, at + 4,
                      "the graph's identifier (bytes " +
                          llvm::toHex(buffer->substr(4, 4), true) +
                          ") is not MP00: the runtime refuses the payload");
  GraphReader reader(bytes, headerless, decoded);
  reader.segment = segment;
  StringRef consequence = ": the runtime reads it unverified";
  if (!headerless) {
    if (const auto *root = getVerifiedRoot<mps::MPSGraph>(
            *buffer, at, decoded.problems, "graph's flatbuffer", consequence))
      reader.read(*root);
    return;
  }
  readHeaderless(*buffer, reader, decoded);
}

const PayloadDecoder &delegate::getMPSDecoder() {
  static const MPSDecoder decoder;
  return decoder;
}
