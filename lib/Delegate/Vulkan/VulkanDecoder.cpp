//===- VulkanDecoder.cpp - Vulkan delegate payloads -----------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A Vulkan payload (VulkanBackend and WebGPU share it): a 30-byte header
// (backends/vulkan/runtime/VulkanDelegateHeader.cpp: VH00 at byte 4, its
// own 2-byte size at 8, the flatbuffer's 4-byte offset and size at 10 and
// 14, the constant data's 4-byte offset and 8-byte size at 18 and 22), then
// a VK00 flatbuffer (schema/vulkan.fbs) and the constant data. The runtime
// refuses a payload without the header. Its header checks, and the checks
// VulkanBackend.cpp makes of each constant, are made here as problems.
//
// A node is an operator call: its last argument is its result (a tensor, or
// a list of them), the others what it reads; tensors (and the tensors of a
// list) are the node's operands, other arguments its attributes.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "emit/Delegate/vulkan_generated.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace emit;
using namespace emit::delegate;
namespace vk = emit_vulkan;

namespace {
constexpr StringRef kHeaderMagic = "VH00";
constexpr StringRef kGraphMagic = "VK00";
constexpr uint64_t kHeaderBytes = 30;
/// A constant's offset that sends the runtime to named data.
constexpr uint64_t kNamedDataOffset = UINT64_MAX;

class VulkanDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "Vulkan"; }
  bool recognizes(const PayloadInput &input) const override {
    StringRef magic = input.bytes.substr(4, 4);
    return magic == kHeaderMagic || magic == kGraphMagic;
  }
  bool readsCallArguments() const override { return true; }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

/// Reads the payload's flatbuffer into a graph.
class GraphReader {
public:
  GraphReader(StringRef payload, PayloadRegion constants,
              DecodedPayload &decoded)
      : payload(payload), constants(constants), decoded(decoded) {}
  void read(const vk::VkGraph &graph);

private:
  void readTensor(const vk::VkTensor &tensor, uint32_t id);
  void readConstant(const vk::VkTensor &tensor, DecodedValue &value);
  void readNode(const vk::OperatorCall &call, uint32_t id);
  /// Adds `call`'s argument at `position` to `node` as operands (a tensor,
  /// or the tensors of a list) or as the attribute `arg<position>`.
  void readArgument(const vk::OperatorCall &call, DecodedNode &node,
                    uint32_t position, bool isResult);
  /// The value `id` that `call` names, or null (a problem) when the graph
  /// has none.
  const vk::VkValue *getValue(const vk::OperatorCall &call,
                              const DecodedNode &node, int32_t id);
  void markExternal(const flatbuffers::Vector<uint32_t> *ids, bool isInput);
  uint64_t offsetOf(const void *table) const {
    return static_cast<const char *>(table) - payload.data();
  }

  StringRef payload;
  PayloadRegion constants;
  DecodedPayload &decoded;
  const vk::VkGraph *xgraph = nullptr;
  DecodedGraph graph;
};

/// Bytes per element of `type` (vkapi::element_size), 0 for one the
/// runtime does not know.
uint64_t getElementBytes(vk::VkDataType type) {
  switch (type) {
  case vk::VkDataType::BOOL:
  case vk::VkDataType::UINT8:
  case vk::VkDataType::INT8:
    return 1;
  case vk::VkDataType::FLOAT16:
    return 2;
  case vk::VkDataType::INT32:
  case vk::VkDataType::FLOAT32:
    return 4;
  case vk::VkDataType::FLOAT64:
  case vk::VkDataType::INT64:
    return 8;
  case vk::VkDataType::UNSET:
    break;
  }
  return 0;
}

template <typename Vector, typename Format>
std::string formatList(const Vector *items, Format format) {
  std::string text = "[";
  if (items)
    llvm::interleave(
        *items, [&](auto item) { text += format(item); },
        [&] { text += ", "; });
  return text + "]";
}

