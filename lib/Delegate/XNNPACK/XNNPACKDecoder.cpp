//===- XNNPACKDecoder.cpp - XNNPACK delegate payloads ---------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An XNNPACK payload (backends/xnnpack/runtime/XNNHeader.cpp): a 30-byte
// header (XH00 at byte 4; the flatbuffer's 4-byte offset and size at 10
// and 14, the constant data's 4-byte offset and 8-byte size at 18 and 22)
// followed by its parts; without the header, the payload is the flatbuffer,
// its constants inside it. The flatbuffer (schema/xnnpack.fbs) is verified
// as the runtime verifies it, then read into nodes and values.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "emit/Delegate/xnnpack_generated.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace emit;
using namespace emit::delegate;
namespace xnn = emit_xnnpack;

namespace {
constexpr StringRef kHeaderMagic = "XH00";
constexpr uint64_t kHeaderBytes = 30;
/// The smallest flatbuffer: a root offset and an identifier.
constexpr uint64_t kMinGraphBytes = 8;
/// An operand a node does not have (XNN_INVALID_VALUE_ID).
constexpr uint32_t kNoValue = std::numeric_limits<uint32_t>::max();

class XNNPACKDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "XNNPACK"; }
  bool recognizes(const PayloadInput &input) const override {
    StringRef magic = input.bytes.substr(4, 4);
    return magic == kHeaderMagic || magic == "XN00" || magic == "XN01";
  }
  bool readsCallArguments() const override { return true; }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
  std::vector<std::optional<uint32_t>>
  joinEvents(const DecodedGraph &graph,
             ArrayRef<std::string> names) const override {
    return joinXNNPACKEvents(graph, names);
  }
};

/// Reads the payload's flatbuffer into a graph.
class GraphReader {
public:
  GraphReader(StringRef payload, std::optional<PayloadRegion> constants,
              DecodedPayload &decoded)
      : payload(payload), constants(constants), decoded(decoded) {}
  void read(const xnn::XNNGraph &graph);

private:
  void readValue(const xnn::XNNGraph &xgraph, const xnn::XValue &value);
  void readConstant(const xnn::XNNGraph &graph,
                    const xnn::XNNTensorValue &tensor, DecodedValue &value);
  void readNode(const xnn::XNode &xnode, uint32_t id);
  /// The byte offset in the payload of a table of the flatbuffer.
  uint64_t offsetOf(const void *table) const {
    return static_cast<const char *>(table) - payload.data();
  }

  StringRef payload;
  std::optional<PayloadRegion> constants;
  DecodedPayload &decoded;
  DecodedGraph graph;
  /// The values' ids (their id_out, by which nodes name them).
  llvm::DenseSet<uint32_t> valueIds;
};

/// A node's operands and attributes, in its table's field order.
class NodeFields {
public:
  explicit NodeFields(DecodedNode &node) : node(node) {}
  void in(uint32_t id) {
    if (id != kNoValue)
      node.inputs.push_back(id);
  }
  void out(uint32_t id) { node.outputs.push_back(id); }
  void attr(StringRef name, std::string value) {
    node.attrs.push_back({name.str(), std::move(value)});
  }
  void attr(StringRef name, uint32_t value) {
    node.attrs.push_back(Field::integer(name.str(), value));
  }
  void attr(StringRef name, float value) {
    node.attrs.push_back(Field::real(name.str(), value, formatFloat(value)));
  }
  /// `[a, b, ...]`: a field group (padding, kernel, stride, ...) as one.
  void attr(StringRef name, std::initializer_list<uint32_t> values) {
    node.attrs.push_back(Field::integers(
        name.str(), SmallVector<int64_t>(values.begin(), values.end())));
  }
  void attr(StringRef name, const flatbuffers::Vector<uint32_t> *values) {
    SmallVector<int64_t> list;
    if (values)
      list.assign(values->begin(), values->end());
    node.attrs.push_back(Field::integers(name.str(), list));
  }

private:
  DecodedNode &node;
};
} // namespace

//===----------------------------------------------------------------------===//
// Nodes: each table of the schema, its fields in order
//===----------------------------------------------------------------------===//

