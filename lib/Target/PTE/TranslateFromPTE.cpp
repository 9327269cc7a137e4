//===- TranslateFromPTE.cpp - Import a .pte as an et.program ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reads an ExecuTorch program file. The file is untrusted: the flatbuffer is
// verified before it is walked, the extended header and every segment are
// checked against the file size, and every index against the table it
// indexes, so that a damaged file gets an error naming the byte offset, the
// table and the field instead of a crash. Payloads are never copied: the
// resources of the imported blobs alias the input buffer.
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/MLIRCompat.h"
#include "emit/Target/PTE/program_generated.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace fb = executorch_flatbuffer;

static_assert(llvm::endianness::native == llvm::endianness::little,
              "the .pte reader copies little-endian scalars as they are");

/// The elements of a scalar vector. The flatbuffers verifier checks the
/// alignment of a vector's length, not of 8-byte elements, so a damaged
/// file can misalign them: copy instead of reading through typed pointers.
template <typename T>
static SmallVector<T> readScalars(const flatbuffers::Vector<T> *vector) {
  SmallVector<T> result;
  if (!vector)
    return result;
  result.resize_for_overwrite(vector->size());
  std::memcpy(result.data(), vector->Data(), vector->size() * sizeof(T));
  return result;
}

namespace {
/// Imports one `.pte` file.
class PTEReader {
public:
  PTEReader(llvm::MemoryBufferRef buffer, MLIRContext *context,
            const std::optional<FileReference> &payloadFile)
      : file(buffer.getBuffer()), fileName(buffer.getBufferIdentifier()),
        context(context), builder(context),
        fileBytes(context, file, payloadFile),
        fileNameAttr(StringAttr::get(context, fileName)),
        fileLoc(FileLineColLoc::get(fileNameAttr, 0, 0)),
        valueType(ValueType::get(context)) {}

  OwningOpRef<ModuleOp> read(bool verify);

private:
  /// Reports a problem at byte `offset` of the file, in the table or field
  /// `where` (a path such as `execution_plan[0].values[3]`).
  InFlightDiagnostic error(uint64_t offset, const Twine &where);
  /// The file offset of a flatbuffer object.
  uint64_t offsetOf(const void *object) const {
    return static_cast<const char *>(object) - file.data();
  }
  /// The location of what was read from `table`: its path, at the file
  /// position `file:0:<byte offset>`.
  Location locFor(const Twine &where, const void *table = nullptr) {
    return NameLoc::get(
        builder.getStringAttr(where),
        FileLineColLoc::get(fileNameAttr, 0, table ? offsetOf(table) : 0));
  }

  /// A table of which a program has many (values, instructions, segments,
  /// inline data): its op gets a plain `file:0:<offset>` location, and its
  /// path is spelled only when a diagnostic needs it. Naming each one in
  /// the IR cost a third of the import's time and memory.
  struct TablePath {
    enum Kind : uint8_t {
      Segment,
      InlineData,
      Value,
      Delegate,
      Instruction
    } kind;
    uint32_t plan = 0, chain = 0, index = 0;
  };
  Location plainLocFor(const void *table, TablePath path) {
    uint64_t offset = offsetOf(table);
    plainPaths.push_back({static_cast<unsigned>(offset), path});
    return FileLineColLoc::get(fileNameAttr, 0, offset);
  }
  /// The path of the first table recorded at `column` of a plain location.
  std::optional<std::string> pathAt(unsigned column);

  LogicalResult readHeader();
  /// Checks that the segment data, which ends at file offset `end`, ends
  /// the file.
  LogicalResult checkSegmentDataEnd(uint64_t end);
  /// Why the runtime can read no segment of this file, if it cannot.
  std::optional<std::string> whyNoSegmentData() const;
  /// The program-level tables, one function each, in file order.
  LogicalResult readProgramData();
  /// Checks every segment against the header and the file, and collects
  /// their (offset, size).
  LogicalResult
  checkSegments(SmallVectorImpl<std::pair<uint64_t, uint64_t>> &placements);
  LogicalResult readSegments();
  LogicalResult readInlineData();
  LogicalResult readConstantSegment();
  LogicalResult readConstantBuffer();
  LogicalResult readMutableDataSegments();
  LogicalResult readNamedData();
  /// The blob of segment `index`, which `table` names at `where`.
  FailureOr<FlatSymbolRefAttr> getSegmentBlob(uint32_t index, const void *table,
                                              const Twine &where);
  /// The offsets of a constant or mutable data segment.
  FailureOr<SmallVector<int64_t>>
  readOffsets(const flatbuffers::Vector<uint64_t> *offsets, const void *table,
              const Twine &where);
  BlobOp createBlob(StringRef name, ArrayRef<char> bytes, uint64_t alignment,
                    DataPlacement placement, Location loc);
  /// The alignment every one of `addresses` (file offsets of force-aligned
  /// vectors) has, at most what the file allows: the builder pads the
  /// flatbuffer (and the header region) to a multiple of its largest forced
  /// alignment, which is at least the schema's 16 once there is such a
  /// vector. A program_size that is not a multiple of 16 is then not the
  /// flatbuffer's end, and the alignment read off it would be wrong.
  FailureOr<uint64_t> vectorAlignment(ArrayRef<uint64_t> addresses);
  ElementsAttr createBytes(StringRef name, ArrayRef<char> bytes);
  /// List values whose items are connected once every value exists: the
  /// op, its items and the list's value index.
  struct PendingItems {
    SmallVector<
        std::tuple<Operation *, const flatbuffers::Vector<int32_t> *, uint32_t>>
        lists;
    SmallVector<
        std::tuple<Operation *, const flatbuffers::Vector<int64_t> *, uint32_t>>
        intLists;
  };
  /// The tables the instructions of a method refer to by index.
  struct MethodTables {
    SmallVector<Value> values, operators, delegates;
  };
  LogicalResult readMethod(const fb::ExecutionPlan *plan, unsigned planIndex);
  /// Checks that `plan` has every table the runtime requires.
  LogicalResult checkMethodTables(const fb::ExecutionPlan *plan,
                                  const Twine &where);
  /// The method's buffer sizes, container metadata and buffer devices.
  LogicalResult readMethodAttributes(const fb::ExecutionPlan *plan,
                                     MethodOp method, const Twine &where);
  /// Every value of `plan`, lists connected to their items.
  LogicalResult readValues(const fb::ExecutionPlan *plan, unsigned planIndex,
                           const Twine &where, SmallVectorImpl<Value> &values);
  /// Connects the lists of `pending` to their items in `values`.
  LogicalResult connectListItems(const PendingItems &pending,
                                 ArrayRef<Value> values, const Twine &where);
  FailureOr<Operation *> readValue(const fb::EValue *value, const Twine &where,
                                   TablePath path, PendingItems &pending);
  /// A list value, whose items may come later (`pending`).
  Operation *readListValue(const fb::EValue *value, Location loc,
                           TablePath path, PendingItems &pending);
  FailureOr<Operation *> readTensor(const fb::Tensor *tensor, TablePath path,
                                    const Twine &where);
  /// Where `tensor`'s data lives: its memory plan, data index and extra
  /// information, on `op`.
  LogicalResult readTensorPlacement(const fb::Tensor *tensor, TensorOp op,
                                    const Twine &where);
  LogicalResult readOperators(const fb::ExecutionPlan *plan, const Twine &where,
                              SmallVectorImpl<Value> &operators);
  LogicalResult readDelegates(const fb::ExecutionPlan *plan, unsigned planIndex,
                              const Twine &where,
                              SmallVectorImpl<Value> &delegates);
  LogicalResult readChain(const fb::Chain *chain, unsigned planIndex,
                          unsigned chainIndex, const Twine &where,
                          const MethodTables &tables);
  ArrayAttr readStacktrace(const fb::Chain *chain);
  /// One instruction of a chain of `size` instructions, at `at`.
  LogicalResult readInstruction(const fb::Instruction *instruction,
                                Location loc, const Twine &at, uint32_t size,
                                const MethodTables &tables);
  /// A kernel or delegate call of `callees[index]`, whose index is `field`.
  template <typename OpTy, typename CallTy>
  LogicalResult readCall(const CallTy *call, int32_t index,
                         ArrayRef<Value> callees, StringRef field,
                         StringRef callee, Location loc, const Twine &at,
                         ArrayRef<Value> values);
  /// Maps value indices to values, checking each against the table.
  template <typename T>
  FailureOr<SmallVector<Value>> getValues(const flatbuffers::Vector<T> *indices,
                                          ArrayRef<Value> values,
                                          const Twine &where);
  FailureOr<Value> getValue(int64_t index, ArrayRef<Value> values,
                            const void *table, const Twine &where);