/// A value that is not a tensor, as an attribute's text.
std::string formatScalar(const vk::VkValue &value) {
  using T = vk::GraphTypes;
  auto number = [](auto v) { return std::to_string(v); };
  // A union may name its type and hold no table (the verifier lets it).
  if (!value.value())
    return value.value_type() == T::Null ? "none" : "missing";
  switch (value.value_type()) {
  case T::Null:
    return "none";
  case T::Int:
    return std::to_string(value.value_as_Int()->int_val());
  case T::Double:
    return formatFloat(value.value_as_Double()->double_val());
  case T::Bool:
    return value.value_as_Bool()->bool_val() ? "true" : "false";
  case T::IntList:
    return formatList(value.value_as_IntList()->items(), number);
  case T::DoubleList:
    return formatList(value.value_as_DoubleList()->items(),
                      [](double item) { return formatFloat(item); });
  case T::BoolList:
    return formatList(value.value_as_BoolList()->items(),
                      [](uint8_t v) { return v ? "true" : "false"; });
  case T::String: {
    const flatbuffers::String *text = value.value_as_String()->string_val();
    return "'" + (text ? text->str() : std::string()) + "'";
  }
  case T::SymInt:
    return "symint " + std::to_string(value.value_as_SymInt()->value());
  case T::VkTensor:
  case T::ValueList:
  case T::NONE:
    break;
  }
  return "?";
}

/// Whether every item of a list of doubles has a JSON number.
bool allFinite(const flatbuffers::Vector<double> *items) {
  return !items ||
         llvm::all_of(*items, [](double v) { return std::isfinite(v); });
}