static void readFields(const xnn::Node1x1 &t, NodeFields &f) {
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::Node2x1 &t, NodeFields &f) {
  f.in(t.input1_id());
  f.in(t.input2_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::NodeCat &t, NodeFields &f, unsigned count) {
  f.attr("axis", t.axis());
  uint32_t inputs[] = {t.input1_id(), t.input2_id(), t.input3_id(),
                       t.input4_id(), t.input5_id()};
  for (uint32_t id : ArrayRef(inputs).take_front(count))
    f.in(id);
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::NodeConv &t, NodeFields &f) {
  f.attr("padding", {t.padding_top(), t.padding_right(), t.padding_bottom(),
                     t.padding_left()});
  f.attr("kernel", {t.kernel_height(), t.kernel_width()});
  f.attr("subsampling", {t.subsampling_height(), t.subsampling_width()});
  f.attr("dilation", {t.dilation_height(), t.dilation_width()});
  f.attr("group_input_channels", t.group_input_channels());
  f.attr("group_output_channels", t.group_output_channels());
  f.attr("groups", t.groups());
  f.attr("adjustment", {t.adjustment_height(), t.adjustment_width()});
  f.in(t.input1_id());
  f.in(t.filter_id());
  f.in(t.bias_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::NodePooling2D &t, NodeFields &f) {
  f.attr("padding", {t.padding_top(), t.padding_right(), t.padding_bottom(),
                     t.padding_left()});
  f.attr("pooling", {t.pooling_height(), t.pooling_width()});
  f.attr("stride", {t.stride_height(), t.stride_width()});
  f.attr("dilation", {t.dilation_height(), t.dilation_width()});
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNFullyConnected &t, NodeFields &f) {
  f.in(t.input1_id());
  f.in(t.filter_id());
  f.in(t.bias_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNStaticTranspose &t, NodeFields &f) {
  f.attr("perm", t.perm());
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNStaticResizeBilinear2D &t, NodeFields &f) {
  f.attr("new_height", t.new_height());
  f.attr("new_width", t.new_width());
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNStaticConstantPad &t, NodeFields &f) {
  f.attr("pre_paddings", t.pre_paddings());
  f.attr("post_paddings", t.post_paddings());
  f.attr("padding_value", t.padding_value());
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNStaticReshape &t, NodeFields &f) {
  f.attr("new_shape", t.new_shape());
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNStaticSlice &t, NodeFields &f) {
  f.attr("offsets", t.offsets());
  f.attr("sizes", t.sizes());
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNArgMaxPooling2d &t, NodeFields &f) {
  f.attr("padding", {t.padding_top(), t.padding_right(), t.padding_bottom(),
                     t.padding_left()});
  f.attr("pooling", {t.pooling_height(), t.pooling_width()});
  f.in(t.input_id());
  f.out(t.output_value_id());
  f.out(t.output_index_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNLeakyReLU &t, NodeFields &f) {
  f.attr("negative_slope", t.negative_slope());
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNELU &t, NodeFields &f) {
  f.attr("alpha", t.alpha());
  f.in(t.input_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

static void readFields(const xnn::XNNScaledDotProductAttention &t,
                       NodeFields &f) {
  f.in(t.query_id());
  f.in(t.key_id());
  f.in(t.value_id());
  f.in(t.scale_id());
  f.in(t.mask_id());
  f.out(t.output_id());
  f.attr("flags", t.flags());
}

/// Reads the table behind `xnode`'s union as a `Table`.
template <typename Table, typename... Extra>
static void readAs(const xnn::XNode &xnode, NodeFields &fields,
                   Extra... extra) {
  readFields(*static_cast<const Table *>(xnode.xnode_union()), fields,
             extra...);
}

using Tag = xnn::XNodeUnion;

/// The operators whose tables are their own.
static bool readOtherNodeFields(const xnn::XNode &xnode, NodeFields &fields) {
  switch (xnode.xnode_union_type()) {
  case Tag::XNNConcatenate2:
    readAs<xnn::NodeCat>(xnode, fields, 2u);
    return true;
  case Tag::XNNConcatenate3:
    readAs<xnn::NodeCat>(xnode, fields, 3u);
    return true;
  case Tag::XNNConcatenate4:
    readAs<xnn::NodeCat>(xnode, fields, 4u);
    return true;
  case Tag::XNNConcatenate5:
    readAs<xnn::NodeCat>(xnode, fields, 5u);
    return true;
  case Tag::XNNFullyConnected:
    readAs<xnn::XNNFullyConnected>(xnode, fields);
    return true;
  case Tag::XNNStaticTranspose:
    readAs<xnn::XNNStaticTranspose>(xnode, fields);
    return true;
  case Tag::XNNStaticResizeBilinear2D:
    readAs<xnn::XNNStaticResizeBilinear2D>(xnode, fields);
    return true;
  case Tag::XNNStaticConstantPad:
    readAs<xnn::XNNStaticConstantPad>(xnode, fields);
    return true;
  case Tag::XNNStaticReshape:
    readAs<xnn::XNNStaticReshape>(xnode, fields);
    return true;
  case Tag::XNNStaticSlice:
    readAs<xnn::XNNStaticSlice>(xnode, fields);
    return true;
  case Tag::XNNArgMaxPooling2d:
    readAs<xnn::XNNArgMaxPooling2d>(xnode, fields);
    return true;
  case Tag::XNNLeakyReLU:
    readAs<xnn::XNNLeakyReLU>(xnode, fields);
    return true;
  case Tag::XNNELU:
    readAs<xnn::XNNELU>(xnode, fields);
    return true;
  case Tag::XNNScaledDotProductAttention:
    readAs<xnn::XNNScaledDotProductAttention>(xnode, fields);
    return true;
  default:
    return false;
  }
}

/// Operators whose tables are alike, by kind.
static constexpr Tag kUnary[] = {Tag::XNNSoftmax,
                                 Tag::XNNSigmoid,
                                 Tag::XNNClamp,
                                 Tag::XNNFloor,
                                 Tag::XNNConvert,
                                 Tag::XNNGlobalAvgPooling2d,
                                 Tag::XNNSquareRoot,
                                 Tag::XNNCeiling,
                                 Tag::XNNHardswish,
                                 Tag::XNNNegate,
                                 Tag::XNNSquare,
                                 Tag::XNNAbs,
                                 Tag::XNNReciprocalSquareRoot,
                                 Tag::XNNLog,
                                 Tag::XNNGelu,
                                 Tag::XNNTanh,
                                 Tag::XNNExp,
                                 Tag::XNNSin,
                                 Tag::XNNCopy,
                                 Tag::XNNCos};
static constexpr Tag kBinary[] = {
    Tag::XNNAdd,      Tag::XNNDiv,
    Tag::XNNMinimum,  Tag::XNNMultiply,
    Tag::XNNSubtract, Tag::XNNMaximum,
    Tag::XNNPReLU,    Tag::XNNBatchMatrixMultiply};
static constexpr Tag kConvolution[] = {Tag::XNNConv2d, Tag::XNNDepthwiseConv2d,
                                       Tag::XNNConvTranspose2d};
static constexpr Tag kPooling[] = {Tag::XNNAvgPooling2d, Tag::XNNMaxPooling2d};

/// Reads the fields of the table `xnode` holds; false for a tag this schema
/// does not know (a newer writer's operator).
static bool readNodeFields(const xnn::XNode &xnode, NodeFields &fields) {
  Tag tag = xnode.xnode_union_type();
  if (llvm::is_contained(kUnary, tag))
    readAs<xnn::Node1x1>(xnode, fields);
  else if (llvm::is_contained(kBinary, tag))
    readAs<xnn::Node2x1>(xnode, fields);
  else if (llvm::is_contained(kConvolution, tag))
    readAs<xnn::NodeConv>(xnode, fields);
  else if (llvm::is_contained(kPooling, tag))
    readAs<xnn::NodePooling2D>(xnode, fields);
  else
    return readOtherNodeFields(xnode, fields);
  return true;
}

void GraphReader::readNode(const xnn::XNode &xnode, uint32_t id) {
  DecodedNode node;
  node.id = id;
  NodeFields fields(node);
  if (!xnode.xnode_union() || !readNodeFields(xnode, fields)) {
    node.op = "unknown";
    addProblem(decoded, offsetOf(&xnode),
               "xnode " + Twine(id) + " is of operator tag " +
                   Twine(unsigned(xnode.xnode_union_type())) +
                   ", which this decoder does not know",
               ProblemEffect::Unknown);
  } else {
    node.op = StringRef(xnn::EnumNameXNodeUnion(xnode.xnode_union_type()))
                  .drop_front(3) // "XNN"
                  .str();
  }
  fields.attr("debug_handle", xnode.debug_handle());
  if (const xnn::OutputMinMax *range = xnode.output_min_max()) {
    fields.attr("output_min", range->output_min());
    fields.attr("output_max", range->output_max());
  }
  for (uint32_t operand :
       llvm::concat<const uint32_t>(node.inputs, node.outputs))
    if (!valueIds.contains(operand))
      addProblem(decoded, offsetOf(&xnode),
                 "xnode " + Twine(id) + " (" + node.op + ") names value " +
                     Twine(operand) + ", which the graph does not have");
  graph.nodes.push_back(std::move(node));
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

static std::string describeQuant(const xnn::XNNQuantizedTensorValue &value) {
  using Kind = xnn::XNNQuantParams;
  // A union may name its type and hold no table (the verifier lets it).
  if (!value.quant_params())
    return "missing";
  switch (value.quant_params_type()) {
  case Kind::PerTensorQuant: {
    const auto *q = value.quant_params_as_PerTensorQuant();
    return llvm::formatv("per_tensor scale={0} zero_point={1}",
                         formatFloat(q->scale()), q->zero_point());
  }
  case Kind::PerChannelQuant: {
    const auto *q = value.quant_params_as_PerChannelQuant();
    uint32_t scales = q->scale() ? q->scale()->size() : q->num_scales();
    return llvm::formatv("per_channel channel_dim={0} scales={1}",
                         q->channel_dim(), scales);
  }
  case Kind::PerChannelGroupQuant: {
    const auto *q = value.quant_params_as_PerChannelGroupQuant();
    uint32_t scales = q->scale() ? q->scale()->size() : q->num_scales();
    return llvm::formatv(
        "per_channel_group channel_dim={0} group_size={1} scales={2}",
        q->channel_dim(), q->group_size(), scales);
  }
  case Kind::PerTokenDynamicQuant:
    return llvm::formatv(
        "per_token_dynamic num_nonbatch_dims={0}",
        value.quant_params_as_PerTokenDynamicQuant()->num_nonbatch_dims());
  case Kind::NONE:
    break;
  }
  return "unknown";
}

void GraphReader::readConstant(const xnn::XNNGraph &xgraph,
                               const xnn::XNNTensorValue &tensor,
                               DecodedValue &value) {
  uint32_t index = tensor.constant_buffer_idx();
  if (index == 0)
    return;
  // With a header, constants are in constant_data; without, in the
  // flatbuffer's own buffers, as the runtime reads them.
  if (!constants) {
    const auto *buffers = xgraph.constant_buffer();
    if (!buffers || index >= buffers->size() || !buffers->Get(index) ||
        !buffers->Get(index)->storage())
      return addProblem(decoded, offsetOf(&tensor),
                        "value " + Twine(value.id) + "'s constant buffer " +
                            Twine(index) + " is not in the graph");
    const auto *storage = buffers->Get(index)->storage();
    value.constantBytes = storage->size();
    value.constantOffset =
        reinterpret_cast<const char *>(storage->data()) - payload.data();
    return;
  }
  const auto *data = xgraph.constant_data();
  if (!data || index >= data->size() || !data->Get(index))
    return addProblem(decoded, offsetOf(&tensor),
                      "value " + Twine(value.id) + "'s constant " +
                          Twine(index) + " is past constant_data (" +
                          Twine(data ? data->size() : 0) + " entries)");
  const xnn::ConstantDataOffset &entry = *data->Get(index);
  value.constantBytes = entry.size();
  // The runtime takes a present key, even an empty one, as a name in
  // named data (ExecuTorch's serializer writes "" for a constant in the
  // payload).
  if (entry.named_key()) {
    value.namedKey = entry.named_key()->str();
    if (value.namedKey->empty())
      addProblem(decoded, offsetOf(&entry),
                 "value " + Twine(value.id) +
                     "'s constant has an empty named key: the XNNPACK "
                     "runtime looks for it under the key '' in named data, "
                     "not at offset " +
                     Twine(entry.offset()) + " of the constant data");
    return;
  }
  if (entry.offset() > constants->size ||
      entry.size() > constants->size - entry.offset())
    return addProblem(decoded, offsetOf(&entry),
                      "value " + Twine(value.id) + "'s constant (offset " +
                          Twine(entry.offset()) + ", " + Twine(entry.size()) +
                          " bytes) does not fit in the " +
                          Twine(constants->size) + "-byte constant data");
  value.constantOffset = constants->offset + entry.offset();
}

void GraphReader::readValue(const xnn::XNNGraph &xgraph,
                            const xnn::XValue &xvalue) {
  const xnn::XNNTensorValue *tensor = xvalue.xvalue_union_as_XNNTensorValue();
  const xnn::XNNQuantizedTensorValue *quantized =
      xvalue.xvalue_union_as_XNNQuantizedTensorValue();
  if (quantized)
    tensor = quantized->tensor_value();
  DecodedValue value;
  if (!tensor) {
    addProblem(decoded, offsetOf(&xvalue),
               "xvalue " + Twine(graph.values.size()) + " holds no tensor");
    return;
  }
  value.id = tensor->id_out();
  if (!valueIds.insert(value.id).second)
    addProblem(decoded, offsetOf(tensor),
               "two xvalues are value " + Twine(value.id));
  value.dtype = xnn::EnumNameXNNDatatype(tensor->datatype());
  if (value.dtype.empty())
    value.dtype = "datatype " + std::to_string(int(tensor->datatype()));
  if (const auto *dims = tensor->dims())
    value.shape.assign(dims->begin(), dims->end());
  if (quantized) {
    value.quant = describeQuant(*quantized);
    if (!quantized->quant_params())
      addProblem(decoded, offsetOf(quantized),
                 "value " + Twine(value.id) +
                     " is quantized but holds no parameters: the runtime "
                     "reads through a null pointer",
                 ProblemEffect::Undefined);
  }
  if (tensor->flags() & 1)
    value.externalInput = tensor->external_id();
  if (tensor->flags() & 2)
    value.externalOutput = tensor->external_id();
  readConstant(xgraph, *tensor, value);
  graph.values.push_back(std::move(value));
}

void GraphReader::read(const xnn::XNNGraph &xgraph) {
  if (xgraph.version())
    decoded.target.push_back({"graph version", xgraph.version()->str()});
  if (const auto *values = xgraph.xvalues())
    for (const xnn::XValue *xvalue : *values)
      readValue(xgraph, *xvalue);
  if (const auto *nodes = xgraph.xnodes())
    for (auto [id, xnode] : llvm::enumerate(*nodes))
      readNode(*xnode, id);
  // The runtime (XNNCompiler's defineTensor, XNNExecutor::prepare_args)
  // takes the call's argument at each external value's id, inputs and
  // outputs in the order of the values.
  CallArguments &arguments = decoded.arguments.emplace();
  for (const DecodedValue &value : graph.values) {
    if (value.externalInput)
      arguments.inputs.push_back(*value.externalInput);
    if (value.externalOutput)
      arguments.outputs.push_back(*value.externalOutput);
  }
  decoded.graph = std::move(graph);
}

//===----------------------------------------------------------------------===//
// The payload
//===----------------------------------------------------------------------===//

/// Lays out a payload with an XH00 header; the graph's region, or none
/// when the header does not fit.
static std::optional<PayloadRegion>
readHeader(StringRef bytes, DecodedPayload &decoded,
           std::optional<PayloadRegion> &constants) {
  if (!fitsHeader(bytes, kHeaderBytes, "XNNPACK", decoded))
    return std::nullopt;
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, kHeaderBytes, 0);
  PayloadRegion graph{"graph", readField(bytes, 10, 4),
                      readField(bytes, 14, 4)};
  PayloadRegion data{"constants", readField(bytes, 18, 4),
                     readField(bytes, 22, 8)};
  bool graphFits = parts.add(graph.name, graph.offset, graph.size, 10);
  if (parts.add(data.name, data.offset, data.size, 18))
    constants = data;
  parts.finish();
  if (graphFits && graph.size < kMinGraphBytes) {
    addProblem(decoded, 14,
               "the graph's " + Twine(graph.size) +
                   " bytes are fewer than a flatbuffer's 8");
    return std::nullopt;
  }
  if (!graphFits || !constants)
    return std::nullopt;
  return graph;
}

void XNNPACKDecoder::decode(const PayloadInput &input,
                            DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  std::optional<PayloadRegion> constants;
  std::optional<PayloadRegion> graph;
  if (bytes.substr(4, 4) == kHeaderMagic) {
    decoded.magic = kHeaderMagic.str();
    graph = readHeader(bytes, decoded, constants);
  } else {
    decoded.magic = bytes.substr(4, 4).str();
    graph = PayloadRegion{"graph", 0, bytes.size()};
    decoded.regions.push_back(*graph);
  }
  if (!graph || !input.withGraph)
    return;
  StringRef buffer = bytes.substr(graph->offset, graph->size);
  StringRef identifier = buffer.substr(4, 4);
  if (identifier != "XN00" && identifier != "XN01")
    return addProblem(decoded, graph->offset + 4,
                      "the graph's identifier (bytes " +
                          llvm::toHex(identifier, /*LowerCase=*/true) +
                          ") is not XN00 or XN01");
  if (const auto *root = getVerifiedRoot<xnn::XNNGraph>(
          buffer, graph->offset, decoded.problems, "graph's flatbuffer"))
    GraphReader(bytes, constants, decoded).read(*root);
}

const PayloadDecoder &delegate::getXNNPACKDecoder() {
  static const XNNPACKDecoder decoder;
  return decoder;
}
