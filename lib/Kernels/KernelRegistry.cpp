//===- KernelRegistry.cpp - The kernels a build registers -----------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Kernels/KernelRegistry.h"

#include "emit/Kernels/KernelLibraries.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace emit;
using namespace emit::kernels;
namespace yaml = llvm::yaml;

//===----------------------------------------------------------------------===//
// selected_operators.yaml
//===----------------------------------------------------------------------===//

/// The operator name without its overload (`aten::add.out` -> `aten::add`),
/// as torchgen's strip_operator_overload_name.
static StringRef stripOverload(StringRef name) {
  return name.substr(0, name.find('.'));
}

bool OperatorSelection::selectsFallback(StringRef name) const {
  if (includeAllOperators)
    return true;
  bool root = false;
  if (auto found = operators.find(name); found != operators.end())
    root = found->second.isRoot;
  else if (auto base = operators.find(stripOverload(name));
           base != operators.end())
    root = base->second.allOverloads && base->second.isRoot;
  // et_get_selected_kernels: no metadata, no kernel; every key the model
  // uses falls to the fallback kernel where the library has no keyed one.
  auto keys = kernelMetadata.find(name);
  return root && keys != kernelMetadata.end() && !keys->second.empty();
}

namespace {
/// Reads a selected_operators.yaml's nodes, the first error kept with its
/// place.
class SelectionReader {
public:
  SelectionReader(llvm::SourceMgr &sources, std::string &error)
      : sources(sources), error(error) {}

  bool fail(yaml::Node *node, const Twine &message) {
    if (error.empty()) {
      llvm::SMDiagnostic diag = sources.GetMessage(
          node->getSourceRange().Start, llvm::SourceMgr::DK_Error, message);
      error = (diag.getFilename() + ":" + Twine(diag.getLineNo()) + ":" +
               Twine(diag.getColumnNo() + 1) + ": " + message)
                  .str();
    }
    return false;
  }

  std::optional<std::string> scalar(yaml::Node *node) {
    auto *text = dyn_cast_or_null<yaml::ScalarNode>(node);
    if (!text) {
      fail(node, "expected a scalar");
      return std::nullopt;
    }
    llvm::SmallString<64> storage;
    return text->getValue(storage).str();
  }

  std::optional<bool> boolean(yaml::Node *node) {
    std::optional<std::string> text = scalar(node);
    if (!text)
      return std::nullopt;
    std::string value = StringRef(*text).lower();
    if (value == "true" || value == "yes")
      return true;
    if (value == "false" || value == "no")
      return false;
    fail(node, "expected true or false, got '" + *text + "'");
    return std::nullopt;
  }

  bool readOperator(yaml::Node *node, OperatorSelection::Operator &op) {
    auto *fields = dyn_cast<yaml::MappingNode>(node);
    if (!fields)
      return isa<yaml::NullNode>(node) || fail(node, "expected a mapping");
    for (yaml::KeyValueNode &field : *fields) {
      std::optional<std::string> key = scalar(field.getKey());
      if (!key)
        return false;
      if (*key != "is_root_operator" && *key != "include_all_overloads")
        continue;
      std::optional<bool> value = boolean(field.getValue());
      if (!value)
        return false;
      (*key == "is_root_operator" ? op.isRoot : op.allOverloads) = *value;
    }
    return true;
  }

  bool readOperators(yaml::Node *node, OperatorSelection &selection) {
    if (isa<yaml::NullNode>(node))
      return true;
    auto *entries = dyn_cast<yaml::MappingNode>(node);
    if (!entries)
      return fail(node, "'operators' is not a mapping");
    for (yaml::KeyValueNode &entry : *entries) {
      std::optional<std::string> name = scalar(entry.getKey());
      if (!name || !readOperator(entry.getValue(), selection.operators[*name]))
        return false;
    }
    return true;
  }

  bool readKernelMetadata(yaml::Node *node, OperatorSelection &selection) {
    if (isa<yaml::NullNode>(node))
      return true;
    auto *entries = dyn_cast<yaml::MappingNode>(node);
    if (!entries)
      return fail(node, "'et_kernel_metadata' is not a mapping");
    for (yaml::KeyValueNode &entry : *entries) {
      std::optional<std::string> name = scalar(entry.getKey());
      if (!name)
        return false;
      std::vector<std::string> &keys = selection.kernelMetadata[*name];
      auto *list = dyn_cast<yaml::SequenceNode>(entry.getValue());
      if (!list)
        return fail(entry.getValue(), "expected a list of kernel keys");
      for (yaml::Node &item : *list) {
        std::optional<std::string> key = scalar(&item);
        if (!key)
          return false;
        keys.push_back(*key);
      }
    }
    return true;
  }

  bool read(yaml::Node *root, OperatorSelection &selection) {
    if (isa<yaml::NullNode>(root))
      return true;
    auto *top = dyn_cast<yaml::MappingNode>(root);
    if (!top)
      return fail(root, "a selected_operators.yaml is a mapping");
    for (yaml::KeyValueNode &field : *top) {
      std::optional<std::string> key = scalar(field.getKey());
      if (!key)
        return false;
      yaml::Node *value = field.getValue();
      bool read = true;
      if (*key == "operators")
        read = readOperators(value, selection);
      else if (*key == "et_kernel_metadata")
        read = readKernelMetadata(value, selection);
      else if (*key == "include_all_operators") {
        std::optional<bool> all = boolean(value);
        read = all.has_value();
        selection.includeAllOperators = all.value_or(false);
      } else
        value->skip();
      if (!read)
        return false;
    }
    return true;
  }

private:
  llvm::SourceMgr &sources;
  std::string &error;
};
} // namespace

