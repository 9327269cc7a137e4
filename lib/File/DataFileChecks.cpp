//===- DataFileChecks.cpp - Read and check every table of a .ptd -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What DataFile::open runs: the FH01 header against the file, the
// flatbuffer with the verifier, every segment against the segment data,
// then every named data entry (key, segment, tensor layout). Every finding
// is recorded; a damaged header, flatbuffer or segment table stops the
// read, a bad entry does not.
//
//===----------------------------------------------------------------------===//

#include "FindingReport.h"
#include "emit/File/ReadScalars.h"

#include "emit/Dialect/ET/IR/ETInvariants.h"
#include "emit/File/DataFile.h"
#include "emit/File/flat_tensor_generated.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace emit;
namespace ft = flat_tensor_flatbuffer;

namespace emit {
/// Reads and checks one data file, filling in its DataFile.
class DataFileChecker : FileChecker<DataFile> {
public:
  explicit DataFileChecker(DataFile &file) : FileChecker(file) {}
  void run();

private:
  LogicalResult checkHeader();
  LogicalResult checkHeaderFields(const ptd::ReadHeader &header);
  LogicalResult verifyFlatbuffer();
  LogicalResult checkSegments();
  LogicalResult checkNamedData();
  /// Entry `index` of the named data, whose keys so far are `keys`.
  LogicalResult checkNamedDataEntry(const ft::NamedData *entry, unsigned index,
                                    StringRef where,
                                    llvm::StringMap<unsigned> &keys);
  LogicalResult checkLayout(const ft::TensorLayout *layout, const Twine &where);
  /// Warns when the tensor `layout` of entry `entry` needs other than the
  /// bytes its segment holds.
  void checkLayoutSize(const ft::NamedData *entry, StringRef where);

  const ft::FlatTensor *flatTensor = nullptr;
  /// Each segment's table offset and byte count, and whether named data
  /// names it.
  std::vector<uint64_t> segmentOffsets, segmentSizes;
  llvm::BitVector segmentNamed;
};
} // namespace emit

std::unique_ptr<DataFile>
DataFile::open(std::shared_ptr<const FileBuffer> buffer) {
  std::unique_ptr<DataFile> file(new DataFile(std::move(buffer)));
  DataFileChecker(*file).run();
  return file;
}

size_t DataFile::getSegmentCount() const {
  return flatTensor ? flatTensor->segments()->size() : 0;
}

SegmentPlacement DataFile::getSegmentPlacement(uint32_t index) const {
  const ft::DataSegment *segment = flatTensor->segments()->Get(index);
  return {segment->offset(), segment->size()};
}

uint64_t DataFile::getSegmentEntryOffset(uint32_t index) const {
  return offsetOf(flatTensor->segments()->Get(index));
}

void DataFileChecker::run() {
  if (failed(checkHeader()) || failed(verifyFlatbuffer()))
    return;
  if (failed(checkSegments())) {
    file.setReadable();
    return;
  }
  file.segmentTableEnd = file.findings.findings.size();
  segmentNamed.resize(segmentSizes.size());
  bool allRead = succeeded(checkNamedData());
  file.setReadable();
  if (allRead)
    reportUnnamedData(sink, "segments", segmentOffsets, segmentSizes,
                      segmentNamed);
}

//===----------------------------------------------------------------------===//
// Header and verification
//===----------------------------------------------------------------------===//

LogicalResult DataFileChecker::checkHeader() {
  if (failed(checkIdentifier(sink, bytes, ft::FlatTensorIdentifier(), ".ptd",
                             ptd::kMinFileSize)))
    return failure();
  std::optional<ptd::ReadHeader> header = ptd::readHeader(bytes);
  if (!header)
    return error(Check::HeaderLength, 8, "header magic")
           << "expected '" << StringRef(ptd::kHeaderMagic, 4) << "', found '"
           << llvm::toHex(bytes.substr(8, 4))
           << "' (hex); a .ptd needs its header";
  if (header->length < ptd::kHeaderLength)
    return error(Check::HeaderLength, 12, "header length")
           << "header length " << header->length << " < " << ptd::kHeaderLength;
  file.header = header->fields;
  return checkHeaderFields(*header);
}

LogicalResult DataFileChecker::checkHeaderFields(const ptd::ReadHeader &read) {
  const ptd::Header &header = read.fields;
  uint64_t size = bytes.size();
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
  file.flatbufferSize = end;
  file.segmentBase = header.segmentBaseOffset;
  uint64_t dataEnd = header.segmentBaseOffset + header.segmentDataSize;
  if (dataEnd != size)
    reportSegmentDataEnd(sink, 32, "header", header.segmentBaseOffset, dataEnd,
                         size, /*recordedSize=*/true);
  return success();
}

