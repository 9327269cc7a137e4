//===- MLXDecoder.cpp - Apple MLX payloads --------------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An MLX payload (backends/mlx/serialization/MLXLoader.cpp.tmpl) is a
// 24-byte header (4 zero bytes, the magic MLX0, the data segment's 8-byte
// offset and size), the MLXGraph flatbuffer (schema/mlx.fbs) up to that
// offset, and the data segment (unused so far: constants come from named
// data). The runtime refuses a data offset at or before the header's end or
// past the payload, then verifies the flatbuffer.
//
// The graph's values are its tensor slots (value id = Tid) followed by its
// scalar slots (value id = tensor count + Vid). Its nodes are the
// instructions of every chain: the init chain's, the main chain's, then
// those of the chains a Scan or an If runs. An operand written as a literal
// or a slot (IntOrVid and its kin) is an attribute, the slot also an input;
// in attribute text `%N` names value N. A dynamic dimension reads as its
// upper bound, as ExecuTorch sizes dynamic tensors (0 when unbounded).
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"
#include "ReflectedFields.h"

#include "emit/Delegate/mlx_bfbs_generated.h"
#include "emit/Delegate/mlx_generated.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace emit;
using namespace emit::delegate;

namespace mlx = emit_mlx;

namespace {
constexpr uint64_t kHeaderBytes = 24;
constexpr uint64_t kDataOffsetAt = 8, kDataSizeAt = 16;
/// The runtime's caps on counts and ranks (MLXLoader's load_program).
constexpr uint64_t kMaxCollection = 1'000'000;
constexpr size_t kMaxRank = 16;

class MLXDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "MLX"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.substr(4, 4) == "MLX0";
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

//===----------------------------------------------------------------------===//
// Operators, from the binary schema
//===----------------------------------------------------------------------===//

/// How an instruction field is read.
enum class FieldKind {
  Tensor,   // Tid
  Value,    // Vid
  Tensors,  // [Tid]
  IntOrVid, // and [IntOrVid]
  FloatOrVid,
  VidOrTid,
  IntOrVidOrTid,
  Scalar, // bool, integers, floats, and lists of integers
  String, // and [string]
  Unknown,
};

/// What an operand field is to its node.
enum class FieldRole { Input, Output, InputOutput, Attribute };

struct FieldInfo {
  const reflection::Field *field;
  FieldKind kind;
  FieldRole role;
  bool list;
};

struct OperatorInfo {
  std::string name;
  std::vector<FieldInfo> fields;
};

const reflection::Schema &getSchema() {
  return *reflection::GetSchema(mlx::MLXGraphBinarySchema::data());
}

FieldKind getKind(const reflection::Schema &schema, reflection::BaseType type,
                  int32_t index) {
  using namespace reflection;
  if (type == String)
    return FieldKind::String;
  if (type != Obj)
    return type >= Bool && type <= Double ? FieldKind::Scalar
                                          : FieldKind::Unknown;
  return llvm::StringSwitch<FieldKind>(
             schema.objects()->Get(index)->name()->string_view())
      .Case("emit_mlx.Tid", FieldKind::Tensor)
      .Case("emit_mlx.Vid", FieldKind::Value)
      .Case("emit_mlx.IntOrVid", FieldKind::IntOrVid)
      .Case("emit_mlx.FloatOrVid", FieldKind::FloatOrVid)
      .Case("emit_mlx.VidOrTid", FieldKind::VidOrTid)
      .Case("emit_mlx.IntOrVidOrTid", FieldKind::IntOrVidOrTid)
      .Default(FieldKind::Unknown);
}

/// What an instruction writes is named `out`, `outs` or `outputs`; a Scan
/// reads and writes its `carry`; the `sliced` slots its body reads are the
/// runtime's, not the Scan's operands.
FieldRole getRole(StringRef name, FieldKind kind) {
  if (kind != FieldKind::Tensor && kind != FieldKind::Value &&
      kind != FieldKind::Tensors)
    return FieldRole::Attribute;
  if (name == "out" || name == "outs" || name == "outputs")
    return FieldRole::Output;
  if (name == "carry")
    return FieldRole::InputOutput;
  if (name == "sliced")
    return FieldRole::Attribute;
  return FieldRole::Input;
}

OperatorInfo readOperator(const reflection::Schema &schema,
                          const reflection::EnumVal &member) {
  OperatorInfo info{member.name()->str(), {}};
  const reflection::Object *table =
      schema.objects()->Get(member.union_type()->index());
  for (const reflection::Field *field : getFieldsInOrder(*table)) {
    const reflection::Type &type = *field->type();
    bool list = type.base_type() == reflection::Vector;
    auto element = list ? type.element() : type.base_type();
    FieldKind kind = getKind(schema, element, type.index());
    if (list && kind == FieldKind::Tensor)
      kind = FieldKind::Tensors;
    info.fields.push_back(
        {field, kind, getRole(field->name()->string_view(), kind), list});
  }
  return info;
}

/// The operators by union tag (0: none).
ArrayRef<OperatorInfo> getOperators() {
  static const std::vector<OperatorInfo> operators = [] {
    const reflection::Schema &schema = getSchema();
    const reflection::Enum *union_ =
        schema.enums()->LookupByKey("emit_mlx.OpNode");
    std::vector<OperatorInfo> result(union_->values()->size());
    for (const reflection::EnumVal *member : *union_->values())
      if (member->value() > 0 && size_t(member->value()) < result.size())
        result[member->value()] = readOperator(schema, *member);
    return result;
  }();
  return operators;
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

/// Reads a verified MLXGraph into a graph.
class GraphReader {
public:
  GraphReader(StringRef payload, DecodedPayload &decoded)
      : payload(payload), decoded(decoded) {}
  void read(const mlx::MLXGraph &root);

private:
  bool readCounts(const mlx::MLXGraph &root);
  void readTensors(const mlx::MLXGraph &root);
  void readSlots(const mlx::MLXGraph &root);
  void readChains(const mlx::MLXGraph &root);
  void readInstruction(const mlx::Instruction &instruction, StringRef chain);
  void readField(const flatbuffers::Table &table, const FieldInfo &info,
                 DecodedNode &node);
  void addOperand(DecodedNode &node, FieldRole role, uint32_t value);
  std::string formatSlot(const mlx::IntOrVid *item, DecodedNode &node);
  std::string formatSlot(const mlx::FloatOrVid &item, DecodedNode &node);
  std::string formatSlot(const mlx::VidOrTid &item, DecodedNode &node);
  std::string formatSlot(const mlx::IntOrVidOrTid &item, DecodedNode &node);
  /// A slot an attribute names, an input of its node once.
  std::string reference(uint32_t value, DecodedNode &node) {
    if (!llvm::is_contained(node.inputs, value))
      addOperand(node, FieldRole::Input, value);
    return "%" + std::to_string(value);
  }
  uint64_t offsetOf(const void *at) const {
    return static_cast<const char *>(at) - payload.data();
  }

  StringRef payload;
  DecodedPayload &decoded;
  DecodedGraph graph;
  uint32_t numTensors = 0;
  /// The node being read, for its problems.
  const void *at = nullptr;
};
} // namespace

bool GraphReader::readCounts(const mlx::MLXGraph &root) {
  uint64_t tensors = uint64_t(root.num_constant_tensors()) +
                     root.num_input_tensors() + root.num_output_tensors() +
                     root.num_mutable_buffer_tensors() +
                     root.num_temp_tensors();
  for (auto [what, count] : {std::pair<StringRef, uint64_t>{"tensors", tensors},
                             {"values", root.num_values()}})
    if (count > kMaxCollection) {
      addProblem(decoded, offsetOf(&root),
                 "the graph's " + Twine(count) + " " + what +
                     " exceed the runtime's limit of " + Twine(kMaxCollection) +
                     ": it refuses the payload");
      return false;
    }
  numTensors = uint32_t(tensors);
  graph.values.resize(tensors + root.num_values());
  for (auto [id, value] : llvm::enumerate(graph.values))
    value.id = uint32_t(id);
  for (size_t id = tensors; id < graph.values.size(); ++id)
    graph.values[id].dtype = "scalar";
  return true;
}

void GraphReader::readTensors(const mlx::MLXGraph &root) {
  if (!root.tensor_meta())
    return;
  for (auto [tid, meta] : llvm::enumerate(*root.tensor_meta())) {
    if (!meta || tid >= numTensors)
      continue;
    DecodedValue &value = graph.values[tid];
    value.dtype = getScalarTypeName(meta->scalar_type());
    if (meta->shape()->size() > kMaxRank) {
      addProblem(decoded, offsetOf(meta),
                 "tensor " + Twine(tid) + "'s rank " +
                     Twine(meta->shape()->size()) + " exceeds the runtime's " +
                     Twine(kMaxRank) + ": it refuses the payload");
      continue;
    }
    bool fixed = true;
    for (const mlx::ShapeDim *dim : *meta->shape()) {
      if (dim->value() < -1)
        addProblem(decoded, offsetOf(dim),
                   "tensor " + Twine(tid) + " has dimension " +
                       Twine(dim->value()) + ": the runtime refuses it");
      fixed &= dim->value() >= 0;
      int32_t size = dim->value() >= 0 ? dim->value() : dim->max_value();
      value.shape.push_back(uint64_t(std::max(size, 0)));
    }
    if (tid < root.num_constant_tensors() && fixed)
      if (std::optional<uint64_t> bytes =
              getScalarTypeBytes(meta->scalar_type())) {
        uint64_t elements = 1;
        for (uint64_t size : value.shape)
          elements *= size;
        value.constantBytes = elements * *bytes;
      }
  }
}

void GraphReader::readSlots(const mlx::MLXGraph &root) {
  auto valueOf = [&](const mlx::SlotVariant &slot) -> DecodedValue * {
    uint64_t id = slot.slot_type() == mlx::SlotType::TensorSlot
                      ? slot.idx()
                      : uint64_t(numTensors) + slot.idx();
    return id < graph.values.size() ? &graph.values[id] : nullptr;
  };
  auto mark = [&](const auto *map, StringRef what, bool input) {
    if (!map)
      return;
    for (auto [position, slot] : llvm::enumerate(*map)) {
      DecodedValue *value = valueOf(*slot);
      if (!value) {
        addProblem(decoded, offsetOf(slot),
                   "the " + what + " map's slot " + Twine(position) +
                       " names slot " + Twine(slot->idx()) +
                       " past the graph's: the runtime refuses it");
        continue;
      }
      (input ? value->externalInput : value->externalOutput) =
          uint32_t(position);
    }
  };
  mark(root.input_map(), "input", true);
  mark(root.output_map(), "output", false);
  if (root.named_slots())
    for (const mlx::NamedSlot *slot : *root.named_slots())
      if (slot->slot()->slot_type() == mlx::SlotType::TensorSlot &&
          slot->slot()->idx() < root.num_constant_tensors())
        graph.values[slot->slot()->idx()].namedKey = slot->name()->str();
  for (uint32_t tid = 0; tid < root.num_constant_tensors(); ++tid) {
    if (graph.values[tid].namedKey)
      continue;
    // Its bytes are in no place the runtime looks.
    graph.values[tid].constantBytes.reset();
    addProblem(decoded, offsetOf(&root),
               "constant tensor " + Twine(tid) +
                   " has no name among the graph's named slots: the "
                   "runtime cannot load it from named data");
  }
}

void GraphReader::addOperand(DecodedNode &node, FieldRole role,
                             uint32_t value) {
  if (value >= graph.values.size())
    addProblem(decoded, offsetOf(at),
               "node " + Twine(node.id) + " (" + node.op + ") names value " +
                   Twine(value) + " of " + Twine(graph.values.size()) +
                   ": the runtime indexes past its slots",
               ProblemEffect::Undefined);
  if (role != FieldRole::Output)
    node.inputs.push_back(value);
  if (role == FieldRole::Output || role == FieldRole::InputOutput)
    node.outputs.push_back(value);
}

std::string GraphReader::formatSlot(const mlx::IntOrVid *item,
                                    DecodedNode &node) {
  if (!item)
    return "?";
  if (item->is_vid() && item->vid())
    return reference(numTensors + item->vid()->idx(), node);
  return std::to_string(item->literal());
}

std::string GraphReader::formatSlot(const mlx::FloatOrVid &item,
                                    DecodedNode &node) {
  if (item.is_vid() && item.vid())
    return reference(numTensors + item.vid()->idx(), node);
  return formatFloat(item.literal());
}

std::string GraphReader::formatSlot(const mlx::VidOrTid &item,
                                    DecodedNode &node) {
  if (item.is_vid())
    return item.vid() ? reference(numTensors + item.vid()->idx(), node) : "?";
  return item.tid() ? reference(item.tid()->idx(), node) : "?";
}

std::string GraphReader::formatSlot(const mlx::IntOrVidOrTid &item,
                                    DecodedNode &node) {
  switch (item.kind()) {
  case 0:
    return std::to_string(item.literal());
  case 1:
    return item.vid() ? reference(numTensors + item.vid()->idx(), node) : "?";
  case 2:
    return item.tid() ? reference(item.tid()->idx(), node) : "?";
  default:
    addProblem(decoded, offsetOf(&item),
               "node " + Twine(node.id) + " (" + node.op +
                   ") has an operand of kind " + Twine(unsigned(item.kind())) +
                   ", none of literal (0), value (1) or tensor (2)");
    return "?";
  }
}

/// `[a, b, ...]` of `items`, each formatted by `format`.
template <typename Vector, typename Format>
static std::string formatList(const Vector *items, Format format) {
  std::string text = "[";
  if (items)
    for (auto [i, item] : llvm::enumerate(*items))
      text += (i ? ", " : "") + format(item);
  return text + "]";
}

/// Fields that hold ExecuTorch ScalarTypes.
static bool isDtypeField(StringRef name) {
  return name == "scalar_type" || name == "dtype" || name == "out_dtype" ||
         name == "output_dtypes";
}

void GraphReader::readField(const flatbuffers::Table &table,
                            const FieldInfo &info, DecodedNode &node) {
  using flatbuffers::Offset;
  using flatbuffers::Vector;
  uint16_t at = info.field->offset();
  std::string name = info.field->name()->str();
  auto tensors = [&] {
    return table.GetPointer<const Vector<const mlx::Tid *> *>(at);
  };
  switch (info.kind) {
  case FieldKind::Tensor:
  case FieldKind::Value:
    if (const auto *slot = table.GetStruct<const mlx::Tid *>(at))
      addOperand(node, info.role,
                 (info.kind == FieldKind::Value ? numTensors : 0) +
                     slot->idx());
    return;
  case FieldKind::Tensors:
    if (info.role == FieldRole::Attribute)
      return node.attrs.push_back(Field::fromDisplay(
          name, formatList(tensors(), [](const mlx::Tid *tid) {
            return "%" + std::to_string(tid->idx());
          })));
    if (const auto *slots = tensors())
      for (const mlx::Tid *tid : *slots)
        addOperand(node, info.role, tid->idx());
    return;
  case FieldKind::IntOrVid:
    if (info.list)
      return node.attrs.push_back(Field::fromDisplay(
          name, formatList(
                    table.GetPointer<const Vector<Offset<mlx::IntOrVid>> *>(at),
                    [&](const mlx::IntOrVid *item) {
                      return formatSlot(item, node);
                    })));
    if (const auto *item = table.GetPointer<const mlx::IntOrVid *>(at))
      node.attrs.push_back(Field::fromDisplay(name, formatSlot(item, node)));
    return;
  case FieldKind::FloatOrVid:
    if (const auto *item = table.GetPointer<const mlx::FloatOrVid *>(at))
      node.attrs.push_back(Field::fromDisplay(name, formatSlot(*item, node)));
    return;
  case FieldKind::VidOrTid:
    if (const auto *item = table.GetPointer<const mlx::VidOrTid *>(at))
      node.attrs.push_back(Field::fromDisplay(name, formatSlot(*item, node)));
    return;
  case FieldKind::IntOrVidOrTid:
    if (const auto *item = table.GetPointer<const mlx::IntOrVidOrTid *>(at))
      node.attrs.push_back(Field::fromDisplay(name, formatSlot(*item, node)));
    return;
  case FieldKind::String:
  case FieldKind::Scalar: {
    auto dtype = [](int64_t type) { return getScalarTypeName(type); };
    std::optional<Field> field = delegate::readField(
        name, getSchema(), table, *info.field,
        isDtypeField(name) ? llvm::function_ref<std::string(int64_t)>(dtype)
                           : nullptr);
    if (field)
      node.attrs.push_back(std::move(*field));
    return;
  }
  case FieldKind::Unknown:
    return node.attrs.push_back({name, "?"});
  }
}

void GraphReader::readInstruction(const mlx::Instruction &instruction,
                                  StringRef chain) {
  DecodedNode node;
  node.id = uint32_t(graph.nodes.size());
  at = &instruction;
  ArrayRef<OperatorInfo> operators = getOperators();
  unsigned tag = unsigned(instruction.op_type());
  const auto *table = static_cast<const flatbuffers::Table *>(instruction.op());
  if (tag == 0 || tag >= operators.size() || !table) {
    node.op = "operator " + std::to_string(tag);
    addProblem(decoded, offsetOf(&instruction),
               "node " + Twine(node.id) + " is of operator tag " + Twine(tag) +
                   ", which this decoder does not know (its last is " +
                   Twine(operators.size() - 1) + ")",
               ProblemEffect::Unknown);
  } else {
    node.op = operators[tag].name;
    for (const FieldInfo &field : operators[tag].fields)
      readField(*table, field, node);
  }
  if (!chain.empty())
    node.attrs.push_back(Field::fromDisplay("chain", chain.str()));
  graph.nodes.push_back(std::move(node));
}

void GraphReader::readChains(const mlx::MLXGraph &root) {
  const auto &chains = *root.instruction_chains();
  uint32_t main = root.main_chain_idx();
  int32_t init = root.init_chain_idx();
  if (main >= chains.size())
    addProblem(decoded, offsetOf(&root),
               "the main chain " + Twine(main) + " is not among the graph's " +
                   Twine(chains.size()) + " chains: the runtime refuses it");
  if (init >= 0 && uint32_t(init) >= chains.size())
    addProblem(decoded, offsetOf(&root),
               "the init chain " + Twine(init) + " is not among the graph's " +
                   Twine(chains.size()) + " chains: the runtime refuses it");
  // The init chain first, then the main chain, then the others in order.
  std::vector<uint32_t> order;
  if (init >= 0 && uint32_t(init) < chains.size())
    order.push_back(uint32_t(init));
  if (main < chains.size() && int64_t(main) != init)
    order.push_back(main);
  for (uint32_t index = 0; index < chains.size(); ++index)
    if (index != main && int64_t(index) != init)
      order.push_back(index);
  for (uint32_t index : order) {
    std::string name;
    if (chains.size() > 1)
      name = index == main            ? "main"
             : int64_t(index) == init ? "init"
                                      : std::to_string(index);
    for (const mlx::Instruction *instruction :
         *chains.Get(index)->instructions())
      readInstruction(*instruction, name);
  }
}

void GraphReader::read(const mlx::MLXGraph &root) {
  if (root.version())
    decoded.target.push_back({"graph version", root.version()->str()});
  if (!readCounts(root))
    return;
  readTensors(root);
  readSlots(root);
  readChains(root);
  decoded.graph = std::move(graph);
}

//===----------------------------------------------------------------------===//
// The payload
//===----------------------------------------------------------------------===//

void MLXDecoder::decode(const PayloadInput &input,
                        DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = "MLX0";
  if (!fitsHeader(bytes, kHeaderBytes, "MLX", decoded))
    return;
  PayloadLayout parts(bytes.size(), decoded);
  parts.add("header", 0, kHeaderBytes, 0);
  uint64_t dataAt = delegate::readField(bytes, kDataOffsetAt, 8);
  if (dataAt <= kHeaderBytes || dataAt > bytes.size()) {
    addProblem(decoded, kDataOffsetAt,
               "the data offset " + Twine(dataAt) +
                   " is not past the header and within the " +
                   Twine(bytes.size()) +
                   "-byte payload: the runtime refuses it");
    parts.add("unread", kHeaderBytes, bytes.size() - kHeaderBytes,
              kDataOffsetAt);
    return parts.finish();
  }
  parts.add("graph", kHeaderBytes, dataAt - kHeaderBytes, kDataOffsetAt);
  if (!parts.add("data", dataAt, delegate::readField(bytes, kDataSizeAt, 8),
                 kDataSizeAt))
    decoded.problems.back().text +=
        " (the runtime does not read the data segment yet)";
  parts.finish();
  if (!input.withGraph)
    return;
  if (const auto *root = getVerifiedRoot<mlx::MLXGraph>(
          bytes.slice(kHeaderBytes, dataAt), kHeaderBytes, decoded.problems,
          "graph's flatbuffer", ": the runtime refuses the payload"))
    GraphReader(bytes, decoded).read(*root);
}

const PayloadDecoder &delegate::getMLXDecoder() {
  static const MLXDecoder decoder;
  return decoder;
}
