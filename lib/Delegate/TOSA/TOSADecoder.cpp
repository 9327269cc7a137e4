//===- TOSADecoder.cpp - TOSA flatbuffer payloads -------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A TOSABackend payload is a TosaGraph flatbuffer, identifier TOSA at byte
// 4 (schema/tosa.fbs). Its graph: every block's operators as nodes (inputs
// and outputs are tensor names, resolved within the block; the attribute's
// fields as attributes) and its tensors as values (shape, data type,
// constant bytes in the flatbuffer or, in a graph over 2 GiB, outside it).
// The graph's version says which numbering of operators, data types and
// attributes it uses: TOSA 1.x's (1.1 appended to 1.0's) or 0.80's; the
// graph is verified and read in that version's layout. A graph of another
// version is read in 1.x's layout, its numbers left unnamed.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"
#include "ReflectedFields.h"

#include "emit/Delegate/tosa_bfbs_generated.h"
#include "emit/Delegate/tosa_generated.h"

#include "llvm/ADT/StringMap.h"

#include <string>

using namespace emit;
using namespace emit::delegate;

namespace tosa = emit_tosa;

namespace {
const reflection::Schema &getSchema() {
  return *reflection::GetSchema(tosa::TosaGraphBinarySchema::data());
}

/// The enums a version's numbers are named by, in the binary schema; all
/// null for a version whose numbering is not known.
struct Numbering {
  const reflection::Enum *ops = nullptr, *dtypes = nullptr,
                         *attributes = nullptr;

  /// The numbering of the enums in `space` (`emit_tosa.`).
  static Numbering in(StringRef space) {
    const auto *enums = getSchema().enums();
    auto get = [&](StringRef name) {
      return enums->LookupByKey((space + name).str().c_str());
    };
    return {get("Op"), get("DType"), get("Attribute")};
  }
};

class TOSADecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "TOSA"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.bytes.substr(4, 4) == "TOSA";
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

/// Reads a verified graph's blocks into a DecodedGraph.
class GraphReader {
public:
  GraphReader(Numbering numbering, DecodedGraph &graph)
      : numbering(numbering), graph(graph) {}
  template <typename Block>
  void readBlock(const Block &block, StringRef region);

private:
  /// `value`'s name in `names`, or `<kind> <value>` where it has none.
  static std::string name(const reflection::Enum *names, StringRef kind,
                          uint32_t value) {
    const reflection::EnumVal *member =
        names ? names->values()->LookupByKey(value) : nullptr;
    return member ? member->name()->str() : (kind + " " + Twine(value)).str();
  }
  void readTensor(const tosa::TosaTensor &tensor);
  void readAttribute(unsigned tag, const void *table, DecodedNode &node) const;
  /// The values named `names` in the current block; unknown names (shapes,
  /// a hostile graph's) are left out.
  std::vector<uint32_t>
  resolve(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>
              *names) const;

  Numbering numbering;
  bool readFirst = false;
  DecodedGraph &graph;
  llvm::StringMap<uint32_t> byName;
};
} // namespace

void GraphReader::readTensor(const tosa::TosaTensor &tensor) {
  DecodedValue &value = graph.values.emplace_back();
  value.id = graph.values.size() - 1;
  value.dtype = name(numbering.dtypes, "dtype", tensor.type());
  if (const auto *shape = tensor.shape())
    for (int32_t size : *shape)
      value.shape.push_back(size < 0 ? 0 : size);
  if (tensor.data() && tensor.data()->size())
    value.constantBytes = tensor.data()->size();
  else if (tensor.offset() > 1)
    value.constantBytes = tensor.size();
  if (tensor.name())
    byName[tensor.name()->string_view()] = value.id;
}

void GraphReader::readAttribute(unsigned tag, const void *table,
                                DecodedNode &node) const {
  if (!numbering.attributes || !table)
    return;
  const reflection::EnumVal *member =
      numbering.attributes->values()->LookupByKey(tag);
  if (!member || !member->union_type())
    return node.attrs.push_back({"attribute", "tag " + std::to_string(tag)});
  const reflection::Schema &schema = getSchema();
  const reflection::Object &object =
      *schema.objects()->Get(member->union_type()->index());
  for (const reflection::Field *field : getFieldsInOrder(object))
    if (std::optional<Field> read =
            readField(field->name()->str(), schema,
                      *static_cast<const flatbuffers::Table *>(table), *field))
      node.attrs.push_back(std::move(*read));
}

std::vector<uint32_t> GraphReader::resolve(
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *names)
    const {
  std::vector<uint32_t> ids;
  if (names)
    for (const flatbuffers::String *text : *names) {
      auto it = text ? byName.find(text->string_view()) : byName.end();
      if (it != byName.end())
        ids.push_back(it->second);
    }
  return ids;
}

