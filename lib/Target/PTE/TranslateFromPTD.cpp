//===- TranslateFromPTD.cpp - Import a .ptd as an et.data_file --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reads an ExecuTorch data file (FlatTensor). The runtime does not verify a
// .ptd, so a damaged one can crash it; this reader checks everything the
// reader checklist of the format notes asks for, stricter than the
// runtime: the header against the file, the flatbuffer with the verifier,
// every segment against the segment data, every index, every key and
// layout. Each error names the byte offset and the table.
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"
#include "FindingReport.h"
#include "emit/Support/FileFormat.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/flat_tensor_generated.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace ft = flat_tensor_flatbuffer;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

namespace {
/// Imports one `.ptd` file.
class PTDReader {
public:
  PTDReader(llvm::MemoryBufferRef buffer, MLIRContext *context,
            const PTEReadOptions &options)
      : file(buffer.getBuffer()), fileName(buffer.getBufferIdentifier()),
        context(context), builder(context),
        fileBytes(context, file, options.payloadFile),
        fileNameAttr(StringAttr::get(context, fileName)),
        fileLoc(FileLineColLoc::get(fileNameAttr, 0, 0)),
        findings(fileLoc, fileName, options.findings) {}

  OwningOpRef<ModuleOp> read(bool verify);

private:
  FindingReport error(Check check, uint64_t offset, const Twine &where) {
    return FindingReport(findings, check, offset, where);
  }
  uint64_t offsetOf(const void *object) const {
    return static_cast<const char *>(object) - file.data();
  }
  /// The location of the table at `object`: its path, at the file position.
  Location locFor(const Twine &where, const void *object) {
    return NameLoc::get(builder.getStringAttr(where),
                        FileLineColLoc::get(fileNameAttr, 0, offsetOf(object)));
  }

  LogicalResult readHeader();
  LogicalResult readSegments(DataFileOp dataFile);
  LogicalResult readNamedData();
  /// Entry `index` of the named data, whose keys so far are `keys`.
  LogicalResult readNamedDataEntry(const ft::NamedData *entry, unsigned index,
                                   StringRef where,
                                   llvm::StringMap<unsigned> &keys);
  FailureOr<TensorLayoutAttr> readLayout(const ft::TensorLayout *layout,
                                         const Twine &where);

  StringRef file;
  StringRef fileName;
  MLIRContext *context;
  OpBuilder builder;
  /// Payload attributes: references to the file, or views of it.
  layout::FileBytes fileBytes;
  StringAttr fileNameAttr;
  Location fileLoc;
  FindingSink findings;

  ptd::Header header;
  const ft::FlatTensor *flatTensor = nullptr;
  std::vector<BlobOp> segmentBlobs;
  /// Each segment's table offset and byte count, and whether named data
  /// names it.
  std::vector<uint64_t> segmentOffsets, segmentSizes;
  llvm::BitVector segmentNamed;
};
} // namespace

LogicalResult PTDReader::readHeader() {
  uint64_t size = file.size();
  if (size < ptd::kMinFileSize)
    return error(Check::FileSize, 0, "file")
           << "the file has " << size << " bytes; a .ptd has at least "
           << ptd::kMinFileSize << " (the runtime reads its first 64)";
  StringRef identifier = file.substr(4, 4);
  if (identifier != ft::FlatTensorIdentifier()) {
    FindingReport diag = error(Check::FileIdentifier, 4, "file identifier");
    diag << "expected 'FT01', found '" << llvm::toHex(identifier) << "' (hex)";
    if (llvm::all_of(identifier, llvm::isPrint))
      diag << ", '" << identifier << "'";
    if (identifier == pte::kIdentifier)
      diag << ": this is a program (.pte), not a data file (.ptd)";
    return diag;
  }
  if (!ptd::hasHeader(file))
    return error(Check::HeaderLength, 8, "header magic")
           << "expected 'FH01', found '" << llvm::toHex(file.substr(8, 4))
           << "' (hex); a .ptd needs its header";
  uint32_t length = read32le(file.data() + 12);
  if (length < ptd::kHeaderLength)
    return error(Check::HeaderLength, 12, "header length")
           << "header length " << length << " < " << ptd::kHeaderLength;
  header.flatbufferOffset = read64le(file.data() + 16);
  header.flatbufferSize = read64le(file.data() + 24);
  header.segmentBaseOffset = read64le(file.data() + 32);
  header.segmentDataSize = read64le(file.data() + 40);

  // flatbuffer_offset is the inserted header region: the flatbuffer spans
  // [0, flatbuffer_offset + flatbuffer_size).
  uint64_t region = header.flatbufferOffset;
  if (region < ptd::kHeaderLength || region % 8 != 0)
    return error(Check::HeaderLength, 16, "header flatbuffer_offset")
           << "flatbuffer_offset " << region << " must be a multiple of 8 "
           << "of at least " << ptd::kHeaderLength
           << " (the header region's length)";
  uint64_t end = region + header.flatbufferSize;
  if (end < region || header.flatbufferSize < 8 || end > size)
    return error(Check::HeaderProgramSize, 24, "header flatbuffer_size")
           << "flatbuffer_size " << header.flatbufferSize << " after the "
           << region << "-byte header region does not fit the " << size
           << "-byte file";
  if (header.segmentBaseOffset < end || header.segmentBaseOffset > size)
    return error(Check::HeaderSegmentBase, 32, "header segment_base_offset")
           << "segment_base_offset " << header.segmentBaseOffset
           << " is not between the flatbuffer's end (" << end
           << ") and the end of the " << size << "-byte file";
  if (header.segmentDataSize > size - header.segmentBaseOffset)
    return error(Check::HeaderSegmentDataSize, 40, "header segment_data_size")
           << "segment_data_size " << header.segmentDataSize << " from base "
           << header.segmentBaseOffset << " runs past the end of the " << size
           << "-byte file (the file may be truncated)";
  // Writers put nothing after the segment data, and the runtime reads
  // nothing there: bytes past it mean the base is too small, and that
  // every segment would be read from the wrong place.
  uint64_t dataEnd = header.segmentBaseOffset + header.segmentDataSize;
  if (dataEnd != size) {
    error(Check::SegmentDataEnd, 32,
          "header segment_base_offset and segment_data_size")
            .ignoredByRuntime()
            .detail(", or the file has bytes after its segment data, which "
                    "the runtime ignores and emit cannot import")
        << "the segment data ends at byte " << dataEnd << " (base "
        << header.segmentBaseOffset << " + segment_data_size "
        << header.segmentDataSize << "), but the file has " << size
        << " bytes; segment_base_offset or segment_data_size is wrong, "
        << "and segments would be read from the wrong place";
    return success(findings.collecting());
  }
  return success();
}