FailureOr<OperatorSelection>
kernels::parseOperatorSelection(const llvm::MemoryBuffer &buffer,
                                std::string &error) {
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getMemBufferRef()),
      llvm::SMLoc());
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &diag, void *context) {
        auto &text = *static_cast<std::string *>(context);
        if (text.empty())
          text = (diag.getFilename() + ":" + Twine(diag.getLineNo()) + ":" +
                  Twine(diag.getColumnNo() + 1) + ": " + diag.getMessage())
                     .str();
      },
      &error);
  yaml::Stream stream(buffer.getMemBufferRef(), sources);
  OperatorSelection selection;
  SelectionReader reader(sources, error);
  yaml::document_iterator document = stream.begin();
  if (document != stream.end() && document->getRoot())
    reader.read(document->getRoot(), selection);
  if (stream.failed() && error.empty())
    error = buffer.getBufferIdentifier().str() + ": not YAML";
  if (!error.empty())
    return failure();
  return selection;
}

//===----------------------------------------------------------------------===//
// Kernel lists
//===----------------------------------------------------------------------===//

FailureOr<std::vector<ListedKernel>>
kernels::parseKernelList(const llvm::MemoryBuffer &buffer, std::string &error) {
  std::vector<ListedKernel> listed;
  SmallVector<StringRef> lines;
  buffer.getBuffer().split(lines, '\n');
  for (auto [index, line] : llvm::enumerate(lines)) {
    line = line.take_until([](char c) { return c == '#'; }).trim();
    if (line.empty())
      continue;
    SmallVector<StringRef, 3> words;
    line.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (words.size() > 2 || !words[0].contains("::")) {
      error = (buffer.getBufferIdentifier() + ":" + Twine(index + 1) +
               ": expected NAME or NAME KEY (aten::add.out v1/6;0,1|6;0,1), "
               "got '" +
               line + "'")
                  .str();
      return failure();
    }
    listed.push_back(
        {words[0].str(), words.size() == 2 ? words[1].str() : std::string()});
  }
  return listed;
}

//===----------------------------------------------------------------------===//
// --kernels
//===----------------------------------------------------------------------===//

static bool isSelectionPath(StringRef item) {
  return item.ends_with(".yaml") || item.ends_with(".yml");
}

FailureOr<KernelSpec> kernels::parseKernelSpec(StringRef value,
                                               std::string &error,
                                               StringRef option) {
  KernelSpec spec;
  spec.text = value.str();
  SmallVector<StringRef> items;
  value.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (items.empty()) {
    error = (option + ": names no library and no file").str();
    return failure();
  }
  for (StringRef item : items) {
    item = item.trim();
    if (isLibrary(item)) {
      spec.libraries.push_back(item.str());
      continue;
    }
    auto buffer = llvm::MemoryBuffer::getFile(item, /*IsText=*/true);
    if (!buffer) {
      error = (option + ": '" + item + "' is not a library (" +
               llvm::join(getLibraryNames(), ", ") +
               ") nor a readable file: " + buffer.getError().message())
                  .str();
      return failure();
    }
    if (isSelectionPath(item)) {
      if (spec.selection) {
        error = (option + ": more than one selected_operators.yaml").str();
        return failure();
      }
      FailureOr<OperatorSelection> selection =
          parseOperatorSelection(**buffer, error);
      if (failed(selection))
        return failure();
      spec.selection = std::move(*selection);
      continue;
    }
    FailureOr<std::vector<ListedKernel>> listed =
        parseKernelList(**buffer, error);
    if (failed(listed))
      return failure();
    llvm::append_range(spec.listed, *listed);
  }
  if (spec.selection && spec.libraries.empty()) {
    spec.libraries.push_back("portable");
    spec.text = "portable," + spec.text;
  }
  return spec;
}

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

KernelRegistry::KernelRegistry(const KernelSpec &spec, unsigned release)
    : release(release) {
  forEachOperator(kPrimLibrary, release,
                  [&](const LibraryOperator &op) { add(op.name, ""); });
  for (const std::string &library : spec.libraries)
    forEachOperator(library, release, [&](const LibraryOperator &op) {
      if (!spec.selection || spec.selection->selectsFallback(op.name))
        add(op.name, "");
    });
  for (const ListedKernel &kernel : spec.listed)
    add(kernel.name, kernel.key);
}

void KernelRegistry::add(StringRef name, StringRef key) {
  SmallVector<std::string, 1> &keys = kernels[name];
  if (!llvm::is_contained(keys, key))
    keys.push_back(key.str());
}

bool KernelRegistry::resolves(StringRef name, StringRef key) const {
  auto found = kernels.find(name);
  if (found == kernels.end())
    return false;
  // 0.1's runtime writes keys as "v0/" and raw bytes (each dtype and dim a
  // byte, 0xff-terminated): no key a file lists in text matches there.
  bool textKeys = release > 0;
  return llvm::any_of(found->second, [&](const std::string &registered) {
    return registered.empty() || (textKeys && registered == key);
  });
}
