//===- Blobs.cpp - The blob layer ----------------------------- -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/Utils/Blobs.h"

#include "emit/Support/MappedMemory.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;

void et::forEachBlobUser(Operation *container,
                         function_ref<void(BlobUserOpInterface)> fn) {
  container->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto user = dyn_cast<BlobUserOpInterface>(op)) {
      fn(user);
      return WalkResult::skip();
    }
    // Blob users are declarations: none lies inside a chain or a value.
    return op == container || isa<MethodOp>(op) ? WalkResult::advance()
                                                : WalkResult::skip();
  });
}

DenseMap<StringAttr, DataKind> et::classifyBlobs(Operation *container) {
  DenseMap<StringAttr, DataKind> kinds;
  forEachBlobUser(container, [&](BlobUserOpInterface user) {
    FlatSymbolRefAttr blob = user.getBlobRef();
    if (!blob)
      return;
    auto [it, inserted] = kinds.try_emplace(blob.getAttr(), user.getDataKind());
    if (!inserted && user.getDataKind() < it->second)
      it->second = user.getDataKind();
  });
  return kinds;
}

/// Whether `attr` may hold a symbol reference below its top level; false
/// only for kinds known to hold none, so unknown attributes take the
/// general rewrite.
static bool mayHoldSymbolRefs(Attribute attr) {
  if (isa<StringAttr, IntegerAttr, FloatAttr, UnitAttr, BoolAttr, TypeAttr,
          DenseArrayAttr, DenseElementsAttr, DenseResourceElementsAttr,
          CompileSpecAttr, et::BlobAttr, TensorLayoutAttr>(attr))
    return false;
  if (auto array = dyn_cast<ArrayAttr>(attr))
    return llvm::any_of(array, [](Attribute element) {
      return isa<SymbolRefAttr>(element) || mayHoldSymbolRefs(element);
    });
  return true;
}

// References in the ops' own attributes are rewritten in place; the general
// rewrite, which rebuilds every attribute, only runs where one could be
// nested.
void et::replaceBlobReferences(Operation *container,
                               const DenseMap<StringAttr, StringAttr> &map) {
  auto remap = [&](FlatSymbolRefAttr symbol) {
    auto it = map.find(symbol.getAttr());
    return it == map.end() ? symbol : FlatSymbolRefAttr::get(it->second);
  };
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](FlatSymbolRefAttr symbol) -> std::optional<Attribute> {
        FlatSymbolRefAttr mapped = remap(symbol);
        if (mapped == symbol)
          return std::nullopt;
        return mapped;
      });
  Dialect *etDialect = container->getContext()->getLoadedDialect<ETDialect>();
  container->walk([&](Operation *op) {
    // The dialect's own ops name blobs only as blob users; any op may carry
    // discardable attributes that do.
    if (op->getDialect() == etDialect && !isa<BlobUserOpInterface>(op) &&
        op->getDiscardableAttrDictionary().empty())
      return;
    SmallVector<std::pair<StringAttr, Attribute>, 2> inherent, discardable;
    auto visit = [&](StringAttr name, Attribute value,
                     SmallVectorImpl<std::pair<StringAttr, Attribute>> &out) {
      if (auto symbol = dyn_cast<FlatSymbolRefAttr>(value)) {
        if (FlatSymbolRefAttr mapped = remap(symbol); mapped != symbol)
          out.push_back({name, mapped});
        return true;
      }
      return !mayHoldSymbolRefs(value);
    };
    bool simple = true;
    for (StringAttr name : op->getName().getAttributeNames())
      if (std::optional<Attribute> value = op->getInherentAttr(name))
        simple &= !*value || visit(name, *value, inherent);
    for (NamedAttribute named : op->getDiscardableAttrs())
      simple &= visit(named.getName(), named.getValue(), discardable);
    if (!simple) {
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
      return;
    }
    for (auto [name, value] : inherent)
      op->setInherentAttr(name, value);
    for (auto [name, value] : discardable)
      op->setDiscardableAttr(name, value);
  });
}

ElementsAttr et::sliceBytes(ElementsAttr data, uint64_t offset, uint64_t size,
                            StringRef name, SplatStorage &splats) {
  if (auto range = dyn_cast<FileRangeAttr>(data))
    return FileRangeAttr::get(data.getContext(), range.getPath(),
                              range.getOffset() + offset, size,
                              range.getFileSize(), range.getFileSample());
  std::optional<ArrayRef<char>> bytes = getPayloadBytes(data, splats);
  if (!bytes)
    return nullptr;
  BytePiece piece{bytes->slice(offset, size), 0};
  return gatherBytes(data.getContext(), name, size, piece);
}

ElementsAttr et::gatherBytes(MLIRContext *context, StringRef name,
                             uint64_t size, ArrayRef<BytePiece> pieces) {
  auto type = RankedTensorType::get({static_cast<int64_t>(size)},
                                    IntegerType::get(context, 8));
  if (size == 0)
    return DenseElementsAttr::get(type, ArrayRef<int8_t>());
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(size, alignof(uint64_t),
                                                       /*dataIsMutable=*/true);
  MutableArrayRef<char> bytes = blob.getMutableData();
  std::fill(bytes.begin(), bytes.end(), 0);
  for (const BytePiece &piece : pieces) {
    char *out = bytes.data() + piece.offset;
    forEachChunk(piece.bytes, [&](ArrayRef<char> chunk) {
      out = std::copy(chunk.begin(), chunk.end(), out);
    });
  }
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}
