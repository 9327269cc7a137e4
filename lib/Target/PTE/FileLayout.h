//===- FileLayout.h - Segment layout shared by .pte and .ptd ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Both ExecuTorch file formats end in data segments placed after the
// flatbuffer at aligned offsets from a segment base. The arithmetic of that
// layout is emit/Support/Layout.h; this is the file I/O of both formats:
// writing segments, and holding imported bytes without copying them.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_TARGET_PTE_FILELAYOUT_H
#define EMIT_LIB_TARGET_PTE_FILELAYOUT_H

#include "emit/Support/FileBuffer.h"
#include "emit/Support/LLVM.h"
#include "emit/Support/Layout.h"
#include "emit/Support/PayloadFiles.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace emit::layout {

/// Writes zeros from file offset `position` up to `base`, then every
/// segment at `base` + its offset with zeros between. Bytes of a mapped
/// input are streamed from the file, never through the mapping.
void writeSegments(raw_ostream &os, ArrayRef<Segment> segments,
                   uint64_t position, uint64_t base);

/// Makes the payload attributes of an import from the bytes of the file
/// being read: references to them (`#et.file`) when the file has a
/// reference, else `dense_resource`s that alias them and hold the file open
/// for as long as they live. No bytes are an empty `dense`.
class FileBytes {
public:
  FileBytes(mlir::MLIRContext *context, std::shared_ptr<const FileBuffer> file,
            const std::optional<FileReference> &reference)
      : context(context), file(std::move(file)), reference(reference),
        referencePath(reference
                          ? mlir::StringAttr::get(context, reference->path)
                          : mlir::StringAttr()) {}

  /// `bytes`, which lie in the file, named `name` if a resource.
  mlir::ElementsAttr get(StringRef name, ArrayRef<char> bytes) const;

private:
  mlir::MLIRContext *context;
  std::shared_ptr<const FileBuffer> file;
  std::optional<FileReference> reference;
  mlir::StringAttr referencePath; // Uniqued once, not once per payload.
};

} // namespace emit::layout

#endif // EMIT_LIB_TARGET_PTE_FILELAYOUT_H
