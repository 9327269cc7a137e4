//===- CoreMLDecoder.cpp - Core ML in-memory file tree payloads -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A CoreMLBackend payload (backends/apple/coreml/runtime/inmemoryfs) is a
// directory tree flattened into one buffer: each file's bytes at an aligned
// offset, then the tree's index as JSON written reversed, so that the
// runtime reads it from the payload's end (skipping zeros, counting braces
// outside strings, at most 10 MiB). The index lists nodes, children before
// their directory and the root last: a name, a kind (0 file, 1 directory),
// a file's data region (offset, size) and a directory's children by name
// and index. The tree holds `metadata.json` (the model's identifier and its
// inputs' and outputs' names) and the model, an `.mlpackage` or a compiled
// `.mlmodelc`. Each file is a part named by its path; a payload starting
// with CMJR (a reference into named data) is another decoder's. An
// `.mlpackage`'s model (Data/com.apple.CoreML/model.mlmodel) opens into its
// ML program's operations (CoreMLProgram.cpp).
//
//===----------------------------------------------------------------------===//

#include "CoreMLProgram.h"
#include "PayloadLayout.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <string>

using namespace emit;
using namespace emit::delegate;

namespace {
/// The runtime's limit on the index's length.
constexpr uint64_t kMaxIndexBytes = 10 * 1024 * 1024;
/// How deep a tree is followed (a hostile index may nest a node per level).
constexpr unsigned kMaxDepth = 256;
/// metadata.json is read when at most this long.
constexpr uint64_t kMaxMetadataBytes = 64 * 1024;

class CoreMLDecoder final : public PayloadDecoder {
public:
  StringRef getName() const override { return "CoreML"; }
  bool recognizes(const PayloadInput &input) const override {
    return input.backend == "CoreMLBackend" && !input.bytes.starts_with("CMJR");
  }
  void decode(const PayloadInput &input,
              DecodedPayload &decoded) const override;
};

/// One node of the index, as the runtime reads it.
struct TreeNode {
  std::string name;
  int64_t kind = 0;
  uint64_t offset = 0, size = 0;
  std::vector<std::pair<std::string, int64_t>> children;
};

/// Reads a payload's tree into `decoded`.
class TreeReader {
public:
  TreeReader(StringRef bytes, DecodedPayload &decoded)
      : bytes(bytes), decoded(decoded), parts(bytes.size(), decoded) {}
  void read();
  /// The `.mlpackage`'s model file, once laid out.
  std::optional<TreeNode> packageModel;

private:
  /// The index's JSON text and where it starts; none (a problem) where the
  /// runtime finds none.
  std::optional<std::string> findIndex();
  bool readNodes(const llvm::json::Value &index);
  /// Lays out node `at` (a file, or a directory's files) under `path`.
  void layOut(size_t at, const std::string &path, unsigned depth);
  void readMetadata(const TreeNode &file);

  StringRef bytes;
  DecodedPayload &decoded;
  PayloadLayout parts;
  uint64_t indexAt = 0;
  std::vector<TreeNode> nodes;
  /// The nodes a directory holds.
  std::vector<bool> used;
};
} // namespace

std::optional<std::string> TreeReader::findIndex() {
  uint64_t end = bytes.size();
  while (end > 0 && (bytes[end - 1] == '\0' || llvm::isSpace(bytes[end - 1])))
    --end;
  if (end == 0 || bytes[end - 1] != '{') {
    addProblem(decoded, end ? end - 1 : 0,
               "the payload does not end in a file index (a JSON object "
               "written reversed): the runtime refuses it");
    return std::nullopt;
  }
  // Read backwards as the runtime does: braces outside strings, a quote
  // escaped by the byte read just before it.
  int open = 0;
  bool inString = false;
  uint64_t at = end;
  while (at > 0 && end - at < kMaxIndexBytes) {
    char c = bytes[--at];
    if (c == '"' && !(inString && at + 1 < end && bytes[at + 1] == '\\'))
      inString = !inString;
    else if (!inString && c == '{')
      ++open;
    else if (!inString && c == '}' && --open == 0)
      break;
  }
  if (open != 0) {
    addProblem(decoded, at,
               "the file index's braces do not close within the payload "
               "(or 10 MiB): the runtime refuses it");
    return std::nullopt;
  }
  indexAt = at;
  std::string text(bytes.substr(at, end - at));
  std::reverse(text.begin(), text.end());
  parts.add("file index", at, end - at, at);
  return text;
}

/// Node `value`'s fields, read as the runtime reads them: each only if
/// present, of the type it expects.
static std::optional<TreeNode> readNode(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return std::nullopt;
  TreeNode node;
  if (std::optional<StringRef> name = object->getString("name"))
    node.name = name->str();
  node.kind = object->getInteger("kind").value_or(0);
  if (const llvm::json::Object *region = object->getObject("dataRegion")) {
    node.offset = region->getInteger("offset").value_or(0);
    node.size = region->getInteger("size").value_or(0);
  }
  if (const llvm::json::Object *children = object->getObject("children"))
    for (const auto &[name, index] : *children)
      node.children.push_back({name.str(), index.getAsInteger().value_or(-1)});
  llvm::sort(node.children);
  return node;
}

