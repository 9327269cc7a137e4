//===- Payloads.h - Read the bytes of payloads ------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Payload bytes stand in the IR in three forms: `dense` (in the context),
// `dense_resource` (a blob, often a view of a mapped file) and `#et.file` (a
// byte range of a file, resolved through the PayloadFiles of the job that
// owns the context). This is the one way passes and translations read them.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DIALECT_ET_UTILS_PAYLOADS_H
#define EMIT_DIALECT_ET_UTILS_PAYLOADS_H

#include "emit/Support/LLVM.h"
#include "emit/Support/PayloadFiles.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"

#include <memory>
#include <optional>
#include <vector>

namespace emit::et {

/// Owns payloads expanded from splats. Each buffer stays in place while the
/// storage grows, so the bytes handed out stay valid as long as it lives.
using SplatStorage = std::vector<std::vector<char>>;

/// The payload bytes held by `data`, or std::nullopt when they are not
/// available: an elided or released resource, or a file reference that does
/// not resolve (checkPayloadFiles says why). A splat `dense` payload is
/// expanded into a new buffer of `splats`; otherwise the result aliases the
/// attribute or a registered mapping of the referenced file, which lives as
/// long as the context's payload files.
std::optional<ArrayRef<char>> getPayloadBytes(mlir::ElementsAttr data,
                                              SplatStorage &splats);

/// Resolves every `#et.file` reference in `root` (blobs, inline
/// payloads and test tensors), each file once, with an error at the op that
/// holds a reference that does not resolve: a file that may not be named,
/// cannot be read, has changed since the IR was written or is too short.
LogicalResult checkPayloadFiles(Operation *root);

/// The files payload references resolve against in `context`
/// (ETDialect::getPayloadFiles), loading the dialect if need be.
PayloadFiles &getPayloadFiles(MLIRContext *context);
/// Makes `files`, a job's, those payload references resolve against in
/// `context`.
void setPayloadFiles(MLIRContext *context, std::shared_ptr<PayloadFiles> files);

} // namespace emit::et

#endif // EMIT_DIALECT_ET_UTILS_PAYLOADS_H
