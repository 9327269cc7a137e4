//===- FileLayout.cpp - Segment layout shared by .pte and .ptd --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Support/MappedMemory.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace emit;
using namespace emit::layout;

void layout::writeSegments(raw_ostream &os, ArrayRef<Segment> segments,
                           uint64_t position, uint64_t base) {
  // Many small segments: gather them in a larger buffer than a file
  // stream's default (one block), instead of a system call each. Streams
  // that are unbuffered (strings, vectors) stay so.
  if (os.GetBufferSize() && os.GetBufferSize() < kWriteBufferSize)
    os.SetBufferSize(kWriteBufferSize);
  os.write_zeros(base - position);
  position = base;
  for (const Segment &segment : segments) {
    uint64_t start = base + segment.offset;
    os.write_zeros(start - position);
    // Streamed from the file (pread) where the bytes come from a mapped
    // input, so that its pages never enter the resident set.
    writeBytes(os, segment.bytes);
    releaseMappedPages(segment.bytes);
    position = start + segment.bytes.size();
  }
}

ElementsAttr layout::FileBytes::get(StringRef name,
                                    ArrayRef<char> bytes) const {
  if (reference && !bytes.empty())
    return et::FileRangeAttr::get(
        context, referencePath,
        bytes.data() - file->getFile().getBytes().data(), bytes.size(),
        reference->fingerprint.size, reference->fingerprint.sample);
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                                    IntegerType::get(context, 8));
  if (bytes.empty())
    return DenseElementsAttr::get(type, ArrayRef<int8_t>());
  // The resource aliases the file, and holds it. Its alignment is what the
  // data pointer really has, capped at 16: MLIR 19's bytecode reader can
  // only honour resource alignments up to that of its (heap) input buffer.
  uint64_t address = reinterpret_cast<uintptr_t>(bytes.data());
  uint64_t alignment = std::min<uint64_t>(powerOfTwoDividing(address), 16);
  return DenseResourceElementsAttr::get(
      type, name,
      AsmResourceBlob(
          bytes, alignment, [held = file](void *, size_t, size_t) {},
          /*dataIsMutable=*/false));
}
