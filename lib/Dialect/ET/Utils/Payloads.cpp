//===- Payloads.cpp - Read the bytes of payloads ----------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/Utils/Payloads.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Support/PayloadFiles.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;

/// The bytes `range` names, or failure with the reason in `error`.
static FailureOr<ArrayRef<char>> resolve(FileRangeAttr range,
                                         std::string &error) {
  // The attribute's dialect, not a lookup by name: once per payload.
  const auto &dialect = static_cast<const ETDialect &>(range.getDialect());
  return dialect.getPayloadFiles().getBytes(
      range.getPath().getValue(), range.getOffset(), range.getSize(),
      {range.getFileSize(), range.getFileSample()}, error);
}

std::optional<ArrayRef<char>> et::getPayloadBytes(ElementsAttr data,
                                                  SplatStorage &splats) {
  if (auto range = dyn_cast<FileRangeAttr>(data)) {
    std::string error;
    FailureOr<ArrayRef<char>> bytes = resolve(range, error);
    if (failed(bytes))
      return std::nullopt;
    return *bytes;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(data)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  auto dense = cast<DenseElementsAttr>(data);
  ArrayRef<char> raw = dense.getRawData();
  if (!dense.isSplat())
    return raw;
  // A splat stores one element; materialize the full payload.
  splats.emplace_back(dense.getNumElements(), raw.front());
  return ArrayRef<char>(splats.back());
}

LogicalResult et::checkPayloadFiles(Operation *root) {
  bool failedAny = false;
  auto check = [&](Operation *op, Attribute data) {
    auto range = dyn_cast_or_null<FileRangeAttr>(data);
    if (!range)
      return;
    std::string error;
    if (failed(resolve(range, error))) {
      op->emitError(error);
      failedAny = true;
    }
  };
  root->walk([&](Operation *op) {
    if (auto blob = dyn_cast<BlobOp>(op))
      check(op, blob.getData());
    else if (auto entry = dyn_cast<DelegateOp>(op))
      if (et::BlobAttr inlined = entry.getInlinePayload())
        check(op, inlined.getData());
    if (auto testCase = dyn_cast<TestCaseOp>(op))
      for (ArrayAttr values : {testCase.getInputs(), testCase.getExpected()})
        for (Attribute value : values)
          if (auto tensor = dyn_cast<TestTensorAttr>(value))
            check(op, tensor.getData());
  });
  return failure(failedAny);
}

PayloadFiles &et::getPayloadFiles(MLIRContext *context) {
  // Looked up, not loaded, where it can be: passes call this from threads.
  if (auto *dialect = context->getLoadedDialect<ETDialect>())
    return dialect->getPayloadFiles();
  return context->getOrLoadDialect<ETDialect>()->getPayloadFiles();
}

void et::setPayloadFiles(MLIRContext *context,
                         std::shared_ptr<PayloadFiles> files) {
  context->getOrLoadDialect<ETDialect>()->setPayloadFiles(std::move(files));
}