template <typename Block>
void GraphReader::readBlock(const Block &block, StringRef region) {
  byName.clear();
  if (block.tensors())
    for (const tosa::TosaTensor *tensor : *block.tensors())
      if (tensor)
        readTensor(*tensor);
  // The first block is the one the call runs: its inputs and outputs are
  // the call's (a later block's are a control flow body's).
  if (!readFirst) {
    readFirst = true;
    std::vector<uint32_t> inputs = resolve(block.inputs());
    for (auto [at, id] : llvm::enumerate(inputs))
      graph.values[id].externalInput = at;
    std::vector<uint32_t> outputs = resolve(block.outputs());
    for (auto [at, id] : llvm::enumerate(outputs))
      graph.values[id].externalOutput = at;
  }
  if (!block.operators())
    return;
  std::string where = region.str();
  if (block.name())
    where += (where.empty() ? "" : "/") + block.name()->str();
  for (const auto *op : *block.operators()) {
    if (!op)
      continue;
    DecodedNode &node = graph.nodes.emplace_back();
    node.id = graph.nodes.size() - 1;
    node.op = name(numbering.ops, "op", op->op());
    node.inputs = resolve(op->inputs());
    node.outputs = resolve(op->outputs());
    readAttribute(unsigned(op->attribute_type()), op->attribute(), node);
    node.attrs.push_back({"block", where});
    if constexpr (std::is_same_v<Block, tosa::TosaBasicBlock>)
      if (op->location() && op->location()->text())
        node.attrs.push_back({"location", op->location()->text()->str()});
  }
}

/// Reads the verified graph `root`'s blocks by `numbering`.
template <typename Graph>
static void readGraph(const Graph &root, Numbering numbering,
                      DecodedPayload &decoded) {
  if (!root.regions())
    return;
  GraphReader reader(numbering, decoded.graph.emplace());
  for (const auto *region : *root.regions())
    if (region && region->blocks())
      for (const auto *block : *region->blocks())
        if (block)
          reader.readBlock(*block,
                           region->name() ? region->name()->string_view() : "");
}

static std::string formatVersion(const tosa::Version &version) {
  return std::to_string(version._major()) + "." +
         std::to_string(version._minor()) + "." +
         std::to_string(version._patch()) + (version._draft() ? " draft" : "");
}

void TOSADecoder::decode(const PayloadInput &input,
                         DecodedPayload &decoded) const {
  StringRef bytes = input.bytes;
  decoded.magic = "TOSA";
  decoded.regions.push_back({"graph", 0, bytes.size()});
  // No ExecuTorch runtime reads a TOSA graph as it is (the Ethos-U and VGF
  // backends compile it first): what it has wrong is emit's to say, not a
  // refusal.
  const auto *head = getVerifiedRoot<tosa::TosaGraphHead>(
      bytes, 0, decoded.problems, "TosaGraph flatbuffer", "",
      ProblemEffect::Unknown);
  if (!head)
    return;
  const tosa::Version &version = *head->version();
  decoded.target.push_back({"tosa version", formatVersion(version)});
  bool v0_80 = version._major() == 0 && version._minor() == 80;
  if (v0_80) {
    if (const auto *root = getVerifiedRoot<tosa::v0_80::TosaGraph>(
            bytes, 0, decoded.problems, "TOSA 0.80 graph", "",
            ProblemEffect::Unknown);
        root && input.withGraph)
      readGraph(*root, Numbering::in("emit_tosa.v0_80."), decoded);
    return;
  }
  const auto *root = getVerifiedRoot<tosa::TosaGraph>(
      bytes, 0, decoded.problems,
      version._major() == 1 ? "TOSA 1.x graph"
                            : "graph, read in TOSA 1.x's layout,",
      "", ProblemEffect::Unknown);
  if (!root)
    return;
  if (const tosa::SoftwareVersion *software = root->software_version())
    decoded.target.push_back(
        {"software version",
         std::to_string(software->_major()) + "." +
             std::to_string(software->_minor()) + "." +
             std::to_string(software->_micro()) +
             (software->_modifier() ? " " + software->_modifier()->str()
                                    : "")});
  bool v1 = version._major() == 1;
  if (!v1)
    decoded.target.push_back(
        {"numbering", "unknown: operators and data types stay numbers (emit "
                      "names TOSA 0.80's and 1.x's)"});
  if (input.withGraph)
    readGraph(*root, v1 ? Numbering::in("emit_tosa.") : Numbering(), decoded);
}

const PayloadDecoder &delegate::getTOSADecoder() {
  static const TOSADecoder decoder;
  return decoder;
}