LogicalResult PTDReader::readSegments(DataFileOp dataFile) {
  SmallVector<std::pair<uint64_t, uint64_t>> placements;
  for (auto [index, segment] : llvm::enumerate(*flatTensor->segments())) {
    uint64_t offset = segment->offset(), size = segment->size();
    if (offset + size < offset || offset + size > header.segmentDataSize)
      return error(Check::SegmentRange, offsetOf(segment),
                   "segments[" + Twine(index) + "]")
             << "offset " << offset << " and size " << size
             << " run past the segment data (" << header.segmentDataSize
             << " bytes)";
    placements.push_back({offset, size});
  }
  layout::InferredSegments inferred =
      layout::inferSegmentAlignments(header.segmentBaseOffset, placements);
  if (inferred.segmentAlignment)
    dataFile.setSegmentAlignmentAttr(
        builder.getI64IntegerAttr(*inferred.segmentAlignment));
  uint64_t previousEnd = 0;
  for (auto [index, segment] : llvm::enumerate(*flatTensor->segments())) {
    auto [offset, size] = placements[index];
    std::string where = ("segments[" + Twine(index) + "]").str();
    std::optional<uint64_t> alignment = inferred.alignments[index];
    if (!alignment)
      emitWarning(locFor(where, segment))
          << "offset " << offset << " does not follow from the previous "
          << "segment's end (" << previousEnd << ") by alignment; the "
          << "layout is normalized on export";
    previousEnd = offset + size;
    segmentOffsets.push_back(offsetOf(segment));
    segmentSizes.push_back(size);
    SmallString<24> name = layout::blobName(layout::kSegmentBlobPrefix, index);
    segmentBlobs.push_back(compat::create<BlobOp>(
        builder, locFor(where, segment), builder.getStringAttr(name),
        builder.getI64IntegerAttr(
            alignment.value_or(inferred.segmentAlignment.value_or(1))),
        DataPlacementAttr::get(context, DataPlacement::Segment),
        fileBytes.get(
            name, ArrayRef<char>(
                      file.data() + header.segmentBaseOffset + offset, size))));
  }
  return success();
}

FailureOr<TensorLayoutAttr>
PTDReader::readLayout(const ft::TensorLayout *layout, const Twine &where) {
  auto scalarType =
      symbolizeScalarType(static_cast<int32_t>(layout->scalar_type()));
  if (!scalarType)
    return error(Check::Tensor, offsetOf(layout), where + ".scalar_type")
           << "scalar type " << static_cast<int32_t>(layout->scalar_type())
           << " is not a valid ExecuTorch scalar type";
  if (!layout->sizes() || !layout->dim_order())
    return error(Check::Tensor, offsetOf(layout), where)
           << "a tensor layout needs both sizes and dim_order";
  SmallVector<int32_t> sizes(layout->sizes()->size());
  if (!sizes.empty())
    std::memcpy(sizes.data(), layout->sizes()->Data(),
                sizes.size() * sizeof(int32_t));
  SmallVector<int32_t> dimOrder(layout->dim_order()->begin(),
                                layout->dim_order()->end());
  // The attribute's own checks, as findings when collecting.
  TensorLayoutAttr attr;
  std::string path = where.str();
  (void)findings.capture({Check::Tensor, offsetOf(layout), path}, [&] {
    attr = TensorLayoutAttr::getChecked(
        [&] {
          InFlightDiagnostic diag = emitError(fileLoc);
          if (!findings.collecting())
            diag << "at byte " << offsetOf(layout) << " (" << path << "): ";
          return std::move(diag << "the tensor layout ");
        },
        context, *scalarType, ArrayRef<int32_t>(sizes),
        ArrayRef<int32_t>(dimOrder));
    return success(bool(attr));
  });
  if (!attr)
    return failure();
  return attr;
}