  StringRef file;
  StringRef fileName;
  MLIRContext *context;
  OpBuilder builder;
  /// Payload attributes: references to the file, or views of it.
  layout::FileBytes fileBytes;
  StringAttr fileNameAttr; // Uniqued once, not once per location.
  /// Plain locations' tables, by file offset (as a location column), in
  /// creation order; sorted when first looked up.
  std::vector<std::pair<unsigned, TablePath>> plainPaths;
  bool plainPathsSorted = false;
  /// `execution_plan[i] 'name'`, by plan index.
  std::vector<std::string> planPaths;
  Location fileLoc;
  Type valueType;

  /// The flatbuffer region and the segment region of the file.
  uint64_t programSize = 0;
  uint64_t segmentBase = 0;
  /// The header's segment_data_size; 0 when it records none.
  uint64_t segmentDataSize = 0;
  bool hasHeader = false;
  const fb::Program *program = nullptr;
  ProgramOp programOp;

  /// The blob of each entry of `segments` and `backend_delegate_data`.
  std::vector<BlobOp> segmentBlobs;
  std::vector<BlobOp> inlineBlobs;
};
} // namespace

InFlightDiagnostic PTEReader::error(uint64_t offset, const Twine &where) {
  return emitError(fileLoc) << "at byte " << offset << " (" << where << "): ";
}

//===----------------------------------------------------------------------===//
// Header and verification
//===----------------------------------------------------------------------===//

LogicalResult PTEReader::readHeader() {
  uint64_t size = file.size();
  if (size < 8)
    return error(0, "file")
           << "the file has " << size << " bytes; a .pte has at least 8";
  StringRef identifier = file.substr(4, 4);
  if (identifier != fb::ProgramIdentifier()) {
    auto diag = error(4, "file identifier")
                << "expected 'ET12', found '" << llvm::toHex(identifier)
                << "' (hex)";
    if (llvm::all_of(identifier, llvm::isPrint))
      diag << ", '" << identifier << "'";
    if (identifier == pte::kBundledIdentifier)
      diag << ": this is a bundled program (.bpte), not a .pte; its "
              "program is embedded in it";
    if (identifier == ptd::kIdentifier)
      diag << ": this is a data file (.ptd), not a program (.pte)";
    return diag;
  }

  programSize = size;
  if (!pte::hasExtendedHeader(file))
    return success(); // No extended header: the whole file is the program.

  // The runtime reads the header's fields and checks little else; each
  // check below refuses what it refuses, or what would make a reader take
  // the wrong bytes (docs/FileFormats.md lists which is which).
  hasHeader = true;
  uint32_t length = llvm::support::endian::read32le(file.data() + 12);
  if (length < pte::kMinHeaderLength)
    return error(12, "extended header length")
           << "header length " << length << " < " << pte::kMinHeaderLength;
  if (size < 8 + uint64_t(length))
    return error(12, "extended header length")
           << "header length " << length << " runs past the end of the " << size
           << "-byte file";
  programSize = llvm::support::endian::read64le(file.data() + 16);
  segmentBase = llvm::support::endian::read64le(file.data() + 24);
  if (programSize > size || programSize < 8 + uint64_t(length))
    return error(16, "extended header program_size")
           << "program_size " << programSize << " is not within the " << size
           << "-byte file (after the " << length << "-byte header)";
  // A base of 0 means no segment data: the runtime then loads no segment.
  if (segmentBase == 0)
    return success();
  if (segmentBase > size)
    return error(24, "extended header segment_base_offset")
           << "segment_base_offset " << segmentBase
           << " is past the end of the " << size << "-byte file";
  if (segmentBase < programSize)
    return error(24, "extended header segment_base_offset")
           << "segment_base_offset " << segmentBase
           << " is inside the program, which ends at " << programSize;
  // segment_data_size came with the 32-byte header; like the runtime, take
  // 0 as not recorded (the segment data then ends with the last segment).
  uint64_t dataSize =
      length >= 32 ? llvm::support::endian::read64le(file.data() + 32) : 0;
  if (dataSize == 0)
    return success();
  if (dataSize > size - segmentBase)
    return error(32, "extended header segment_data_size")
           << "segment_data_size " << dataSize << " from base " << segmentBase
           << " runs past the end of the " << size
           << "-byte file (the file may be truncated)";
  segmentDataSize = dataSize;
  return checkSegmentDataEnd(segmentBase + dataSize);
}

