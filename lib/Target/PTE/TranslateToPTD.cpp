//===- TranslateToPTD.cpp - Write an et.data_file as a .ptd -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds the FlatTensor flatbuffer, inserts the FH01 header and lays out the
// segments after it, following the writer checklist of the .ptd format
// notes: segments and named data always written, keys in IR order, zero
// padding, a base aligned to every segment's alignment, nothing after the
// last segment. A data file in 0.6's layout is written in 0.6's schema,
// with its tensor table, in the same header and segment layout.
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"
#include "FlatbufferAllocator.h"
#include "emit/Support/FileFormat.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/flat_tensor_0_6_generated.h"
#include "emit/File/flat_tensor_generated.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>
#include <vector>

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace ft = flat_tensor_flatbuffer;
namespace ft06 = flat_tensor_0_6_flatbuffer;
using flatbuffers::Offset;

/// Blobs stored as segments: every placed one, and unplaced ones that named
/// data names, in IR order.
static FailureOr<std::vector<layout::Segment>>
collectSegments(DataFileOp dataFile, DenseMap<Operation *, uint32_t> &index,
                SplatStorage &splats) {
  DenseSet<StringAttr> named;
  for (NamedDataOp entry : dataFile.getNamedData())
    named.insert(entry.getBlobAttr().getAttr());
  for (DataTensorOp tensor : dataFile.getDataTensors())
    named.insert(tensor.getBlobAttr().getAttr());
  std::vector<layout::Segment> segments;
  for (BlobOp blob : dataFile.getBlobs()) {
    if (!blob.getPlacement() && !named.contains(blob.getSymNameAttr()))
      continue;
    std::optional<ArrayRef<char>> bytes =
        getPayloadBytes(blob.getData(), splats);
    if (!bytes)
      return blob.emitOpError("data is not available (elided or released "
                              "resource); cannot write it");
    index[blob] = segments.size();
    segments.push_back({*bytes, static_cast<uint64_t>(blob.getAlignment()), 0});
  }
  return segments;
}

namespace {
/// Where everything of a data file goes in its .ptd: the segments placed,
/// the flatbuffer built, the header filled. Writing it then only copies.
struct DataFileLayout {
  SplatStorage splats;
  std::vector<layout::Segment> segments;
  ReservedRangeAllocator allocator;
  flatbuffers::FlatBufferBuilder builder{1024, &allocator};
  ptd::Header header;

  ArrayRef<char> flatbuffer() const {
    return {reinterpret_cast<const char *>(builder.GetBufferPointer()),
            builder.GetSize()};
  }
  uint64_t fileSize() const {
    return header.segmentBaseOffset + header.segmentDataSize;
  }
};
} // namespace

/// The flatbuffer of `dataFile`, whose blobs are stored as `segments`
/// (`segmentOf` maps a blob to its segment).
static void buildFlatTensor(DataFileOp dataFile,
                            const DenseMap<Operation *, uint32_t> &segmentOf,
                            DataFileLayout &out) {
  flatbuffers::FlatBufferBuilder &builder = out.builder;
  std::vector<Offset<ft::DataSegment>> segmentTable;
  for (const layout::Segment &segment : out.segments)
    segmentTable.push_back(
        ft::CreateDataSegment(builder, segment.offset, segment.bytes.size()));
  mlir::SymbolTable symbols(dataFile);
  std::vector<Offset<ft::NamedData>> namedTable;
  for (NamedDataOp entry : dataFile.getNamedData()) {
    Offset<ft::TensorLayout> layoutTable;
    if (TensorLayoutAttr layout = entry.getLayoutAttr()) {
      std::vector<uint8_t> dimOrder(layout.getDimOrder().begin(),
                                    layout.getDimOrder().end());
      layoutTable =
          ft::CreateTensorLayout(builder,
                                 static_cast<executorch_flatbuffer::ScalarType>(
                                     layout.getScalarType()),
                                 builder.CreateVector(layout.getSizes().data(),
                                                      layout.getSizes().size()),
                                 builder.CreateVector(dimOrder));
    }
    auto key =
        builder.CreateString(entry.getKey().data(), entry.getKey().size());
    namedTable.push_back(ft::CreateNamedData(
        builder, key, segmentOf.lookup(symbols.lookup(entry.getBlob())),
        layoutTable));
  }
  auto segmentVector = builder.CreateVector(segmentTable);
  auto namedVector = builder.CreateVector(namedTable);
  builder.Finish(ft::CreateFlatTensor(builder,
                                      dataFile.getVersion().value_or(0),
                                      segmentVector, namedVector),
                 ft::FlatTensorIdentifier());
}