LogicalResult PTDReader::readNamedData() {
  llvm::StringMap<unsigned> keys;
  bool allRead = true;
  for (auto [index, entry] : llvm::enumerate(*flatTensor->named_data())) {
    std::string where = ("named_data[" + Twine(index) + "]").str();
    if (succeeded(readNamedDataEntry(entry, index, where, keys)))
      continue;
    if (!findings.collecting())
      return failure();
    allRead = false;
  }
  return success(allRead);
}

LogicalResult PTDReader::readNamedDataEntry(const ft::NamedData *entry,
                                            unsigned index, StringRef where,
                                            llvm::StringMap<unsigned> &keys) {
  FailureOr<StringRef> checked = checkNamedDataKey(
      findings, file, entry, entry->key(), where, index, keys);
  if (failed(checked))
    return failure();
  StringRef key = *checked;
  uint32_t segment = entry->segment_index();
  if (segment >= segmentBlobs.size())
    return error(Check::SegmentIndex, offsetOf(entry), where + ".segment_index")
           << "segment_index " << segment << " is out of range ("
           << segmentBlobs.size() << " segments)";
  BlobOp blob = segmentBlobs[segment];
  segmentNamed.set(segment);
  TensorLayoutAttr layout;
  if (const ft::TensorLayout *table = entry->tensor_layout()) {
    auto read = readLayout(table, where + ".tensor_layout");
    if (failed(read))
      return failure();
    layout = *read;
    uint64_t stored =
        cast<ShapedType>(blob.getData().getType()).getNumElements();
    std::optional<uint64_t> needed = layout.getByteSize();
    // The runtime never compares them: a tensor longer than its segment
    // reads past it.
    if (!needed || *needed != stored) {
      std::string message =
          ("the tensor layout needs " +
           (needed ? Twine(*needed).str() : std::string("too many")) +
           " bytes, but segment " + Twine(segment) + " holds " + Twine(stored) +
           (needed && *needed > stored
                ? "; a tensor loaded from it reads past its end"
                : ""))
              .str();
      if (findings.collecting())
        error(Check::TensorLayoutSize, offsetOf(entry), where).importWarns()
            << message;
      else
        emitWarning(locFor(where, entry)) << message;
    }
  }
  compat::create<NamedDataOp>(
      builder, locFor(where, entry), builder.getStringAttr(key),
      FlatSymbolRefAttr::get(blob.getSymNameAttr()), layout);
  return success();
}

OwningOpRef<ModuleOp> PTDReader::read(bool verify) {
  if (failed(readHeader()))
    return nullptr;
  uint64_t flatbufferEnd = header.flatbufferOffset + header.flatbufferSize;
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(file.data()), flatbufferEnd,
      /*_max_depth=*/64, /*_max_tables=*/flatbufferEnd / 4 + 64);
  if (!ft::VerifyFlatTensorBuffer(verifier)) {
    error(Check::Flatbuffer, 0, "FlatTensor")
        << "the flatbuffer in bytes [0, " << flatbufferEnd
        << ") fails verification: the file is truncated or corrupt, or "
        << "written for ExecuTorch 0.6, whose FlatTensor schema differs";
    return nullptr;
  }
  flatTensor = ft::GetFlatTensor(file.data());
  if (!flatTensor->segments() || !flatTensor->named_data()) {
    error(Check::MissingTable, offsetOf(flatTensor),
          flatTensor->segments() ? "FlatTensor.named_data"
                                 : "FlatTensor.segments")
        << "the table is missing, which the runtime requires";
    return nullptr;
  }

  OwningOpRef<ModuleOp> module(ModuleOp::create(fileLoc));
  builder.setInsertionPointToEnd(module->getBody());
  std::string name = llvm::sys::path::stem(fileName).str();
  if (name.empty() || name.front() == '<')
    name = "data";
  auto dataFile = compat::create<DataFileOp>(builder, fileLoc, name);
  if (flatTensor->version() != 0)
    dataFile.setVersionAttr(builder.getI32IntegerAttr(flatTensor->version()));
  builder.setInsertionPointToEnd(&dataFile.getBody().front());
  if (failed(readSegments(dataFile)))
    return nullptr;
  segmentNamed.resize(segmentBlobs.size());
  if (failed(readNamedData()))
    return nullptr;
  reportUnnamedData(findings, "segments", segmentOffsets, segmentSizes,
                    segmentNamed);
  if (verify && failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> emit::translateFromPTD(llvm::MemoryBufferRef buffer,
                                             MLIRContext *context,
                                             const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  return PTDReader(buffer, context, options).read(options.verify);
}
