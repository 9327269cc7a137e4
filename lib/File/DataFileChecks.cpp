//===- DataFileChecks.cpp - Read and check every table of a .ptd -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What DataFile::open runs: the FH01 header against the file, the
// flatbuffer with the verifier (in the current schema or 0.6's), every
// segment against the segment data, then every named data entry (key,
// segment, tensor layout) and, in 0.6's layout, every tensor (name,
// layout, segment and offset). Every finding is recorded; a damaged
// header, flatbuffer or segment table stops the read, a bad entry does
// not.
//
//===----------------------------------------------------------------------===//

#include "FindingReport.h"
#include "emit/File/ReadScalars.h"

#include "emit/Dialect/ET/IR/ETInvariants.h"
#include "emit/File/DataFile.h"
#include "emit/File/flat_tensor_0_6_generated.h"
#include "emit/File/flat_tensor_generated.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace emit;
namespace ft = flat_tensor_flatbuffer;
namespace ft06 = flat_tensor_0_6_flatbuffer;

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
  /// Whether [0, end) verifies as a FlatTensor of `Root`'s schema.
  template <typename Root>
  bool verifiesAs(uint64_t end) const;
  LogicalResult acceptCurrentLayout();
  LogicalResult accept0_6Layout();
  template <typename SegmentVector>
  LogicalResult checkSegments(const SegmentVector &segments);
  LogicalResult checkNamedData();
  LogicalResult check0_6Tables();
  /// Entry `index` of the named data, whose keys so far are `keys`.
  LogicalResult checkNamedDataEntry(const ft::NamedData *entry, unsigned index,
                                    StringRef where,
                                    llvm::StringMap<unsigned> &keys);
  LogicalResult check0_6Tensor(const ft06::TensorMetadata *tensor,
                               StringRef where);
  /// Records that `object` (at `where`) names segment `segment`, or says
  /// the index is out of range.
  LogicalResult useSegment(uint32_t segment, const void *object,
                           const Twine &where);
  LogicalResult checkLayout(const ft::TensorLayout *layout, const Twine &where);
  /// The layout fields of a tensor, at `object` (`where` its path).
  LogicalResult checkLayoutFields(int8_t scalarType,
                                  const flatbuffers::Vector<int32_t> *sizes,
                                  const flatbuffers::Vector<uint8_t> *dimOrder,
                                  const void *object, const Twine &where);
  /// Warns when the tensor `layout` of entry `entry` needs other than the
  /// bytes its segment holds.
  void checkLayoutSize(const ft::NamedData *entry, StringRef where);

  const ft::FlatTensor *flatTensor = nullptr;
  const ft06::FlatTensor *flatTensor0_6 = nullptr;
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
  if (flatTensor0_6)
    return flatTensor0_6->segments()->size();
  return flatTensor ? flatTensor->segments()->size() : 0;
}

SegmentPlacement DataFile::getSegmentPlacement(uint32_t index) const {
  if (flatTensor0_6) {
    const ft06::DataSegment *segment = flatTensor0_6->segments()->Get(index);
    return {segment->offset(), segment->size()};
  }
  const ft::DataSegment *segment = flatTensor->segments()->Get(index);
  return {segment->offset(), segment->size()};
}

uint64_t DataFile::getSegmentEntryOffset(uint32_t index) const {
  if (flatTensor0_6)
    return offsetOf(flatTensor0_6->segments()->Get(index));
  return offsetOf(flatTensor->segments()->Get(index));
}

void DataFileChecker::run() {
  if (failed(checkHeader()) || failed(verifyFlatbuffer()))
    return;
  LogicalResult segmentsRead = flatTensor0_6
                                   ? checkSegments(*flatTensor0_6->segments())
                                   : checkSegments(*flatTensor->segments());
  if (failed(segmentsRead)) {
    file.setReadable();
    return;
  }
  file.segmentTableEnd = file.findings.findings.size();
  segmentNamed.resize(segmentSizes.size());
  bool allRead = succeeded(flatTensor0_6 ? check0_6Tables() : checkNamedData());
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

template <typename Root>
bool DataFileChecker::verifiesAs(uint64_t end) const {
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(bytes.data()), end, /*_max_depth=*/64,
      /*_max_tables=*/end / 4 + 64);
  return verifier.VerifyBuffer<Root>(ft::FlatTensorIdentifier());
}

/// Whether the root table of a verified FlatTensor has fields past the
/// current schema's three: 0.6's segments and named data.
static bool hasFieldsOf0_6(StringRef bytes) {
  const auto *root = flatbuffers::GetRoot<flatbuffers::Table>(bytes.data());
  return root->GetOptionalFieldOffset(ft06::FlatTensor::VT_SEGMENTS) ||
         root->GetOptionalFieldOffset(ft06::FlatTensor::VT_NAMED_DATA);
}

// Both schemas share the identifier and version 0: a file is 0.6's when it
// verifies in 0.6's schema and its root has 0.6's segments or named data,
// fields the current schema does not have.
LogicalResult DataFileChecker::verifyFlatbuffer() {
  uint64_t end = file.flatbufferSize;
  if (verifiesAs<ft06::FlatTensor>(end) && hasFieldsOf0_6(bytes))
    return accept0_6Layout();
  if (verifiesAs<ft::FlatTensor>(end))
    return acceptCurrentLayout();
  return error(Check::Flatbuffer, 0, "FlatTensor")
         << "the flatbuffer in bytes [0, " << end
         << ") fails verification, in the current FlatTensor schema and in "
         << "ExecuTorch 0.6's: the file is truncated or corrupt";
}