bool TreeReader::readNodes(const llvm::json::Value &index) {
  const llvm::json::Object *object = index.getAsObject();
  const llvm::json::Array *list = object ? object->getArray("nodes") : nullptr;
  if (!list || list->empty()) {
    addProblem(decoded, indexAt,
               "the file index lists no nodes: the runtime refuses it");
    return false;
  }
  for (const llvm::json::Value &value : *list) {
    std::optional<TreeNode> node = readNode(value);
    if (!node) {
      addProblem(decoded, indexAt,
                 "the file index's node " + Twine(nodes.size()) +
                     " is not an object: the runtime refuses it");
      return false;
    }
    nodes.push_back(std::move(*node));
  }
  return true;
}

void TreeReader::readMetadata(const TreeNode &file) {
  if (file.size > kMaxMetadataBytes)
    return;
  llvm::Expected<llvm::json::Value> metadata =
      llvm::json::parse(bytes.substr(file.offset, file.size));
  if (!metadata) {
    llvm::consumeError(metadata.takeError());
    addProblem(decoded, file.offset, "metadata.json is not JSON");
    return;
  }
  if (const llvm::json::Object *object = metadata->getAsObject())
    if (std::optional<StringRef> identifier = object->getString("identifier"))
      decoded.target.push_back({"identifier", identifier->str()});
}

void TreeReader::layOut(size_t at, const std::string &path, unsigned depth) {
  const TreeNode &node = nodes[at];
  if (depth > kMaxDepth)
    return addProblem(decoded, indexAt,
                      "'" + path + "' is nested deeper than " +
                          Twine(kMaxDepth) +
                          " directories: emit reads no "
                          "deeper",
                      ProblemEffect::Unknown);
  if (node.kind == 0) {
    // The runtime slices a file's region out of the whole payload.
    if (!parts.add(path, node.offset, node.size, indexAt))
      decoded.problems.back().text += ": the runtime refuses the payload";
    else if (path == "metadata.json")
      readMetadata(node);
    else if (StringRef(path).ends_with(
                 ".mlpackage/Data/com.apple.CoreML/model.mlmodel"))
      packageModel = node;
    return;
  }
  if (node.kind != 1)
    return addProblem(decoded, indexAt,
                      "node '" + path + "' is of kind " + Twine(node.kind) +
                          ", neither a file (0) nor a directory (1)");
  for (const auto &[name, child] : node.children) {
    std::string childPath = path.empty() ? name : path + "/" + name;
    // The runtime takes a child from the nodes it has already made.
    if (child < 0 || size_t(child) >= at) {
      addProblem(decoded, indexAt,
                 "node '" + childPath + "' is index " + Twine(child) +
                     ", not one listed before its directory (" + Twine(at) +
                     "): the runtime reads a node it has not made",
                 ProblemEffect::Undefined);
      continue;
    }
    // The runtime moves each node into its directory: a second directory
    // that names it gets an empty one.
    if (used[child]) {
      addProblem(decoded, indexAt,
                 "node '" + childPath + "' is index " + Twine(child) +
                     ", which another directory already holds: the runtime "
                     "reads an empty node",
                 ProblemEffect::Undefined);
      continue;
    }
    used[child] = true;
    if (depth == 0 && (StringRef(name).ends_with(".mlpackage") ||
                       StringRef(name).ends_with(".mlmodelc")))
      decoded.target.push_back({"model", name});
    layOut(child, childPath, depth + 1);
  }
}

void TreeReader::read() {
  if (std::optional<std::string> text = findIndex()) {
    llvm::Expected<llvm::json::Value> index = llvm::json::parse(*text);
    if (!index) {
      addProblem(decoded, indexAt,
                 "the file index is not JSON (" +
                     llvm::toString(index.takeError()) +
                     "): the runtime refuses it");
    } else if (readNodes(*index)) {
      used.assign(nodes.size(), false);
      if (nodes.back().kind == 1)
        layOut(nodes.size() - 1, "", 0);
      else
        addProblem(decoded, indexAt,
                   "the tree's root (the index's last node) is not a "
                   "directory: the runtime finds no model in it");
    }
  } else {
    parts.add("opaque", 0, bytes.size(), 0);
  }
  parts.finish();
}

void CoreMLDecoder::decode(const PayloadInput &input,
                           DecodedPayload &decoded) const {
  TreeReader tree(input.bytes, decoded);
  tree.read();
  if (input.withGraph && tree.packageModel)
    readCoreMLProgram(
        input.bytes.substr(tree.packageModel->offset, tree.packageModel->size),
        tree.packageModel->offset, decoded);
}

const PayloadDecoder &delegate::getCoreMLDecoder() {
  static const CoreMLDecoder decoder;
  return decoder;
}