/// A value that is not a tensor, as an attribute: its text, and its JSON
/// where it is not a string (a number, a list, null, {"symint": n}).
Field readScalar(std::string name, const vk::VkValue &value) {
  using T = vk::GraphTypes;
  std::string text = formatScalar(value);
  switch (value.value() ? value.value_type() : T::NONE) {
  case T::Null:
    return Field::typed(std::move(name), text, "null");
  case T::Int:
  case T::Bool:
  case T::IntList:
  case T::BoolList:
    return Field::typed(std::move(name), text, text);
  case T::Double:
    return Field::real(std::move(name), value.value_as_Double()->double_val(),
                       text);
  case T::DoubleList:
    if (!allFinite(value.value_as_DoubleList()->items()))
      return Field(std::move(name), text);
    return Field::typed(std::move(name), text, text);
  case T::String: {
    const flatbuffers::String *string = value.value_as_String()->string_val();
    return Field::typed(std::move(name), text,
                        formatJSONString(string ? string->str() : ""));
  }
  case T::SymInt:
    return Field::typed(
        std::move(name), text,
        "{\"symint\": " + std::to_string(value.value_as_SymInt()->value()) +
            "}");
  default:
    return Field(std::move(name), text);
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

void GraphReader::readConstant(const vk::VkTensor &tensor,
                               DecodedValue &value) {
  int32_t index = tensor.constant_id();
  if (index < 0)
    return;
  const auto *table = xgraph->constants();
  if (!table || uint32_t(index) >= table->size())
    return addProblem(decoded, offsetOf(&tensor),
                      "value " + Twine(value.id) + "'s constant " +
                          Twine(index) + " is past the graph's constants (" +
                          Twine(table ? table->size() : 0) +
                          " entries): the runtime reads past the table",
                      ProblemEffect::Undefined);
  const vk::VkBytes &entry = *table->Get(index);
  value.constantBytes = entry.length();
  // As VulkanBackend.cpp: a key with the offset UINT64_MAX is a name in
  // named data; otherwise the offset is into the constant data, and the
  // tensor's bytes by its dims must fit there.
  if (entry.named_key() && entry.offset() == kNamedDataOffset) {
    value.namedKey = entry.named_key()->str();
    return;
  }
  uint64_t bytes = getElementBytes(tensor.datatype());
  bool fits = entry.offset() < constants.size;
  uint64_t room = fits ? constants.size - entry.offset() : 0;
  if (const auto *dims = tensor.dims())
    for (uint32_t dim : *dims) {
      fits &= dim == 0 || bytes <= room / dim;
      bytes *= dim;
    }
  if (!fits || bytes > room)
    addProblem(decoded, offsetOf(&entry),
               "value " + Twine(value.id) + "'s constant (offset " +
                   Twine(entry.offset()) + ", " + value.dtype +
                   " of its shape) does not fit in the " +
                   Twine(constants.size) +
                   "-byte constant data: the runtime refuses the payload");
  else if (entry.length() <= room)
    value.constantOffset = constants.offset + entry.offset();
}

void GraphReader::readTensor(const vk::VkTensor &tensor, uint32_t id) {
  DecodedValue value;
  value.id = id;
  value.dtype = vk::EnumNameVkDataType(tensor.datatype());
  if (value.dtype.empty() || !getElementBytes(tensor.datatype()))
    value.dtype = "datatype " + std::to_string(int(tensor.datatype()));
  if (const auto *dims = tensor.dims())
    value.shape.assign(dims->begin(), dims->end());
  readConstant(tensor, value);
  graph.values.push_back(std::move(value));
}

const vk::VkValue *GraphReader::getValue(const vk::OperatorCall &call,
                                         const DecodedNode &node, int32_t id) {
  const auto *values = xgraph->values();
  if (id >= 0 && values && uint32_t(id) < values->size())
    return values->Get(id);
  addProblem(decoded, offsetOf(&call),
             "operator call " + Twine(node.id) + " (" + node.op +
                 ") names value " + Twine(id) + ", which the graph (" +
                 Twine(values ? values->size() : 0) +
                 " values) does not have: the runtime reads past the table",
             ProblemEffect::Undefined);
  return nullptr;
}

void GraphReader::markExternal(const flatbuffers::Vector<uint32_t> *ids,
                               bool isInput) {
  if (!ids)
    return;
  for (auto [place, id] : llvm::enumerate(*ids)) {
    // The tensors are in id order.
    auto value = llvm::partition_point(
        graph.values, [&](const DecodedValue &v) { return v.id < id; });
    if (value == graph.values.end() || value->id != id) {
      addProblem(decoded, offsetOf(ids),
                 Twine(isInput ? "input " : "output ") + Twine(place) +
                     " is value " + Twine(id) +
                     ", which is not a tensor of the graph");
      continue;
    }
    (isInput ? value->externalInput : value->externalOutput) = place;
  }
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

void GraphReader::readArgument(const vk::OperatorCall &call, DecodedNode &node,
                               uint32_t position, bool isResult) {
  std::vector<uint32_t> &operands = isResult ? node.outputs : node.inputs;
  int32_t id = call.args()->Get(position);
  const vk::VkValue *value = getValue(call, node, id);
  if (!value || value->value_type() == vk::GraphTypes::VkTensor)
    return operands.push_back(id);
  if (const vk::ValueList *list = value->value_as_ValueList()) {
    if (const auto *items = list->items())
      for (int32_t item : *items)
        if (getValue(call, node, item))
          operands.push_back(item);
    return;
  }
  node.attrs.push_back(readScalar("arg" + std::to_string(position), *value));
}

void GraphReader::readNode(const vk::OperatorCall &call, uint32_t id) {
  DecodedNode node;
  node.id = id;
  node.op = call.name() ? call.name()->str() : std::string();
  if (const auto *args = call.args())
    for (uint32_t position = 0; position < args->size(); ++position)
      readArgument(call, node, position, position + 1 == args->size());
  node.attrs.push_back(Field::integer("node_id", call.node_id()));
  graph.nodes.push_back(std::move(node));
}

void GraphReader::read(const vk::VkGraph &root) {
  xgraph = &root;
  if (root.version())
    decoded.target.push_back({"graph version", root.version()->str()});
  if (const auto *shaders = root.shaders(); shaders && shaders->size())
    decoded.target.push_back(Field::integer("shaders", shaders->size()));
  if (const auto *values = root.values())
    for (auto [id, value] : llvm::enumerate(*values)) {
      if (const vk::VkTensor *tensor = value->value_as_VkTensor())
        readTensor(*tensor, id);
      else if (!value->value() && value->value_type() != vk::GraphTypes::Null)
        addProblem(decoded, offsetOf(value),
                   "value " + Twine(id) + " is of type " +
                       vk::EnumNameGraphTypes(value->value_type()) +
                       " but holds no table: the runtime reads through a "
                       "null pointer",
                   ProblemEffect::Undefined);
    }
  markExternal(root.input_ids(), /*isInput=*/true);
  markExternal(root.output_ids(), /*isInput=*/false);
  // VulkanBackend::execute reads its inputs from the first arguments and
  // writes its outputs to the last ones.
  CallArguments &arguments = decoded.arguments.emplace();
  arguments.inputs = countUp(root.input_ids() ? root.input_ids()->size() : 0);
  arguments.outputs =
      countUp(root.output_ids() ? root.output_ids()->size() : 0);
  arguments.outputsFromEnd = true;
  if (const auto *chain = root.chain())
    for (auto [id, call] : llvm::enumerate(*chain))
      readNode(*call, id);
  decoded.graph = std::move(graph);
}

//===----------------------------------------------------------------------===//
// The payload
//===----------------------------------------------------------------------===//

/// Lays out the header's parts, checked as VulkanDelegateHeader::parse
/// checks them; the graph's region and the constants', or none when the
/// runtime refuses the header.
static std::optional<std::pair<PayloadRegion, PayloadRegion>>
readHeader(StringRef bytes, DecodedPayload &decoded) {
  if (!fitsHeader(bytes, kHeaderBytes, "Vulkan", decoded))
    return std::nullopt;
  uint64_t headerSize = readField(bytes, 8, 2);
  PayloadRegion graph{"graph", readField(bytes, 10, 4),
                      readField(bytes, 14, 4)};
  PayloadRegion data{"constants", readField(bytes, 18, 4),
                     readField(bytes, 22, 8)};
  // A constant size of 0 is the rest of the payload.
  if (data.size == 0 && data.offset < bytes.size())
    data.size = bytes.size() - data.offset;
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, kHeaderBytes, 0);
  bool fits = parts.add(graph.name, graph.offset, graph.size, 10);
  fits &= parts.add(data.name, data.offset, data.size, 18);
  parts.finish();
  auto refuse = [&](uint64_t at, const Twine &text) {
    addProblem(decoded, at, text + ": the runtime refuses the payload");
    fits = false;
  };
  if (headerSize < kHeaderBytes)
    refuse(8, "the header says it is " + Twine(headerSize) +
                  " bytes, fewer than 30");
  else if (graph.offset < headerSize)
    refuse(10, "the graph starts at " + Twine(graph.offset) + ", inside the " +
                   Twine(headerSize) + "-byte header");
  if (graph.size == 0)
    refuse(14, "the graph is empty");
  else if (data.offset < graph.offset + graph.size)
    refuse(18, "the constants start at " + Twine(data.offset) +
                   ", before the graph ends at " +
                   Twine(graph.offset + graph.size));
  if (!fits)
    return std::nullopt;
  return std::make_pair(graph, data);
}

void VulkanDecoder::decode(const PayloadInput &input,
                           DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = bytes.substr(4, 4).str();
  if (decoded.magic == kGraphMagic) {
    decoded.regions.push_back({"graph", 0, bytes.size()});
    return addProblem(decoded, 0,
                      "the payload is a VK00 graph without the VH00 header "
                      "the Vulkan runtime requires: it refuses the payload");
  }
  auto parts = readHeader(bytes, decoded);
  if (!parts || !input.withGraph)
    return;
  auto [graph, constants] = *parts;
  StringRef buffer = bytes.substr(graph.offset, graph.size);
  if (buffer.substr(4, 4) != kGraphMagic)
    return addProblem(decoded, graph.offset + 4,
                      "the graph's identifier (bytes " +
                          llvm::toHex(buffer.substr(4, 4), /*LowerCase=*/true) +
                          ") is not VK00: the runtime refuses the payload");
  if (const auto *root = getVerifiedRoot<vk::VkGraph>(
          buffer, graph.offset, decoded.problems, "graph's flatbuffer",
          ": the runtime refuses the payload"))
    GraphReader(bytes, constants, decoded).read(*root);
}

const PayloadDecoder &delegate::getVulkanDecoder() {
  static const VulkanDecoder decoder;
  return decoder;
}