LogicalResult DataFileChecker::acceptCurrentLayout() {
  flatTensor = ft::GetFlatTensor(bytes.data());
  if (!flatTensor->segments() || !flatTensor->named_data())
    return error(Check::MissingTable, offsetOf(flatTensor),
                 flatTensor->segments() ? "FlatTensor.named_data"
                                        : "FlatTensor.segments")
           << "the table is missing, which the runtime requires";
  file.flatTensor = flatTensor;
  return success();
}

LogicalResult DataFileChecker::accept0_6Layout() {
  flatTensor0_6 = flatbuffers::GetRoot<ft06::FlatTensor>(bytes.data());
  // 0.6's runtime walks the tensors and checks the segments; it never
  // reads the named data.
  if (!flatTensor0_6->tensors() || !flatTensor0_6->segments())
    return error(Check::MissingTable, offsetOf(flatTensor0_6),
                 flatTensor0_6->tensors() ? "FlatTensor.segments"
                                          : "FlatTensor.tensors")
           << "the table is missing, which ExecuTorch 0.6's runtime requires";
  file.layout = DataFileLayout::Release0_6;
  file.flatTensor0_6 = flatTensor0_6;
  error(Check::DataFileLayout06, offsetOf(flatTensor0_6), "FlatTensor")
          .warning()
      << "the file is in ExecuTorch 0.6's layout (a tensor table); 0.7 and "
      << "later read the same identifier and version with another schema and "
      << "refuse or misread it (emit-translate --pte-to-pte "
      << "--target-runtime=0.7 converts it)";
  return success();
}

//===----------------------------------------------------------------------===//
// Segments and named data
//===----------------------------------------------------------------------===//

template <typename SegmentVector>
LogicalResult DataFileChecker::checkSegments(const SegmentVector &segments) {
  uint64_t dataSize = file.header.segmentDataSize;
  for (auto [index, segment] : llvm::enumerate(segments)) {
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

LogicalResult DataFileChecker::useSegment(uint32_t segment, const void *object,
                                          const Twine &where) {
  if (segment >= segmentSizes.size())
    return error(Check::SegmentIndex, offsetOf(object), where)
           << "segment_index " << segment << " is out of range ("
           << segmentSizes.size() << " segments)";
  segmentNamed.set(segment);
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
  if (failed(
          useSegment(entry->segment_index(), entry, where + ".segment_index")))
    return failure();
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
  return checkLayoutFields(static_cast<int8_t>(layout->scalar_type()),
                           layout->sizes(), layout->dim_order(), layout, where);
}

LogicalResult DataFileChecker::checkLayoutFields(
    int8_t scalarType, const flatbuffers::Vector<int32_t> *sizesTable,
    const flatbuffers::Vector<uint8_t> *dimOrderTable, const void *object,
    const Twine &where) {
  if (!et::symbolizeScalarType(scalarType))
    return error(Check::Tensor, offsetOf(object), where + ".scalar_type")
           << "scalar type " << static_cast<int32_t>(scalarType)
           << " is not a valid ExecuTorch scalar type";
  if (!sizesTable || !dimOrderTable)
    return error(Check::Tensor, offsetOf(object), where)
           << "a tensor layout needs both sizes and dim_order";
  SmallVector<int32_t> sizes = readScalars(sizesTable);
  SmallVector<int32_t> dimOrder(dimOrderTable->begin(), dimOrderTable->end());
  // What the layout attribute's verifier checks.
  if (et::Problem problem = et::getTensorShapeProblem(sizes, dimOrder))
    return error(Check::Tensor, offsetOf(object), where)
           << "the tensor layout " << *problem;
  return success();
}

//===----------------------------------------------------------------------===//
// ExecuTorch 0.6's tensors and named data
//===----------------------------------------------------------------------===//

LogicalResult DataFileChecker::check0_6Tables() {
  bool allRead = true;
  llvm::StringMap<unsigned> names, keys;
  for (auto [index, tensor] : llvm::enumerate(*flatTensor0_6->tensors())) {
    std::string where = ("tensors[" + Twine(index) + "]").str();
    allRead &= succeeded(checkNamedDataKey(
                   sink, bytes, tensor, tensor->fully_qualified_name(), where,
                   index, names, "tensors", "fully_qualified_name")) &&
               succeeded(check0_6Tensor(tensor, where));
  }
  if (const auto *named = flatTensor0_6->named_data())
    for (auto [index, entry] : llvm::enumerate(*named)) {
      std::string where = ("named_data[" + Twine(index) + "]").str();
      allRead &= succeeded(checkNamedDataKey(sink, bytes, entry, entry->key(),
                                             where, index, keys)) &&
                 succeeded(useSegment(entry->segment_index(), entry,
                                      where + ".segment_index"));
    }
  return success(allRead);
}

LogicalResult
DataFileChecker::check0_6Tensor(const ft06::TensorMetadata *tensor,
                                StringRef where) {
  uint32_t segment = tensor->segment_index();
  if (failed(useSegment(segment, tensor, where + ".segment_index")) ||
      failed(checkLayoutFields(static_cast<int8_t>(tensor->scalar_type()),
                               tensor->sizes(), tensor->dim_order(), tensor,
                               where)))
    return failure();
  std::optional<uint64_t> needed = et::getTensorByteSize(
      *et::symbolizeScalarType(static_cast<int32_t>(tensor->scalar_type())),
      readScalars(tensor->sizes()));
  uint64_t offset = tensor->offset(), held = segmentSizes[segment];
  // The runtime loads the tensor's bytes from there unchecked.
  if (needed && offset <= held && *needed <= held - offset)
    return success();
  return error(Check::SegmentOffset, offsetOf(tensor), where + ".offset")
         << "the tensor needs "
         << (needed ? Twine(*needed).str() : std::string("too many"))
         << " bytes at offset " << offset << " of segment " << segment
         << ", which holds " << held;
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
