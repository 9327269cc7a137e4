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
#include "emit/File/flat_tensor_generated.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace ft = flat_tensor_flatbuffer;

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
  TensorLayoutAttr getLayout(const ft::TensorLayout *layout);

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
  if (flatTensor->version() != 0)
    dataFile.setVersionAttr(builder.getI32IntegerAttr(flatTensor->version()));
  builder.setInsertionPointToEnd(&dataFile.getBody().front());
  buildSegments(dataFile, segments);
  buildNamedData();
  return module;
}

void DataFileImporter::buildSegments(DataFileOp dataFile,
                                     const layout::InferredSegments &inferred) {
  if (inferred.segmentAlignment)
    dataFile.setSegmentAlignmentAttr(
        builder.getI64IntegerAttr(*inferred.segmentAlignment));
  for (auto [index, segment] :
       llvm::enumerate(*file.getFlatTensor()->segments())) {
    std::optional<uint64_t> alignment = inferred.alignments[index];
    SmallString<24> name = layout::blobName(layout::kSegmentBlobPrefix, index);
    segmentBlobs.push_back(compat::create<BlobOp>(
        builder, locFor("segments[" + Twine(index) + "]", segment),
        builder.getStringAttr(name),
        builder.getI64IntegerAttr(
            alignment.value_or(inferred.segmentAlignment.value_or(1))),
        DataPlacementAttr::get(context, DataPlacement::Segment),
        fileBytes.get(name, file.getSegmentBytes(index))));
  }
}

TensorLayoutAttr DataFileImporter::getLayout(const ft::TensorLayout *layout) {
  if (!layout)
    return TensorLayoutAttr();
  SmallVector<int32_t> sizes = readScalars(layout->sizes());
  SmallVector<int32_t> dimOrder(layout->dim_order()->begin(),
                                layout->dim_order()->end());
  return TensorLayoutAttr::get(
      context,
      *symbolizeScalarType(static_cast<int32_t>(layout->scalar_type())), sizes,
      dimOrder);
}

void DataFileImporter::buildNamedData() {
  for (auto [index, entry] :
       llvm::enumerate(*file.getFlatTensor()->named_data())) {
    BlobOp blob = segmentBlobs[entry->segment_index()];
    compat::create<NamedDataOp>(
        builder, locFor("named_data[" + Twine(index) + "]", entry),
        builder.getStringAttr(entry->key()->string_view()),
        FlatSymbolRefAttr::get(blob.getSymNameAttr()),
        getLayout(entry->tensor_layout()));
  }
}

/// The alignments the segments of `file` have, once its tables verified.
static std::optional<layout::InferredSegments>
inferSegments(const DataFile &file) {
  if (!file.getFlatTensor())
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
