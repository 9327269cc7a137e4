//===- TranslateFromPTD.cpp - Import a .ptd as an et.data_file --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds the IR of a data file (FlatTensor) the file layer has opened and
// checked (emit/File/DataFile.h): every segment, key, index and layout is
// sound, so building checks nothing. Payloads are never copied.
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"
#include "ImportReport.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/DataFile.h"
#include "emit/File/ReadScalars.h"
#include "emit/File/flat_tensor_0_6_generated.h"
#include "emit/File/flat_tensor_generated.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace ft = flat_tensor_flatbuffer;
namespace ft06 = flat_tensor_0_6_flatbuffer;

namespace {
/// Builds the module of one readable data file.
class DataFileImporter {
public:
  DataFileImporter(const DataFile &file, MLIRContext *context,
                   const PTEReadOptions &options)
      : file(file), context(context), builder(context),
        fileBytes(context, file.getBuffer(), options.payloadFile),
        fileNameAttr(StringAttr::get(context, file.getName())),
        fileLoc(FileLineColLoc::get(fileNameAttr, 0, 0)) {}

  OwningOpRef<ModuleOp> build(const layout::InferredSegments &segments);

private:
  /// The location of the table at `object`: its path, at the file position.
  Location locFor(const Twine &where, const void *object) {
    return NameLoc::get(
        builder.getStringAttr(where),
        FileLineColLoc::get(fileNameAttr, 0, file.offsetOf(object)));
  }
  void buildSegments(DataFileOp dataFile,
                     const layout::InferredSegments &inferred);
  void buildNamedData();
  void build0_6Tables();
  /// The layout `scalarType`, `sizes` and `dimOrder` describe (checked).
  TensorLayoutAttr getLayout(int8_t scalarType,
                             const flatbuffers::Vector<int32_t> *sizes,
                             const flatbuffers::Vector<uint8_t> *dimOrder);

  const DataFile &file;
  MLIRContext *context;
  OpBuilder builder;
  /// Payload attributes: references to the file, or views of it.
  layout::FileBytes fileBytes;
  StringAttr fileNameAttr;
  Location fileLoc;
  std::vector<BlobOp> segmentBlobs;
};
} // namespace

OwningOpRef<ModuleOp>
DataFileImporter::build(const layout::InferredSegments &segments) {
  const ft::FlatTensor *flatTensor = file.getFlatTensor();
  OwningOpRef<ModuleOp> module(ModuleOp::create(fileLoc));
  builder.setInsertionPointToEnd(module->getBody());
  std::string name = llvm::sys::path::stem(file.getName()).str();
  if (name.empty() || name.front() == '<')
    name = "data";
  auto dataFile = compat::create<DataFileOp>(builder, fileLoc, name);
  uint32_t version =
      flatTensor ? flatTensor->version() : file.getFlatTensor0_6()->version();
  if (version != 0)
    dataFile.setVersionAttr(builder.getI32IntegerAttr(version));
  if (!flatTensor) {
    dataFile.setLayout_0_6(true);
    if (uint32_t alignment = file.getFlatTensor0_6()->tensor_alignment())
      dataFile.setTensorAlignmentAttr(builder.getI64IntegerAttr(alignment));
  }
  builder.setInsertionPointToEnd(&dataFile.getBody().front());
  buildSegments(dataFile, segments);
  if (flatTensor)
    buildNamedData();
  else
    build0_6Tables();
  return module;
}

void DataFileImporter::buildSegments(DataFileOp dataFile,
                                     const layout::InferredSegments &inferred) {
  if (inferred.segmentAlignment)
    dataFile.setSegmentAlignmentAttr(
        builder.getI64IntegerAttr(*inferred.segmentAlignment));
  for (size_t index = 0, e = file.getSegmentCount(); index != e; ++index) {
    std::optional<uint64_t> alignment = inferred.alignments[index];
    SmallString<24> name = layout::blobName(layout::kSegmentBlobPrefix, index);
    segmentBlobs.push_back(compat::create<BlobOp>(
        builder,
        NameLoc::get(builder.getStringAttr("segments[" + Twine(index) + "]"),
                     FileLineColLoc::get(fileNameAttr, 0,
                                         file.getSegmentEntryOffset(index))),
        builder.getStringAttr(name),
        builder.getI64IntegerAttr(
            alignment.value_or(inferred.segmentAlignment.value_or(1))),
        DataPlacementAttr::get(context, DataPlacement::Segment),
        fileBytes.get(name, file.getSegmentBytes(index))));
  }
}

TensorLayoutAttr
DataFileImporter::getLayout(int8_t scalarType,
                            const flatbuffers::Vector<int32_t> *sizes,
                            const flatbuffers::Vector<uint8_t> *dimOrder) {
  return TensorLayoutAttr::get(
      context, *symbolizeScalarType(scalarType), readScalars(sizes),
      SmallVector<int32_t>(dimOrder->begin(), dimOrder->end()));
}

void DataFileImporter::buildNamedData() {
  for (auto [index, entry] :
       llvm::enumerate(*file.getFlatTensor()->named_data())) {
    BlobOp blob = segmentBlobs[entry->segment_index()];
    const ft::TensorLayout *layout = entry->tensor_layout();
    compat::create<NamedDataOp>(
        builder, locFor("named_data[" + Twine(index) + "]", entry),
        builder.getStringAttr(entry->key()->string_view()),
        FlatSymbolRefAttr::get(blob.getSymNameAttr()),
        layout ? getLayout(static_cast<int8_t>(layout->scalar_type()),
                           layout->sizes(), layout->dim_order())
               : TensorLayoutAttr());
  }
}

void DataFileImporter::build0_6Tables() {
  const ft06::FlatTensor *flatTensor = file.getFlatTensor0_6();
  for (auto [index, tensor] : llvm::enumerate(*flatTensor->tensors()))
    compat::create<DataTensorOp>(
        builder, locFor("tensors[" + Twine(index) + "]", tensor),
        builder.getStringAttr(tensor->fully_qualified_name()->string_view()),
        FlatSymbolRefAttr::get(
            segmentBlobs[tensor->segment_index()].getSymNameAttr()),
        builder.getI64IntegerAttr(tensor->offset()),
        getLayout(static_cast<int8_t>(tensor->scalar_type()), tensor->sizes(),
                  tensor->dim_order()));
  if (const auto *named = flatTensor->named_data())
    for (auto [index, entry] : llvm::enumerate(*named))
      compat::create<NamedDataOp>(
          builder, locFor("named_data[" + Twine(index) + "]", entry),
          builder.getStringAttr(entry->key()->string_view()),
          FlatSymbolRefAttr::get(
              segmentBlobs[entry->segment_index()].getSymNameAttr()),
          TensorLayoutAttr());
}

/// The alignments the segments of `file` have, once its tables verified.
static std::optional<layout::InferredSegments>
inferSegments(const DataFile &file) {
  if (!file.getFlatTensor() && !file.getFlatTensor0_6())
    return std::nullopt;
  return layout::inferSegmentAlignments(file.getHeader().segmentBaseOffset,
                                        file.getSegmentPlacements());
}

OwningOpRef<ModuleOp> emit::buildDataFile(const DataFile &file,
                                          MLIRContext *context,
                                          const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  return DataFileImporter(file, context, options).build(*inferSegments(file));
}

OwningOpRef<ModuleOp> emit::importDataFile(const DataFile &file,
                                           MLIRContext *context,
                                           const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  std::optional<layout::InferredSegments> segments = inferSegments(file);
  if (failed(reportImportFindings(file, context, segments)))
    return nullptr;
  return DataFileImporter(file, context, options).build(*segments);
}