LogicalResult DataFileChecker::verifyFlatbuffer() {
  uint64_t end = file.flatbufferSize;
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(bytes.data()), end, /*_max_depth=*/64,
      /*_max_tables=*/end / 4 + 64);
  if (!ft::VerifyFlatTensorBuffer(verifier))
    return error(Check::Flatbuffer, 0, "FlatTensor")
           << "the flatbuffer in bytes [0, " << end
           << ") fails verification: the file is truncated or corrupt, or "
           << "written for ExecuTorch 0.6, whose FlatTensor schema differs";
  flatTensor = ft::GetFlatTensor(bytes.data());
  if (!flatTensor->segments() || !flatTensor->named_data())
    return error(Check::MissingTable, offsetOf(flatTensor),
                 flatTensor->segments() ? "FlatTensor.named_data"
                                        : "FlatTensor.segments")
           << "the table is missing, which the runtime requires";
  file.flatTensor = flatTensor;
  return success();
}

//===----------------------------------------------------------------------===//
// Segments and named data
//===----------------------------------------------------------------------===//

LogicalResult DataFileChecker::checkSegments() {
  uint64_t dataSize = file.header.segmentDataSize;
  for (auto [index, segment] : llvm::enumerate(*flatTensor->segments())) {
    uint64_t offset = segment->offset(), size = segment->size();
    if (offset + size < offset || offset + size > dataSize)
      return error(Check::SegmentRange, offsetOf(segment),
                   "segments[" + Twine(index) + "]")
             << "offset " << offset << " and size " << size
             << " run past the segment data (" << dataSize << " bytes)";
    segmentOffsets.push_back(offsetOf(segment));
    segmentSizes.push_back(size);
  }
  return success();
}

LogicalResult DataFileChecker::checkNamedData() {
  llvm::StringMap<unsigned> keys;
  bool allRead = true;
  for (auto [index, entry] : llvm::enumerate(*flatTensor->named_data())) {
    std::string where = ("named_data[" + Twine(index) + "]").str();
    allRead &= succeeded(checkNamedDataEntry(entry, index, where, keys));
  }
  return success(allRead);
}

LogicalResult
DataFileChecker::checkNamedDataEntry(const ft::NamedData *entry, unsigned index,
                                     StringRef where,
                                     llvm::StringMap<unsigned> &keys) {
  if (failed(checkNamedDataKey(sink, bytes, entry, entry->key(), where, index,
                               keys)))
    return failure();
  uint32_t segment = entry->segment_index();
  if (segment >= segmentSizes.size())
    return error(Check::SegmentIndex, offsetOf(entry), where + ".segment_index")
           << "segment_index " << segment << " is out of range ("
           << segmentSizes.size() << " segments)";
  segmentNamed.set(segment);
  const ft::TensorLayout *layout = entry->tensor_layout();
  if (!layout)
    return success();
  if (failed(checkLayout(layout, where + ".tensor_layout")))
    return failure();
  checkLayoutSize(entry, where);
  return success();
}

LogicalResult DataFileChecker::checkLayout(const ft::TensorLayout *layout,
                                           const Twine &where) {
  if (!et::symbolizeScalarType(static_cast<int32_t>(layout->scalar_type())))
    return error(Check::Tensor, offsetOf(layout), where + ".scalar_type")
           << "scalar type " << static_cast<int32_t>(layout->scalar_type())
           << " is not a valid ExecuTorch scalar type";
  if (!layout->sizes() || !layout->dim_order())
    return error(Check::Tensor, offsetOf(layout), where)
           << "a tensor layout needs both sizes and dim_order";
  SmallVector<int32_t> sizes = readScalars(layout->sizes());
  SmallVector<int32_t> dimOrder(layout->dim_order()->begin(),
                                layout->dim_order()->end());
  // What the layout attribute's verifier checks.
  if (et::Problem problem = et::getTensorShapeProblem(sizes, dimOrder))
    return error(Check::Tensor, offsetOf(layout), where)
           << "the tensor layout " << *problem;
  return success();
}

void DataFileChecker::checkLayoutSize(const ft::NamedData *entry,
                                      StringRef where) {
  const ft::TensorLayout *layout = entry->tensor_layout();
  uint32_t segment = entry->segment_index();
  uint64_t stored = segmentSizes[segment];
  std::optional<uint64_t> needed = et::getTensorByteSize(
      *et::symbolizeScalarType(static_cast<int32_t>(layout->scalar_type())),
      readScalars(layout->sizes()));
  // The runtime never compares them: a tensor longer than its segment
  // reads past it.
  if (needed && *needed == stored)
    return;
  error(Check::TensorLayoutSize, offsetOf(entry), where).importWarns()
      << "the tensor layout needs "
      << (needed ? Twine(*needed).str() : std::string("too many"))
      << " bytes, but segment " << segment << " holds " << stored
      << (needed && *needed > stored
              ? "; a tensor loaded from it reads past its end"
              : "");
}