LogicalResult PTEReader::checkSegmentDataEnd(uint64_t end) {
  // Writers put nothing after the segment data, and the runtime reads
  // nothing there: bytes past it mean the base is too small, and that
  // every segment would be read from the wrong place.
  if (end == file.size())
    return success();
  return error(24, segmentDataSize ? "extended header segment_base_offset "
                                     "and segment_data_size"
                                   : "extended header segment_base_offset")
         << "the segment data ends at byte " << end << " (base " << segmentBase
         << " + "
         << (segmentDataSize ? "segment_data_size " : "the last segment's end ")
         << end - segmentBase << "), but the file has " << file.size()
         << " bytes; segment_base_offset"
         << (segmentDataSize ? " or segment_data_size" : "")
         << " is wrong, and segments would be read from the wrong place";
}

std::optional<std::string> PTEReader::whyNoSegmentData() const {
  if (!hasHeader)
    return std::string("the file has no extended header");
  if (segmentBase == 0)
    return std::string("the extended header's segment_base_offset (byte 24) "
                       "is 0");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Program data
//===----------------------------------------------------------------------===//

FailureOr<uint64_t> PTEReader::vectorAlignment(ArrayRef<uint64_t> addresses) {
  if (!addresses.empty() && hasHeader &&
      programSize % pte::kInlineDataAlignment != 0)
    return error(16, "extended header program_size")
           << "program_size " << programSize << " is not a multiple of "
           << pte::kInlineDataAlignment << ", the alignment the schema forces "
           << "on inline data, to which a flatbuffer holding some is padded";
  return layout::commonAlignment(
      addresses, std::min<uint64_t>(layout::powerOfTwoDividing(programSize),
                                    pte::kMaxInlineAlignment));
}

ElementsAttr PTEReader::createBytes(StringRef name, ArrayRef<char> bytes) {
  return fileBytes.get(name, bytes);
}

BlobOp PTEReader::createBlob(StringRef name, ArrayRef<char> bytes,
                             uint64_t alignment, DataPlacement placement,
                             Location loc) {
  auto blob = compat::create<BlobOp>(builder, loc, builder.getStringAttr(name),
                                     builder.getI64IntegerAttr(alignment),
                                     DataPlacementAttr::get(context, placement),
                                     createBytes(name, bytes));
  return blob;
}

LogicalResult PTEReader::readProgramData() {
  if (program->version() != 0)
    programOp.setVersionAttr(builder.getI32IntegerAttr(program->version()));
  // The blob tables first: the tables after them name their blobs.
  return success(
      succeeded(readSegments()) && succeeded(readInlineData()) &&
      succeeded(readConstantSegment()) && succeeded(readConstantBuffer()) &&
      succeeded(readMutableDataSegments()) && succeeded(readNamedData()));
}

LogicalResult PTEReader::checkSegments(
    SmallVectorImpl<std::pair<uint64_t, uint64_t>> &placements) {
  std::optional<std::string> noSegmentData = whyNoSegmentData();
  uint64_t dataEnd = 0; // Relative to the base.
  for (auto [index, segment] : llvm::enumerate(*program->segments())) {
    auto where = [index = index] {
      return ("segments[" + Twine(index) + "]").str();
    };
    uint64_t offset = segment->offset(), size = segment->size();
    if (noSegmentData && size != 0)
      return error(offsetOf(segment), where())
             << "the segment holds " << size << " bytes, but " << *noSegmentData
             << ", so it has no segment data";
    uint64_t start = segmentBase + offset;
    if (start < segmentBase || start + size < start ||
        start + size > file.size())
      return error(offsetOf(segment), where())
             << "offset " << offset << " and size " << size
             << " from segment base " << segmentBase
             << " run past the end of the " << file.size() << "-byte file";
    dataEnd = std::max(dataEnd, offset + size);
    placements.push_back({offset, size});
  }
  if (!noSegmentData && !segmentDataSize)
    return checkSegmentDataEnd(segmentBase + dataEnd);
  return success();
}

LogicalResult PTEReader::readSegments() {
  const auto *segments = program->segments();
  SmallVector<std::pair<uint64_t, uint64_t>> placements;
  if (!segments || failed(checkSegments(placements)))
    return success(!segments);
  layout::InferredSegments inferred =
      layout::inferSegmentAlignments(segmentBase, placements);
  if (inferred.segmentAlignment)
    programOp.setSegmentAlignmentAttr(
        builder.getI64IntegerAttr(*inferred.segmentAlignment));
  uint64_t previousEnd = 0;
  for (auto [index, segment] : llvm::enumerate(*segments)) {
    auto [offset, size] = placements[index];
    std::optional<uint64_t> alignment = inferred.alignments[index];
    if (!alignment)
      emitWarning(locFor(("segments[" + Twine(index) + "]").str(), segment))
          << "offset " << offset << " does not follow from the previous "
          << "segment's end (" << previousEnd << ") by alignment; the "
          << "layout is normalized on export";
    previousEnd = offset + size;
    segmentBlobs.push_back(
        createBlob(("segment_" + Twine(index)).str(),
                   ArrayRef<char>(file.data() + segmentBase + offset, size),
                   alignment.value_or(inferred.segmentAlignment.value_or(1)),
                   DataPlacement::Segment,
                   plainLocFor(segment, {TablePath::Segment, 0, 0,
                                         static_cast<uint32_t>(index)})));
  }
  return success();
}

LogicalResult PTEReader::readInlineData() {
  const auto *entries = program->backend_delegate_data();
  if (!entries)
    return success();
  SmallVector<ArrayRef<char>> payloads;
  SmallVector<uint64_t> addresses;
  for (const fb::BackendDelegateInlineData *entry : *entries) {
    ArrayRef<char> bytes;
    if (const auto *data = entry->data()) {
      bytes = ArrayRef<char>(reinterpret_cast<const char *>(data->data()),
                             data->size());
      // An empty vector has no bytes to align (builders skip it).
      if (data->size())
        addresses.push_back(offsetOf(data->data()));
    }
    payloads.push_back(bytes);
  }
  // Every inline payload is written with the file's one delegate
  // alignment, as ExecuTorch writes them.
  FailureOr<uint64_t> alignment = vectorAlignment(addresses);
  if (failed(alignment))
    return failure();
  for (auto [index, entry] : llvm::enumerate(*entries))
    inlineBlobs.push_back(
        createBlob(("inline_" + Twine(index)).str(), payloads[index],
                   *alignment, DataPlacement::Inline,
                   plainLocFor(entry, {TablePath::InlineData, 0, 0,
                                       static_cast<uint32_t>(index)})));
  return success();
}

FailureOr<FlatSymbolRefAttr> PTEReader::getSegmentBlob(uint32_t index,
                                                       const void *table,
                                                       const Twine &where) {
  if (index >= segmentBlobs.size())
    return error(offsetOf(table), where)
           << "segment_index " << index << " is out of range ("
           << segmentBlobs.size() << " segments)";
  return FlatSymbolRefAttr::get(segmentBlobs[index].getSymNameAttr());
}

FailureOr<SmallVector<int64_t>>
PTEReader::readOffsets(const flatbuffers::Vector<uint64_t> *offsets,
                       const void *table, const Twine &where) {
  SmallVector<int64_t> result;
  for (uint64_t offset : readScalars(offsets)) {
    if (offset > uint64_t(INT64_MAX))
      return error(offsetOf(table), where)
             << "offset " << offset << " is too large";
    result.push_back(static_cast<int64_t>(offset));
  }
  return result;
}

LogicalResult PTEReader::readConstantSegment() {
  const fb::SubsegmentOffsets *constants = program->constant_segment();
  if (!constants)
    return success();
  FlatSymbolRefAttr blob;
  // With no offsets the runtime never looks at the segment index.
  bool hasOffsets = constants->offsets() && constants->offsets()->size();
  if (hasOffsets || constants->segment_index() < segmentBlobs.size()) {
    FailureOr<FlatSymbolRefAttr> segment =
        getSegmentBlob(constants->segment_index(), constants,
                       "constant_segment.segment_index");
    if (failed(segment))
      return failure();
    blob = *segment;
  }
  FailureOr<SmallVector<int64_t>> offsets =
      readOffsets(constants->offsets(), constants, "constant_segment.offsets");
  if (failed(offsets))
    return failure();
  compat::create<ConstantSegmentOp>(builder,
                                    locFor("constant_segment", constants), blob,
                                    builder.getDenseI64ArrayAttr(*offsets));
  return success();
}

LogicalResult PTEReader::readConstantBuffer() {
  // The deprecated constant buffer, and also an empty one in a file without
  // a constant segment, so that the export does not add a segment either.
  const auto *buffers = program->constant_buffer();
  if (!(buffers && buffers->size()) && program->constant_segment())
    return success();
  SmallVector<Attribute> entries;
  SmallVector<uint64_t> addresses;
  if (buffers)
    for (auto [index, buffer] : llvm::enumerate(*buffers)) {
      ArrayRef<char> bytes;
      if (const auto *storage = buffer->storage()) {
        bytes = ArrayRef<char>(reinterpret_cast<const char *>(storage->data()),
                               storage->size());
        if (storage->size())
          addresses.push_back(offsetOf(storage->data()));
      }
      entries.push_back(
          createBytes(("constant_buffer_" + Twine(index)).str(), bytes));
    }
  IntegerAttr alignment;
  if (!addresses.empty()) {
    FailureOr<uint64_t> common = vectorAlignment(addresses);
    if (failed(common))
      return failure();
    alignment = builder.getI64IntegerAttr(*common);
  }
  compat::create<ConstantBufferOp>(
      builder,
      locFor("constant_buffer", buffers ? buffers : (const void *)program),
      builder.getArrayAttr(entries), alignment);
  return success();
}

LogicalResult PTEReader::readMutableDataSegments() {
  const auto *mutables = program->mutable_data_segments();
  if (!mutables)
    return success();
  for (auto [index, entry] : llvm::enumerate(*mutables)) {
    std::string where = ("mutable_data_segments[" + Twine(index) + "]").str();
    FailureOr<FlatSymbolRefAttr> blob =
        getSegmentBlob(entry->segment_index(), entry, where + ".segment_index");
    if (failed(blob))
      return failure();
    FailureOr<SmallVector<int64_t>> offsets =
        readOffsets(entry->offsets(), entry, where + ".offsets");
    if (failed(offsets))
      return failure();
    compat::create<MutableDataSegmentOp>(
        builder, locFor(where, entry), *blob,
        builder.getDenseI64ArrayAttr(*offsets));
  }
  return success();
}

LogicalResult PTEReader::readNamedData() {
  const auto *named = program->named_data();
  if (!named)
    return success();
  if (!program->segments())
    return error(offsetOf(program), "Program.named_data")
           << "named data needs the segments table, which is missing";
  llvm::StringMap<unsigned> keys;
  for (auto [index, entry] : llvm::enumerate(*named)) {
    std::string where = ("named_data[" + Twine(index) + "]").str();
    if (!entry->key())
      return error(offsetOf(entry), where + ".key") << "the key is missing";
    StringRef key = entry->key()->string_view();
    if (!keys.try_emplace(key, index).second)
      return error(offsetOf(entry), where + ".key")
             << "key '" << key << "' is also named_data[" << keys.lookup(key)
             << "]";
    FailureOr<FlatSymbolRefAttr> blob =
        getSegmentBlob(entry->segment_index(), entry, where + ".segment_index");
    if (failed(blob))
      return failure();
    compat::create<NamedDataOp>(builder, locFor(where, entry),
                                builder.getStringAttr(key), *blob,
                                TensorLayoutAttr());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

FailureOr<Value> PTEReader::getValue(int64_t index, ArrayRef<Value> values,
                                     const void *table, const Twine &where) {
  if (index < 0 || static_cast<uint64_t>(index) >= values.size())
    return error(offsetOf(table), where)
           << "value index " << index << " is out of range (" << values.size()
           << " values)";
  return values[index];
}

template <typename T>
FailureOr<SmallVector<Value>>
PTEReader::getValues(const flatbuffers::Vector<T> *indices,
                     ArrayRef<Value> values, const Twine &where) {
  SmallVector<Value> result;
  if (!indices)
    return result;
  result.reserve(indices->size());
  for (auto [position, index] : llvm::enumerate(readScalars(indices))) {
    auto value =
        getValue(index, values, indices, where + "[" + Twine(position) + "]");
    if (failed(value))
      return failure();
    result.push_back(*value);
  }
  return result;
}

LogicalResult PTEReader::readTensorPlacement(const fb::Tensor *tensor,
                                             TensorOp op, const Twine &where) {
  if (const fb::AllocationDetails *allocation = tensor->allocation_info()) {
    uint64_t offset = (uint64_t(allocation->memory_offset_high()) << 32) |
                      allocation->memory_offset_low();
    if (allocation->memory_id() > uint32_t(INT32_MAX) ||
        offset > uint64_t(INT64_MAX))
      return error(offsetOf(allocation), where + ".allocation_info")
             << "memory id " << allocation->memory_id() << " or offset "
             << offset << " is out of range";
    op.setMemoryIdAttr(builder.getI32IntegerAttr(allocation->memory_id()));
    op.setMemoryOffsetAttr(builder.getI64IntegerAttr(offset));
  }
  if (tensor->data_buffer_idx())
    op.setDataIndexAttr(builder.getI64IntegerAttr(tensor->data_buffer_idx()));
  if (tensor->requires_grad())
    op.setRequiresGrad(true);
  if (tensor->layout())
    op.setLayoutAttr(builder.getI32IntegerAttr(tensor->layout()));
  if (const fb::ExtraTensorInfo *extra = tensor->extra_tensor_info()) {
    auto location =
        symbolizeTensorDataLocation(static_cast<int32_t>(extra->location()));
    auto device =
        symbolizeDeviceType(static_cast<int32_t>(extra->device_type()));
    if (!location || !device)
      return error(offsetOf(extra), where + ".extra_tensor_info")
             << "location " << static_cast<int32_t>(extra->location())
             << " or device type " << static_cast<int32_t>(extra->device_type())
             << " is not valid";
    StringAttr fqn;
    if (const auto *name = extra->fully_qualified_name())
      fqn = builder.getStringAttr(name->string_view());
    op.setInfoAttr(
        TensorInfoAttr::get(context, extra->mutable_data_segments_idx(), fqn,
                            *location, *device, extra->device_index()));
  }
  // The runtime copies a planned tensor's initial data out of the mutable
  // data segments, which it cannot do without segment data.
  bool external =
      tensor->extra_tensor_info() && tensor->extra_tensor_info()->location() ==
                                         fb::TensorDataLocation::EXTERNAL;
  if (tensor->allocation_info() && tensor->data_buffer_idx() && !external)
    if (std::optional<std::string> why = whyNoSegmentData())
      return error(offsetOf(tensor), where + ".data_buffer_idx")
             << "the tensor's initial data is in mutable_data_segments, but "
             << *why << ", so the runtime loads no segment (NotFound)";
  return success();
}

FailureOr<Operation *> PTEReader::readTensor(const fb::Tensor *tensor,
                                             TablePath path,
                                             const Twine &where) {
  auto scalarType =
      symbolizeScalarType(static_cast<int32_t>(tensor->scalar_type()));
  if (!scalarType)
    return error(offsetOf(tensor), where + ".scalar_type")
           << "scalar type " << static_cast<int32_t>(tensor->scalar_type())
           << " is not a valid ExecuTorch scalar type";
  if (!tensor->sizes() || !tensor->dim_order())
    return error(offsetOf(tensor), where)
           << "a tensor needs both sizes and dim_order";
  if (tensor->storage_offset() != 0)
    return error(offsetOf(tensor), where + ".storage_offset")
           << "storage_offset is " << tensor->storage_offset()
           << "; the runtime requires 0";
  auto dynamism =
      symbolizeShapeDynamism(static_cast<int32_t>(tensor->shape_dynamism()));
  if (!dynamism)
    return error(offsetOf(tensor), where + ".shape_dynamism")
           << "shape dynamism "
           << static_cast<int32_t>(tensor->shape_dynamism()) << " is not valid";

  SmallVector<int32_t> sizes = readScalars(tensor->sizes());
  SmallVector<int32_t> dimOrder(tensor->dim_order()->begin(),
                                tensor->dim_order()->end());
  auto op = compat::create<TensorOp>(
      builder, plainLocFor(tensor, path), valueType,
      ScalarTypeAttr::get(context, *scalarType),
      builder.getDenseI32ArrayAttr(sizes),
      builder.getDenseI32ArrayAttr(dimOrder), IntegerAttr(), IntegerAttr(),
      IntegerAttr(), UnitAttr(), IntegerAttr(), ShapeDynamismAttr(),
      TensorInfoAttr());
  if (*dynamism != ShapeDynamism::Static)
    op.setShapeDynamismAttr(ShapeDynamismAttr::get(context, *dynamism));
  if (failed(readTensorPlacement(tensor, op, where)))
    return failure();
  return op.getOperation();
}

Operation *PTEReader::readListValue(const fb::EValue *value, Location loc,
                                    TablePath path, PendingItems &pending) {
  switch (value->val_type()) {
  case fb::KernelTypes::IntList: {
    auto op = compat::create<IntListOp>(builder, loc, valueType, ValueRange());
    pending.intLists.push_back(
        {op, value->val_as_IntList()->items(), path.index});
    return op.getOperation();
  }
  case fb::KernelTypes::DoubleList: {
    SmallVector<double> items =
        readScalars(value->val_as_DoubleList()->items());
    return compat::create<DoubleListOp>(builder, loc, valueType,
                                        builder.getDenseF64ArrayAttr(items))
        .getOperation();
  }
  case fb::KernelTypes::BoolList: {
    SmallVector<bool> items;
    if (const auto *list = value->val_as_BoolList()->items())
      for (uint8_t item : *list)
        items.push_back(item != 0);
    return compat::create<BoolListOp>(builder, loc, valueType,
                                      builder.getDenseBoolArrayAttr(items))
        .getOperation();
  }
  case fb::KernelTypes::TensorList: {
    auto op =
        compat::create<TensorListOp>(builder, loc, valueType, ValueRange());
    pending.lists.push_back(
        {op, value->val_as_TensorList()->items(), path.index});
    return op.getOperation();
  }
  case fb::KernelTypes::OptionalTensorList: {
    // Index -1 is an absent item (None), as the runtime reads it.
    const auto *items = value->val_as_OptionalTensorList()->items();
    SmallVector<int32_t> nones;
    for (auto [position, index] : llvm::enumerate(readScalars(items)))
      if (index == -1)
        nones.push_back(position);
    auto op = compat::create<OptionalTensorListOp>(
        builder, loc, valueType, ValueRange(),
        builder.getDenseI32ArrayAttr(nones));
    pending.lists.push_back({op, items, path.index});
    return op.getOperation();
  }
  default:
    llvm_unreachable("not a list value");
  }
}

FailureOr<Operation *> PTEReader::readValue(const fb::EValue *value,
                                            const Twine &where, TablePath path,
                                            PendingItems &pending) {
  // A tensor is located at its own table, so its value needs none.
  auto loc = [&] { return plainLocFor(value, path); };
  fb::KernelTypes type = value->val_type();
  if (type != fb::KernelTypes::Null && type != fb::KernelTypes::NONE &&
      !value->val())
    return error(offsetOf(value), where)
           << "the value of type " << fb::EnumNameKernelTypes(type)
           << " is missing";
  switch (type) {
  case fb::KernelTypes::NONE:
    return error(offsetOf(value), where)
           << "the value has no type (tag NONE); None is written as Null";
  case fb::KernelTypes::Null:
    return compat::create<NullOp>(builder, loc(), valueType).getOperation();
  case fb::KernelTypes::Int:
    return compat::create<IntOp>(
               builder, loc(), valueType,
               builder.getI64IntegerAttr(value->val_as_Int()->int_val()))
        .getOperation();
  case fb::KernelTypes::Bool:
    return compat::create<BoolOp>(
               builder, loc(), valueType,
               builder.getBoolAttr(value->val_as_Bool()->bool_val()))
        .getOperation();
  case fb::KernelTypes::Double:
    return compat::create<DoubleOp>(
               builder, loc(), valueType,
               builder.getF64FloatAttr(value->val_as_Double()->double_val()))
        .getOperation();
  case fb::KernelTypes::String: {
    const auto *string = value->val_as_String()->string_val();
    return compat::create<StringOp>(
               builder, loc(), valueType,
               builder.getStringAttr(string ? string->string_view() : ""))
        .getOperation();
  }
  case fb::KernelTypes::Tensor:
    return readTensor(value->val_as_Tensor(), path, where);
  case fb::KernelTypes::IntList:
  case fb::KernelTypes::DoubleList:
  case fb::KernelTypes::BoolList:
  case fb::KernelTypes::TensorList:
  case fb::KernelTypes::OptionalTensorList:
    return readListValue(value, loc(), path, pending);
  }
  return error(offsetOf(value), where)
         << "unknown value type " << static_cast<int>(type);
}

//===----------------------------------------------------------------------===//
// Methods
//===----------------------------------------------------------------------===//

LogicalResult PTEReader::readOperators(const fb::ExecutionPlan *plan,
                                       const Twine &where,
                                       SmallVectorImpl<Value> &operators) {
  const auto *table = plan->operators();
  if (!table)
    return success();
  for (auto [index, op] : llvm::enumerate(*table)) {
    std::string at = (where + ".operators[" + Twine(index) + "]").str();
    if (!op->name())
      return error(offsetOf(op), at + ".name") << "the operator has no name";
    StringAttr overload;
    if (op->overload())
      overload = builder.getStringAttr(op->overload()->string_view());
    operators.push_back(compat::create<OperatorOp>(
        builder, locFor(at, op), OperatorType::get(context),
        builder.getStringAttr(op->name()->string_view()), overload));
  }
  return success();
}

LogicalResult PTEReader::readDelegates(const fb::ExecutionPlan *plan,
                                       unsigned planIndex, const Twine &where,
                                       SmallVectorImpl<Value> &delegates) {
  Type delegateType = DelegateType::get(context);
  for (auto [index, delegate] : llvm::enumerate(*plan->delegates())) {
    // Only error messages read it: built only for one (a program can have
    // an entry per call).
    auto at = [&, index = index] {
      return (where + ".delegates[" + Twine(index) + "]").str();
    };
    if (!delegate->id())
      return error(offsetOf(delegate), at() + ".id")
             << "the delegate has no backend id";
    const fb::BackendDelegateDataReference *processed = delegate->processed();
    if (!processed)
      return error(offsetOf(delegate), at() + ".processed")
             << "the delegate has no payload reference";
    BlobOp blob;
    uint32_t dataIndex = processed->index();
    if (processed->location() == fb::DataLocation::SEGMENT) {
      if (dataIndex >= segmentBlobs.size())
        return error(offsetOf(processed), at() + ".processed.index")
               << "segment index " << dataIndex << " is out of range ("
               << segmentBlobs.size() << " segments)";
      if (std::optional<std::string> why = whyNoSegmentData())
        return error(offsetOf(processed), at() + ".processed")
               << "a segment reference, but " << *why
               << ", so the runtime loads no segment (NotFound)";
      blob = segmentBlobs[dataIndex];
    } else if (processed->location() == fb::DataLocation::INLINE) {
      if (dataIndex >= inlineBlobs.size())
        return error(offsetOf(processed), at() + ".processed.index")
               << "inline data index " << dataIndex << " is out of range ("
               << inlineBlobs.size() << " backend_delegate_data entries)";
      blob = inlineBlobs[dataIndex];
    } else {
      return error(offsetOf(processed), at() + ".processed.location")
             << "unknown data location "
             << static_cast<int>(processed->location());
    }
    ArrayAttr specs;
    if (const auto *list = delegate->compile_specs()) {
      SmallVector<Attribute> entries;
      for (auto [specIndex, spec] : llvm::enumerate(*list)) {
        if (!spec->key() || !spec->value())
          return error(offsetOf(spec),
                       at() + ".compile_specs[" + Twine(specIndex) + "]")
                 << "a compile spec needs both a key and a value";
        entries.push_back(CompileSpecAttr::get(
            context, spec->key()->string_view(),
            StringRef(reinterpret_cast<const char *>(spec->value()->data()),
                      spec->value()->size())));
      }
      specs = builder.getArrayAttr(entries);
    }
    delegates.push_back(compat::create<DelegateOp>(
        builder,
        plainLocFor(delegate, {TablePath::Delegate, planIndex, 0,
                               static_cast<uint32_t>(index)}),
        delegateType, delegate->id()->string_view(),
        FlatSymbolRefAttr::get(blob.getSymNameAttr()), specs));
  }
  return success();
}

ArrayAttr PTEReader::readStacktrace(const fb::Chain *chain) {
  const auto *lists = chain->stacktrace();
  if (!lists)
    return ArrayAttr();
  auto str = [&](const flatbuffers::String *s) {
    return s ? builder.getStringAttr(s->string_view()) : StringAttr();
  };
  SmallVector<Attribute> frameLists;
  for (const fb::FrameList *list : *lists) {
    SmallVector<Attribute> frames;
    if (list->items())
      for (const fb::Frame *frame : *list->items())
        frames.push_back(FrameAttr::get(context, str(frame->filename()),
                                        frame->lineno(), str(frame->name()),
                                        str(frame->context())));
    frameLists.push_back(builder.getArrayAttr(frames));
  }
  return builder.getArrayAttr(frameLists);
}

template <typename OpTy, typename CallTy>
LogicalResult PTEReader::readCall(const CallTy *call, int32_t index,
                                  ArrayRef<Value> callees, StringRef field,
                                  StringRef callee, Location loc,
                                  const Twine &at, ArrayRef<Value> values) {
  if (index < 0 || static_cast<uint32_t>(index) >= callees.size())
    return error(offsetOf(call), at + "." + field)
           << callee << " index " << index << " is out of range ("
           << callees.size() << " " << callee << "s)";
  if (!call->args())
    return error(offsetOf(call), at + ".args") << "the call has no args";
  auto args = getValues(call->args(), values, at + ".args");
  if (failed(args))
    return failure();
  compat::create<OpTy>(builder, loc, callees[index], *args);
  return success();
}

LogicalResult PTEReader::readInstruction(const fb::Instruction *instruction,
                                         Location loc, const Twine &at,
                                         uint32_t size,
                                         const MethodTables &tables) {
  ArrayRef<Value> values = tables.values;
  if (!instruction->instr_args())
    return error(offsetOf(instruction), at + ".instr_args")
           << "the instruction's arguments are missing";
  switch (instruction->instr_args_type()) {
  case fb::InstructionArguments::KernelCall: {
    const fb::KernelCall *call = instruction->instr_args_as_KernelCall();
    return readCall<KernelCallOp>(call, call->op_index(), tables.operators,
                                  "op_index", "operator", loc, at, values);
  }
  case fb::InstructionArguments::DelegateCall: {
    const fb::DelegateCall *call = instruction->instr_args_as_DelegateCall();
    return readCall<CallDelegateOp>(call, call->delegate_index(),
                                    tables.delegates, "delegate_index",
                                    "delegate", loc, at, values);
  }
  case fb::InstructionArguments::MoveCall: {
    const fb::MoveCall *move = instruction->instr_args_as_MoveCall();
    auto from = getValue(move->move_from(), values, move, at + ".move_from");
    auto to = getValue(move->move_to(), values, move, at + ".move_to");
    if (failed(from) || failed(to))
      return failure();
    compat::create<MoveOp>(builder, loc, *from, *to);
    return success();
  }
  case fb::InstructionArguments::JumpFalseCall: {
    const fb::JumpFalseCall *jump = instruction->instr_args_as_JumpFalseCall();
    auto condition = getValue(jump->cond_value_index(), values, jump,
                              at + ".cond_value_index");
    if (failed(condition))
      return failure();
    int32_t destination = jump->destination_instruction();
    if (destination < 0 || static_cast<uint32_t>(destination) >= size)
      return error(offsetOf(jump), at + ".destination_instruction")
             << "destination " << destination << " is outside the chain ("
             << size << " instructions)";
    compat::create<JumpFalseOp>(builder, loc, *condition, destination);
    return success();
  }
  case fb::InstructionArguments::FreeCall: {
    const fb::FreeCall *free = instruction->instr_args_as_FreeCall();
    auto value =
        getValue(free->value_index(), values, free, at + ".value_index");
    if (failed(value))
      return failure();
    compat::create<FreeOp>(builder, loc, *value);
    return success();
  }
  default:
    return error(offsetOf(instruction), at + ".instr_args_type")
           << "unknown instruction type "
           << static_cast<int>(instruction->instr_args_type());
  }
}

LogicalResult PTEReader::readChain(const fb::Chain *chain, unsigned planIndex,
                                   unsigned chainIndex, const Twine &where,
                                   const MethodTables &tables) {
  if (!chain->instructions())
    return error(offsetOf(chain), where + ".instructions")
           << "the chain has no instructions list";
  auto inputs = getValues(chain->inputs(), tables.values, where + ".inputs");
  auto outputs = getValues(chain->outputs(), tables.values, where + ".outputs");
  if (failed(inputs) || failed(outputs))
    return failure();

  auto chainOp = compat::create<ChainOp>(builder, locFor(where, chain), *inputs,
                                         *outputs, readStacktrace(chain));
  chainOp.getBody().push_back(new Block());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&chainOp.getBody().front());

  const auto *instructions = chain->instructions();
  for (auto [index, instruction] : llvm::enumerate(*instructions)) {
    Location loc =
        plainLocFor(instruction, {TablePath::Instruction, planIndex, chainIndex,
                                  static_cast<uint32_t>(index)});
    // A Twine: the path is spelled out only for an error.
    if (failed(readInstruction(instruction, loc,
                               where + ".instructions[" + Twine(index) + "]",
                               instructions->size(), tables)))
      return failure();
  }
  return success();
}

LogicalResult PTEReader::checkMethodTables(const fb::ExecutionPlan *plan,
                                           const Twine &where) {
  auto missing = [&](StringRef field) {
    return error(offsetOf(plan), where + "." + field)
           << "the method has no " << field << ", which the runtime requires";
  };
  if (!plan->name())
    return missing("name");
  if (!plan->values())
    return missing("values");
  if (!plan->inputs())
    return missing("inputs");
  if (!plan->outputs())
    return missing("outputs");
  if (!plan->chains() || plan->chains()->size() == 0)
    return missing("chains");
  if (!plan->delegates())
    return missing("delegates");
  if (!plan->non_const_buffer_sizes() ||
      plan->non_const_buffer_sizes()->size() == 0)
    return missing("non_const_buffer_sizes");
  return success();
}

LogicalResult PTEReader::readMethodAttributes(const fb::ExecutionPlan *plan,
                                              MethodOp method,
                                              const Twine &where) {
  SmallVector<int64_t> buffers = readScalars(plan->non_const_buffer_sizes());
  method.setBuffersAttr(builder.getDenseI64ArrayAttr(buffers));
  if (const fb::ContainerMetadata *meta = plan->container_meta_type()) {
    auto str = [&](const flatbuffers::String *s) {
      return s ? builder.getStringAttr(s->string_view()) : StringAttr();
    };
    method.setContainerMetaAttr(ContainerMetaAttr::get(
        context, str(meta->encoded_inp_str()), str(meta->encoded_out_str())));
  }
  const auto *devices = plan->non_const_buffer_device();
  if (!devices)
    return success();
  SmallVector<Attribute> entries;
  for (auto [index, device] : llvm::enumerate(*devices)) {
    auto type =
        symbolizeDeviceType(static_cast<int32_t>(device->device_type()));
    if (!type)
      return error(offsetOf(device), where + ".non_const_buffer_device[" +
                                         Twine(index) + "].device_type")
             << "device type " << static_cast<int>(device->device_type())
             << " is not valid";
    entries.push_back(BufferDeviceAttr::get(context, device->buffer_idx(),
                                            *type, device->device_index()));
  }
  method.setBufferDevicesAttr(builder.getArrayAttr(entries));
  return success();
}

LogicalResult PTEReader::connectListItems(const PendingItems &pending,
                                          ArrayRef<Value> values,
                                          const Twine &where) {
  auto itemsPath = [&](uint32_t index) {
    return (where + ".values[" + Twine(index) + "].items").str();
  };
  for (auto [op, items, valueIndex] : pending.lists) {
    SmallVector<Value> operands;
    bool optional = isa<OptionalTensorListOp>(op);
    for (auto [position, index] : llvm::enumerate(readScalars(items))) {
      if (optional && index == -1)
        continue;
      auto item = getValue(index, values, items,
                           itemsPath(valueIndex) + "[" + Twine(position) + "]");
      if (failed(item))
        return failure();
      operands.push_back(*item);
    }
    op->setOperands(operands);
  }
  for (auto [op, items, valueIndex] : pending.intLists) {
    auto operands = getValues(items, values, itemsPath(valueIndex));
    if (failed(operands))
      return failure();
    op->setOperands(*operands);
  }
  return success();
}

LogicalResult PTEReader::readValues(const fb::ExecutionPlan *plan,
                                    unsigned planIndex, const Twine &where,
                                    SmallVectorImpl<Value> &values) {
  // Values first, in index order; list items may name later values, so
  // they are connected once every value exists.
  values.reserve(plan->values()->size());
  PendingItems pending;
  for (auto [index, value] : llvm::enumerate(*plan->values())) {
    auto op = readValue(
        value, where + ".values[" + Twine(index) + "]",
        {TablePath::Value, planIndex, 0, static_cast<uint32_t>(index)},
        pending);
    if (failed(op))
      return failure();
    values.push_back((*op)->getResult(0));
  }
  return connectListItems(pending, values, where);
}

LogicalResult PTEReader::readMethod(const fb::ExecutionPlan *plan,
                                    unsigned planIndex) {
  std::string where = ("execution_plan[" + Twine(planIndex) + "]").str();
  if (failed(checkMethodTables(plan, where)))
    return failure();
  StringRef name = plan->name()->string_view();
  where = (where + " '" + name + "'").str();
  if (planPaths.size() <= planIndex)
    planPaths.resize(planIndex + 1);
  planPaths[planIndex] = where;
  auto method = compat::create<MethodOp>(
      builder, locFor(where, plan), builder.getStringAttr(name),
      DenseI64ArrayAttr(), ContainerMetaAttr(), ArrayAttr());
  if (failed(readMethodAttributes(plan, method, where)))
    return failure();

  method.getBody().push_back(new Block());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&method.getBody().front());
  MethodTables tables;
  if (failed(readValues(plan, planIndex, where, tables.values)))
    return failure();
  // The operator and delegate tables as they are, entries no instruction
  // uses included: the runtime resolves and initializes every one.
  if (failed(readOperators(plan, where, tables.operators)) ||
      failed(readDelegates(plan, planIndex, where, tables.delegates)))
    return failure();
  for (auto [index, chain] : llvm::enumerate(*plan->chains()))
    if (failed(readChain(chain, planIndex, index,
                         where + ".chains[" + Twine(index) + "]", tables)))
      return failure();

  auto inputs = getValues(plan->inputs(), tables.values, where + ".inputs");
  auto outputs = getValues(plan->outputs(), tables.values, where + ".outputs");
  if (failed(inputs) || failed(outputs))
    return failure();
  compat::create<SignatureOp>(builder, locFor(where + ".signature"), *inputs,
                              *outputs);
  return success();
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> PTEReader::read(bool verify) {
  if (failed(readHeader()))
    return nullptr;

  // Verify the flatbuffer before touching it. Each table takes at least 4
  // bytes, which bounds the table count of an honest file.
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t *>(file.data()),
                                 programSize, /*_max_depth=*/64,
                                 /*_max_tables=*/programSize / 4 + 64);
  if (!fb::VerifyProgramBuffer(verifier)) {
    error(0, "Program") << "the flatbuffer in bytes [0, " << programSize
                        << ") fails verification: the file is truncated or "
                        << "corrupt";
    return nullptr;
  }
  program = fb::GetProgram(file.data());
  if (!program->execution_plan()) {
    error(offsetOf(program), "Program.execution_plan")
        << "the program has no execution_plan";
    return nullptr;
  }

  OwningOpRef<ModuleOp> module(ModuleOp::create(fileLoc));
  builder.setInsertionPointToEnd(module->getBody());
  // Named after the file; "program" when reading stdin.
  std::string name = llvm::sys::path::stem(fileName).str();
  if (name.empty() || name.front() == '<')
    name = "program";
  programOp = compat::create<ProgramOp>(builder, fileLoc, name);
  builder.setInsertionPointToEnd(&programOp.getBody().front());

  if (failed(readProgramData()))
    return nullptr;
  for (auto [index, plan] : llvm::enumerate(*program->execution_plan()))
    if (failed(readMethod(plan, index)))
      return nullptr;

  // What the runtime would reject and the structure above does not show
  // (tensor data out of range, planned tensors past their buffer, ...).
  // Diagnostics printers show only a name location's child, so the path of
  // the offending table is added to the message.
  ScopedDiagnosticHandler addPath(context, [&](Diagnostic &diag) {
    Location loc = diag.getLocation();
    if (auto name = dyn_cast<NameLoc>(loc))
      diag << " (in " << name.getName().getValue() << ")";
    else if (auto plain = dyn_cast<FileLineColLoc>(loc);
             plain && plain.getFilename() == fileNameAttr &&
             plain.getLine() == 0)
      if (std::optional<std::string> path = pathAt(plain.getColumn()))
        diag << " (in " << *path << ")";
    return failure(); // Let the enclosing handler report it.
  });
  if (verify && failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

std::optional<std::string> PTEReader::pathAt(unsigned column) {
  if (!plainPathsSorted) {
    llvm::stable_sort(plainPaths, [](const auto &a, const auto &b) {
      return a.first < b.first;
    });
    plainPathsSorted = true;
  }
  auto it = llvm::partition_point(
      plainPaths, [&](const auto &entry) { return entry.first < column; });
  if (it == plainPaths.end() || it->first != column)
    return std::nullopt;
  const TablePath &path = it->second;
  std::string plan =
      path.plan < planPaths.size() ? planPaths[path.plan] : std::string();
  switch (path.kind) {
  case TablePath::Segment:
    return ("segments[" + Twine(path.index) + "]").str();
  case TablePath::InlineData:
    return ("backend_delegate_data[" + Twine(path.index) + "]").str();
  case TablePath::Value:
    return (plan + ".values[" + Twine(path.index) + "]").str();
  case TablePath::Delegate:
    return (plan + ".delegates[" + Twine(path.index) + "]").str();
  case TablePath::Instruction:
    return (plan + ".chains[" + Twine(path.chain) + "].instructions[" +
            Twine(path.index) + "]")
        .str();
  }
  return std::nullopt;
}

OwningOpRef<ModuleOp> emit::translateFromPTE(llvm::MemoryBufferRef buffer,
                                             MLIRContext *context,
                                             const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  return PTEReader(buffer, context, options.payloadFile).read(options.verify);
}