/// The flatbuffer of `dataFile`, in 0.6's layout, as buildFlatTensor.
static void buildFlatTensor0_6(DataFileOp dataFile,
                               const DenseMap<Operation *, uint32_t> &segmentOf,
                               DataFileLayout &out) {
  flatbuffers::FlatBufferBuilder &builder = out.builder;
  mlir::SymbolTable symbols(dataFile);
  auto segmentIndex = [&](FlatSymbolRefAttr blob) {
    return segmentOf.lookup(symbols.lookup(blob.getAttr()));
  };
  std::vector<Offset<ft06::TensorMetadata>> tensorTable;
  for (DataTensorOp tensor : dataFile.getDataTensors()) {
    TensorLayoutAttr layout = tensor.getLayout();
    std::vector<uint8_t> dimOrder(layout.getDimOrder().begin(),
                                  layout.getDimOrder().end());
    auto name =
        builder.CreateString(tensor.getFqn().data(), tensor.getFqn().size());
    auto sizes = builder.CreateVector(layout.getSizes().data(),
                                      layout.getSizes().size());
    tensorTable.push_back(ft06::CreateTensorMetadata(
        builder, name,
        static_cast<executorch_flatbuffer::ScalarType>(layout.getScalarType()),
        sizes, builder.CreateVector(dimOrder),
        segmentIndex(tensor.getBlobAttr()), tensor.getOffset()));
  }
  std::vector<Offset<ft06::DataSegment>> segmentTable;
  for (const layout::Segment &segment : out.segments)
    segmentTable.push_back(
        ft06::CreateDataSegment(builder, segment.offset, segment.bytes.size()));
  std::vector<Offset<ft06::NamedData>> namedTable;
  for (NamedDataOp entry : dataFile.getNamedData())
    namedTable.push_back(ft06::CreateNamedData(
        builder,
        builder.CreateString(entry.getKey().data(), entry.getKey().size()),
        segmentIndex(entry.getBlobAttr())));
  auto tensorVector = builder.CreateVector(tensorTable);
  auto segmentVector = builder.CreateVector(segmentTable);
  auto namedVector = builder.CreateVector(namedTable);
  builder.Finish(
      ft06::CreateFlatTensor(builder, dataFile.getVersion().value_or(0),
                             dataFile.getTensorAlignment().value_or(0),
                             tensorVector, segmentVector, namedVector),
      ft06::FlatTensorIdentifier());
}

static LogicalResult layOutDataFile(DataFileOp dataFile,
                                    const PTEWriteOptions &options,
                                    DataFileLayout &out) {
  if (options.segmentAlignment &&
      !llvm::isPowerOf2_64(*options.segmentAlignment))
    return dataFile.emitError("invalid option --pte-segment-alignment=")
           << *options.segmentAlignment << ": the value must be a power of two";
  DenseMap<Operation *, uint32_t> segmentOf;
  auto collected = collectSegments(dataFile, segmentOf, out.splats);
  if (failed(collected))
    return failure();
  out.segments = std::move(*collected);
  uint64_t segmentAlignment = layout::resolveSegmentAlignment(
      dataFile.getSegmentAlignment(), options.segmentAlignment);
  uint64_t baseAlignment =
      layout::placeSegments(out.segments, segmentAlignment);
  if (dataFile.getLayout_0_6())
    buildFlatTensor0_6(dataFile, segmentOf, out);
  else
    buildFlatTensor(dataFile, segmentOf, out);

  ptd::Header &header = out.header;
  header.flatbufferOffset = ptd::kHeaderRegion;
  header.flatbufferSize = out.flatbuffer().size();
  uint64_t flatbufferEnd = header.flatbufferOffset + header.flatbufferSize;
  header.segmentBaseOffset = llvm::alignTo(flatbufferEnd, baseAlignment);
  header.segmentDataSize = layout::segmentDataSize(out.segments);
  return success();
}

static void writeDataFile(const DataFileLayout &layout, raw_ostream &os) {
  ArrayRef<char> flatbuffer = layout.flatbuffer();
  const ptd::Header &header = layout.header;
  writeLE32(os, llvm::support::endian::read32le(flatbuffer.data()) +
                    ptd::kHeaderRegion);
  os.write(flatbuffer.data() + 4, 4); // File identifier.
  os.write(ptd::kHeaderMagic, 4);
  writeLE32(os, ptd::kHeaderLength);
  for (uint64_t field : {header.flatbufferOffset, header.flatbufferSize,
                         header.segmentBaseOffset, header.segmentDataSize})
    writeLE64(os, field);
  os.write_zeros(ptd::kHeaderRegion - ptd::kHeaderLength);
  os.write(flatbuffer.data() + 8, flatbuffer.size() - 8);
  layout::writeSegments(os, layout.segments,
                        header.flatbufferOffset + header.flatbufferSize,
                        header.segmentBaseOffset);
}

FailureOr<uint64_t> emit::getPTDFileSize(et::DataFileOp dataFile,
                                         const PTEWriteOptions &options) {
  DataFileLayout layout;
  if (failed(layOutDataFile(dataFile, options, layout)))
    return failure();
  return layout.fileSize();
}

LogicalResult emit::translateToPTD(Operation *op, raw_ostream &os,
                                   const PTEWriteOptions &options) {
  DataFileOp dataFile = dyn_cast<DataFileOp>(op);
  if (!dataFile) {
    SmallVector<DataFileOp> dataFiles;
    if (auto module = dyn_cast<ModuleOp>(op))
      for (DataFileOp candidate : module.getOps<DataFileOp>())
        if (options.dataFileName.empty() ||
            candidate.getSymName() == options.dataFileName)
          dataFiles.push_back(candidate);
    if (dataFiles.size() != 1) {
      auto diag = mlir::emitError(op->getLoc(), "expected exactly one ")
                  << "'et.data_file' to write as a .ptd";
      if (!options.dataFileName.empty())
        diag << " named '" << options.dataFileName << "'";
      return diag << ", found " << dataFiles.size()
                  << (options.dataFileName.empty() && dataFiles.size() > 1
                          ? " (choose one with --ptd-data-file)"
                          : "");
    }
    dataFile = dataFiles.front();
  }
  if (options.verify && failed(verify(dataFile)))
    return failure();
  // Every payload written must be there as the IR recorded it.
  if (failed(et::checkPayloadFiles(dataFile)))
    return failure();
  DataFileLayout layout;
  if (failed(layOutDataFile(dataFile, options, layout)))
    return failure();
  writeDataFile(layout, os);
  return success();
}
