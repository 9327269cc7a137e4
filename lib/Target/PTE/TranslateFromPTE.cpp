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
#include "FindingReport.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETInvariants.h"
#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/program_generated.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
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
            const PTEReadOptions &options)
      : file(buffer.getBuffer()), fileName(buffer.getBufferIdentifier()),
        context(context), builder(context),
        fileBytes(context, file, options.payloadFile),
        fileNameAttr(StringAttr::get(context, fileName)),
        fileLoc(FileLineColLoc::get(fileNameAttr, 0, 0)),
        findings(fileLoc, fileName, options.findings),
        valueType(ValueType::get(context)),
        buildIR(!(options.checkOnly && options.findings)),
        entryLocations(options.entryLocations || options.findings) {}

  /// Reads the file; with `verify`, verifies the module too. Where entries
  /// are located at their tables, a failed verification reports nothing and
  /// sets `verificationFailed`: its errors would not say which entry is
  /// wrong (translateFromPTE reads again, locating each entry).
  OwningOpRef<ModuleOp> read(bool verify);
  bool verificationFailed = false;
  /// Verifies `module`, each error naming its table. (Collecting, the
  /// readers check the same invariants on the file's tables instead.)
  LogicalResult verifyModule(ModuleOp module);

private:
  /// Reports a problem `check` finds at byte `offset` of the file, in the
  /// table or field `where` (a path such as `execution_plan[0].values[3]`).
  FindingReport error(Check check, uint64_t offset, const Twine &where) {
    return FindingReport(findings, check, offset, where);
  }
  /// Whether every finding is recorded, reading on past a bad entry. The
  /// dialect's invariants are then checked as each table is read (the
  /// plain-value checks of ETInvariants.h), not by verifying the module.
  bool collecting() const { return findings.collecting(); }
  /// Reports `problem` of the op `opName` would be, as its verifier does.
  LogicalResult reportInvariant(const et::Problem &problem, StringRef opName,
                                Check check, const void *table,
                                const Twine &where) {
    if (!problem)
      return success();
    return error(check, offsetOf(table), where).invariant()
           << "'" << opName << "' op " << *problem;
  }
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

  /// An entry of a table of which a program has many (segments, inline
  /// data, values, delegates, instructions).
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
  /// The location of such an entry, read from `table`. By default, its
  /// table's: one location for all of them, named by the table's path (a
  /// location per entry is a uniqued attribute each, a quarter of a large
  /// program's import). With entry locations, a plain `file:0:<offset>` of
  /// its own, its path spelled only when a diagnostic needs it.
  Location entryLocFor(const void *table, TablePath path);
  /// The path of the first entry recorded at `column` of a plain location.
  std::optional<std::string> pathAt(unsigned column);
  /// The path of `path`'s entry, or of its whole table.
  std::string spell(const TablePath &path, bool entry) const;
  /// The flatbuffer vector that holds `path`'s entry.
  const void *tableOf(const TablePath &path) const;
  /// The byte offset and, when known, the table path that `loc` names, if
  /// it is a location in this file.
  struct TableAt {
    uint64_t offset;
    std::optional<std::string> path;
  };
  std::optional<TableAt> tableAt(Location loc);

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
  /// The segments the runtime reads while loading the program and its
  /// methods (named data is read when a backend asks for it).
  llvm::DenseSet<uint32_t> segmentsLoadedAtLoad() const;
  LogicalResult readInlineData();
  LogicalResult readConstantSegment();
  LogicalResult readConstantBuffer();
  LogicalResult readMutableDataSegments();
  LogicalResult readNamedData();
  /// Entry `index` of the named data, whose keys so far are `keys`.
  LogicalResult readNamedDataEntry(const fb::NamedData *entry, unsigned index,
                                   StringRef where,
                                   llvm::StringMap<unsigned> &keys);
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
  /// The op is null when not building IR; `listOp` names its kind.
  template <typename T>
  struct PendingList {
    Operation *op;
    StringRef listOp;
    const flatbuffers::Vector<T> *items;
    uint32_t valueIndex;
  };
  struct PendingItems {
    SmallVector<PendingList<int32_t>> lists;
    SmallVector<PendingList<int64_t>> intLists;
  };
  /// The tables the instructions of a method refer to by index.
  struct MethodTables {
    SmallVector<Value> values, operators, delegates;
  };
  LogicalResult readMethod(const fb::ExecutionPlan *plan, unsigned planIndex);
  /// Checks that `plan` has every table the runtime requires.
  LogicalResult checkMethodTables(const fb::ExecutionPlan *plan,
                                  const Twine &where);
  /// The method's buffer sizes, container metadata and buffer devices, on
  /// `method` when building IR.
  LogicalResult readMethodAttributes(const fb::ExecutionPlan *plan,
                                     MethodOp method, const Twine &where);
  /// Checks, when collecting, that the method's name is a symbol no other
  /// method or blob of the program has, as the module's symbol table needs.
  LogicalResult checkMethodSymbol(const fb::ExecutionPlan *plan,
                                  unsigned planIndex, StringRef name);
  /// The methods' names so far, and their plan indices.
  llvm::StringMap<unsigned> methodNames;
  /// Checks, when collecting, the method's buffer sizes: what the dialect
  /// verifies, and that a runtime can allocate them.
  LogicalResult checkMethodBuffers(const fb::ExecutionPlan *plan,
                                   const Twine &where);
  /// Every value of `plan`, lists connected to their items.
  LogicalResult readValues(const fb::ExecutionPlan *plan, unsigned planIndex,
                           const Twine &where, SmallVectorImpl<Value> &values);
  /// Connects the lists of `pending` to their items in `values`.
  LogicalResult connectListItems(const fb::ExecutionPlan *plan,
                                 const PendingItems &pending,
                                 ArrayRef<Value> values, const Twine &where);
  /// A value's op; null when not building IR.
  FailureOr<Operation *> readValue(const fb::EValue *value, const Twine &where,
                                   TablePath path, PendingItems &pending);
  /// An `et.null`, `et.int`, `et.bool`, `et.double` or `et.string`.
  Operation *readScalarValue(const fb::EValue *value, Location loc);
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
  /// One delegate entry's payload and compile specs; `at` spells its path.
  LogicalResult readDelegate(const fb::BackendDelegate *delegate,
                             function_ref<std::string()> at,
                             FlatSymbolRefAttr &payload, ArrayAttr &specs);
  LogicalResult readChain(const fb::Chain *chain, unsigned planIndex,
                          unsigned chainIndex, const Twine &where,
                          const MethodTables &tables);
  ArrayAttr readStacktrace(const fb::Chain *chain);
  /// One instruction of a chain of `size` instructions, at `at`.
  LogicalResult readInstruction(const fb::Instruction *instruction,
                                Location loc, const Twine &at, uint32_t size,
                                const MethodTables &tables);
  /// A jump of a chain of `size` instructions, at `at`.
  LogicalResult readJump(const fb::Instruction *instruction, Location loc,
                         const Twine &at, uint32_t size,
                         ArrayRef<Value> values);
  /// A kernel or delegate call of `callees[index]`, whose index is `field`.
  template <typename OpTy, typename CallTy>
  LogicalResult readCall(const CallTy *call, int32_t index,
                         ArrayRef<Value> callees, StringRef field,
                         StringRef callee, Location loc, const Twine &at,
                         ArrayRef<Value> values);
  /// Maps value indices to values, checking each against the table with
  /// `check`.
  template <typename T>
  FailureOr<SmallVector<Value>> getValues(const flatbuffers::Vector<T> *indices,
                                          ArrayRef<Value> values, Check check,
                                          const Twine &where);
  FailureOr<Value> getValue(int64_t index, ArrayRef<Value> values,
                            const void *table, Check check, const Twine &where);

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
  /// The location of each table whose entries are located at it.
  llvm::DenseMap<const void *, Location> tableLocs;
  /// `execution_plan[i] 'name'`, by plan index.
  std::vector<std::string> planPaths;
  Location fileLoc;
  FindingSink findings;
  Type valueType;

  /// The flatbuffer region and the segment region of the file.
  uint64_t programSize = 0;
  uint64_t segmentBase = 0;
  /// The header's segment_data_size; 0 when it records none.
  uint64_t segmentDataSize = 0;
  bool hasHeader = false;
  const fb::Program *program = nullptr;
  ProgramOp programOp;

  /// The method's last kernel call, whose operator the runtime checks.
  const void *lastKernelCall = nullptr;
  /// Whether the import builds IR; collecting findings with `checkOnly`,
  /// it only reads and checks.
  bool buildIR;
  /// Whether entries get a location each (PTEReadOptions::entryLocations).
  bool entryLocations;
  /// The blob of each entry of `segments` and `backend_delegate_data`
  /// (null when not building IR) and, for the checks when collecting, the
  /// file offset of its table, its byte count, and whether something names
  /// it.
  struct BlobTable {
    std::vector<BlobOp> blobs;
    std::vector<uint64_t> offsets, sizes;
    llvm::BitVector named;
    void add(BlobOp blob, uint64_t offset, uint64_t size, bool collecting) {
      blobs.push_back(blob);
      if (!collecting)
        return;
      offsets.push_back(offset);
      sizes.push_back(size);
    }
    void setNamed(uint32_t index) {
      if (!sizes.empty()) {
        named.resize(sizes.size());
        named.set(index);
      }
    }
    size_t size() const { return blobs.size(); }
  } segmentBlobs, inlineBlobs;
  /// Segments that fail their checks: their size is not known.
  llvm::BitVector badSegments;
  /// The bytes `segments[index]` holds, if known.
  std::optional<uint64_t> segmentSize(uint32_t index) const {
    if (index >= segmentBlobs.sizes.size() || badSegments.test(index))
      return std::nullopt;
    return segmentBlobs.sizes[index];
  }

  /// What tensors' data indices name, for the invariant checks when
  /// collecting: set once the program data is read, if all of it was.
  std::optional<et::TensorDataTables> tensorData;
  SmallVector<int64_t> constantOffsets;
  std::optional<uint64_t> constantCapacity;
  std::optional<SmallVector<uint64_t>> constantBufferSizes;
  std::vector<SmallVector<int64_t>> mutableOffsets;
  SmallVector<et::SegmentEntries> mutableEntries;
  /// The method being read: its buffer sizes, and the op each value is
  /// (empty when it failed) with a tensor's scalar type.
  SmallVector<int64_t> methodBuffers;
  struct ValueKind {
    StringRef op;
    std::optional<ScalarType> type;
  };
  SmallVector<ValueKind> valueKinds;
  /// The op `value` is read as, with a tensor's scalar type.
  static ValueKind getValueKind(const fb::EValue *value);
  /// The tables tensors' data indices name, from what the program data
  /// ops read.
  void setTensorDataTables();
  /// Checks, when collecting, what the dialect verifies of `tensor` at
  /// `where`: its shape, its planned buffer and its data.
  LogicalResult checkTensorInvariants(const fb::Tensor *tensor, ScalarType type,
                                      const Twine &where);
};
} // namespace

//===----------------------------------------------------------------------===//
// Header and verification
//===----------------------------------------------------------------------===//

LogicalResult PTEReader::readHeader() {
  uint64_t size = file.size();
  if (size < 8)
    return error(Check::FileSize, 0, "file")
           << "the file has " << size << " bytes; a .pte has at least 8";
  StringRef identifier = file.substr(4, 4);
  if (identifier != fb::ProgramIdentifier()) {
    FindingReport diag = error(Check::FileIdentifier, 4, "file identifier");
    diag << "expected 'ET12', found '" << llvm::toHex(identifier) << "' (hex)";
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
    return error(Check::HeaderLength, 12, "extended header length")
           << "header length " << length << " < " << pte::kMinHeaderLength;
  if (size < 8 + uint64_t(length))
    return error(Check::HeaderLength, 12, "extended header length")
           << "header length " << length << " runs past the end of the " << size
           << "-byte file";
  programSize = llvm::support::endian::read64le(file.data() + 16);
  segmentBase = llvm::support::endian::read64le(file.data() + 24);
  if (programSize > size || programSize < 8 + uint64_t(length))
    return error(Check::HeaderProgramSize, 16, "extended header program_size")
           << "program_size " << programSize << " is not within the " << size
           << "-byte file (after the " << length << "-byte header)";
  // A base of 0 means no segment data: the runtime then loads no segment.
  if (segmentBase == 0)
    return success();
  if (segmentBase > size)
    return error(Check::HeaderSegmentBase, 24,
                 "extended header segment_base_offset")
           << "segment_base_offset " << segmentBase
           << " is past the end of the " << size << "-byte file";
  if (segmentBase < programSize)
    return error(Check::HeaderSegmentBase, 24,
                 "extended header segment_base_offset")
           << "segment_base_offset " << segmentBase
           << " is inside the program, which ends at " << programSize;
  // segment_data_size came with the 32-byte header; like the runtime, take
  // 0 as not recorded (the segment data then ends with the last segment).
  uint64_t dataSize =
      length >= 32 ? llvm::support::endian::read64le(file.data() + 32) : 0;
  if (dataSize == 0)
    return success();
  if (dataSize > size - segmentBase)
    return error(Check::HeaderSegmentDataSize, 32,
                 "extended header segment_data_size")
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
  error(Check::SegmentDataEnd, 24,
        segmentDataSize ? "extended header segment_base_offset "
                          "and segment_data_size"
                        : "extended header segment_base_offset")
          .ignoredByRuntime()
          .detail(", or the file has bytes after its segment data, which the "
                  "runtime ignores and emit cannot import")
      << "the segment data ends at byte " << end << " (base " << segmentBase
      << " + "
      << (segmentDataSize ? "segment_data_size " : "the last segment's end ")
      << end - segmentBase << "), but the file has " << file.size()
      << " bytes; segment_base_offset"
      << (segmentDataSize ? " or segment_data_size" : "")
      << " is wrong, and segments would be read from the wrong place";
  return success(collecting());
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
      programSize % pte::kInlineDataAlignment != 0) {
    error(Check::ProgramSizeAlignment, 16, "extended header program_size")
            .ignoredByRuntime()
            .detail("; the runtime ignores it, and emit cannot import the file")
        << "program_size " << programSize << " is not a multiple of "
        << pte::kInlineDataAlignment << ", the alignment the schema forces "
        << "on inline data, to which a flatbuffer holding some is padded";
    if (!collecting())
      return failure();
  }
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
  if (program->version() != 0 && buildIR)
    programOp.setVersionAttr(builder.getI32IntegerAttr(program->version()));
  // The blob tables first: the tables after them name their blobs.
  // Collecting findings, every table is read, whatever fails before it.
  bool allRead = true;
  for (auto readTable :
       {&PTEReader::readSegments, &PTEReader::readInlineData,
        &PTEReader::readConstantSegment, &PTEReader::readConstantBuffer,
        &PTEReader::readMutableDataSegments, &PTEReader::readNamedData}) {
    allRead &= succeeded((this->*readTable)());
    if (!allRead && !collecting())
      return failure();
  }
  if (allRead && collecting())
    setTensorDataTables();
  return success(allRead);
}

void PTEReader::setTensorDataTables() {
  et::TensorDataTables tables;
  if (!constantOffsets.empty())
    tables.constantSegment =
        et::SegmentEntries{constantOffsets, constantCapacity};
  if (constantBufferSizes)
    tables.constantBuffer = *constantBufferSizes;
  const auto *mutables = program->mutable_data_segments();
  for (auto [index, offsets] : llvm::enumerate(mutableOffsets))
    mutableEntries.push_back(
        {offsets, segmentSize(mutables->Get(index)->segment_index())});
  tables.mutableSegments = mutableEntries;
  tensorData = tables;
}

llvm::DenseSet<uint32_t> PTEReader::segmentsLoadedAtLoad() const {
  llvm::DenseSet<uint32_t> loaded;
  // Program::load reads the constant segment when it has an entry besides
  // the reserved one.
  if (const fb::SubsegmentOffsets *constants = program->constant_segment())
    if (constants->offsets() && constants->offsets()->size() > 1)
      loaded.insert(constants->segment_index());
  if (const auto *mutables = program->mutable_data_segments())
    for (const fb::SubsegmentOffsets *entry : *mutables)
      loaded.insert(entry->segment_index());
  // load_method initializes every delegate entry with its payload, and a
  // backend's init may read any named data.
  bool delegated = false;
  for (const fb::ExecutionPlan *plan : *program->execution_plan()) {
    if (!plan->delegates())
      continue;
    for (const fb::BackendDelegate *delegate : *plan->delegates()) {
      delegated = true;
      if (const auto *processed = delegate->processed())
        if (processed->location() == fb::DataLocation::SEGMENT)
          loaded.insert(processed->index());
    }
  }
  if (const auto *named = program->named_data(); named && delegated)
    for (const fb::NamedData *entry : *named)
      loaded.insert(entry->segment_index());
  return loaded;
}

LogicalResult PTEReader::checkSegments(
    SmallVectorImpl<std::pair<uint64_t, uint64_t>> &placements) {
  std::optional<std::string> noSegmentData = whyNoSegmentData();
  uint64_t dataEnd = 0; // Relative to the base.
  bool allChecked = true;
  llvm::DenseSet<uint32_t> loaded = segmentsLoadedAtLoad();
  for (auto [index, segment] : llvm::enumerate(*program->segments())) {
    auto where = [index = index] {
      return ("segments[" + Twine(index) + "]").str();
    };
    // A bad segment the runtime never loads while loading does not stop it.
    RuntimeLoad runtime =
        loaded.contains(index) ? RuntimeLoad::Rejects : RuntimeLoad::Loads;
    uint64_t offset = segment->offset(), size = segment->size();
    LogicalResult checked = success();
    uint64_t start = segmentBase + offset;
    // Without a header, the runtime reads segments from the file's start:
    // the wrong bytes, or past the end of the file.
    bool readsInFile = offset <= file.size() && size <= file.size() - offset;
    if (noSegmentData && size != 0)
      checked = error(Check::SegmentWithoutData, offsetOf(segment), where())
                    .setRuntime(hasHeader || !readsInFile ? runtime
                                                          : RuntimeLoad::Loads)
                << "the segment holds " << size << " bytes, but "
                << *noSegmentData << ", so it has no segment data";
    else if (start < segmentBase || start + size < start ||
             start + size > file.size())
      checked = error(Check::SegmentRange, offsetOf(segment), where())
                    .setRuntime(runtime)
                << "offset " << offset << " and size " << size
                << " from segment base " << segmentBase
                << " run past the end of the " << file.size() << "-byte file";
    if (failed(checked)) {
      if (!collecting())
        return failure();
      // An empty stand-in keeps the indices of the segments after it.
      allChecked = false;
      badSegments.resize(index + 1);
      badSegments.set(index);
      placements.push_back({0, 0});
      continue;
    }
    dataEnd = std::max(dataEnd, offset + size);
    placements.push_back({offset, size});
  }
  if (!noSegmentData && !segmentDataSize && allChecked)
    return checkSegmentDataEnd(segmentBase + dataEnd);
  return success(allChecked);
}

LogicalResult PTEReader::readSegments() {
  const auto *segments = program->segments();
  SmallVector<std::pair<uint64_t, uint64_t>> placements;
  if (!segments)
    return success();
  LogicalResult checked = checkSegments(placements);
  if (failed(checked) && !collecting())
    return failure();
  layout::InferredSegments inferred =
      layout::inferSegmentAlignments(segmentBase, placements);
  badSegments.resize(segments->size());
  if (inferred.segmentAlignment && buildIR)
    programOp.setSegmentAlignmentAttr(
        builder.getI64IntegerAttr(*inferred.segmentAlignment));
  uint64_t previousEnd = 0;
  for (auto [index, segment] : llvm::enumerate(*segments)) {
    auto [offset, size] = placements[index];
    std::optional<uint64_t> alignment = inferred.alignments[index];
    if (!alignment && !collecting())
      emitWarning(locFor(("segments[" + Twine(index) + "]").str(), segment))
          << "offset " << offset << " does not follow from the previous "
          << "segment's end (" << previousEnd << ") by alignment; the "
          << "layout is normalized on export";
    previousEnd = offset + size;
    BlobOp blob;
    if (buildIR)
      blob =
          createBlob(layout::blobName(layout::kSegmentBlobPrefix, index),
                     ArrayRef<char>(file.data() + segmentBase + offset, size),
                     alignment.value_or(inferred.segmentAlignment.value_or(1)),
                     DataPlacement::Segment,
                     entryLocFor(segment, {TablePath::Segment, 0, 0,
                                           static_cast<uint32_t>(index)}));
    segmentBlobs.add(blob, offsetOf(segment), size, collecting());
  }
  return checked;
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
  if (failed(alignment) && !collecting())
    return failure();
  // Collecting, the entries stay, so that delegates still find theirs.
  for (auto [index, entry] : llvm::enumerate(*entries)) {
    BlobOp blob;
    if (buildIR)
      blob = createBlob(layout::blobName(layout::kInlineBlobPrefix, index),
                        payloads[index], succeeded(alignment) ? *alignment : 1,
                        DataPlacement::Inline,
                        entryLocFor(entry, {TablePath::InlineData, 0, 0,
                                            static_cast<uint32_t>(index)}));
    inlineBlobs.add(blob, offsetOf(entry), payloads[index].size(),
                    collecting());
  }
  return success(succeeded(alignment));
}

FailureOr<FlatSymbolRefAttr> PTEReader::getSegmentBlob(uint32_t index,
                                                       const void *table,
                                                       const Twine &where) {
  if (index >= segmentBlobs.size())
    return error(Check::SegmentIndex, offsetOf(table), where)
           << "segment_index " << index << " is out of range ("
           << segmentBlobs.size() << " segments)";
  segmentBlobs.setNamed(index);
  if (!buildIR)
    return FlatSymbolRefAttr();
  return FlatSymbolRefAttr::get(segmentBlobs.blobs[index].getSymNameAttr());
}

FailureOr<SmallVector<int64_t>>
PTEReader::readOffsets(const flatbuffers::Vector<uint64_t> *offsets,
                       const void *table, const Twine &where) {
  SmallVector<int64_t> result;
  for (uint64_t offset : readScalars(offsets)) {
    if (offset > uint64_t(INT64_MAX))
      return error(Check::SegmentOffset, offsetOf(table), where)
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
  if (buildIR)
    compat::create<ConstantSegmentOp>(
        builder, locFor("constant_segment", constants), blob,
        builder.getDenseI64ArrayAttr(*offsets));
  constantOffsets = std::move(*offsets);
  constantCapacity = segmentSize(constants->segment_index());
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
  constantBufferSizes.emplace();
  if (buffers)
    for (auto [index, buffer] : llvm::enumerate(*buffers)) {
      ArrayRef<char> bytes;
      if (const auto *storage = buffer->storage()) {
        bytes = ArrayRef<char>(reinterpret_cast<const char *>(storage->data()),
                               storage->size());
        if (storage->size())
          addresses.push_back(offsetOf(storage->data()));
      }
      constantBufferSizes->push_back(bytes.size());
      if (buildIR)
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
  if (!buildIR)
    return success();
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
    if (buildIR)
      compat::create<MutableDataSegmentOp>(
          builder, locFor(where, entry), *blob,
          builder.getDenseI64ArrayAttr(*offsets));
    mutableOffsets.push_back(std::move(*offsets));
  }
  return success();
}

LogicalResult PTEReader::readNamedData() {
  const auto *named = program->named_data();
  if (!named)
    return success();
  if (!program->segments())
    return error(Check::MissingTable, offsetOf(program), "Program.named_data")
           << "named data needs the segments table, which is missing";
  llvm::StringMap<unsigned> keys;
  bool allRead = true;
  for (auto [index, entry] : llvm::enumerate(*named)) {
    std::string where = ("named_data[" + Twine(index) + "]").str();
    if (failed(readNamedDataEntry(entry, index, where, keys))) {
      if (!collecting())
        return failure();
      allRead = false;
    }
  }
  return success(allRead);
}

LogicalResult PTEReader::readNamedDataEntry(const fb::NamedData *entry,
                                            unsigned index, StringRef where,
                                            llvm::StringMap<unsigned> &keys) {
  FailureOr<StringRef> checked = checkNamedDataKey(
      findings, file, entry, entry->key(), where, index, keys);
  if (failed(checked))
    return failure();
  StringRef key = *checked;
  FailureOr<FlatSymbolRefAttr> blob =
      getSegmentBlob(entry->segment_index(), entry, where + ".segment_index");
  if (failed(blob))
    return failure();
  if (buildIR)
    compat::create<NamedDataOp>(builder, locFor(where, entry),
                                builder.getStringAttr(key), *blob,
                                TensorLayoutAttr());
  return success();
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

FailureOr<Value> PTEReader::getValue(int64_t index, ArrayRef<Value> values,
                                     const void *table, Check check,
                                     const Twine &where) {
  if (index < 0 || static_cast<uint64_t>(index) >= values.size()) {
    FindingReport report = error(check, offsetOf(table), where);
    report << "value index " << index << " is out of range (" << values.size()
           << " values)";
    // What loading lets through, emit-verify says what running does.
    if (check == Check::MethodIOIndex)
      report.detail("; the runtime loads this, and setting or reading it "
                    "when the method runs reads value " +
                    Twine(index) + " of " + Twine(values.size()));
    else if (check == Check::ChainIOIndex)
      report.detail("; the runtime loads this and never reads it");
    return report;
  }
  return values[index];
}

template <typename T>
FailureOr<SmallVector<Value>>
PTEReader::getValues(const flatbuffers::Vector<T> *indices,
                     ArrayRef<Value> values, Check check, const Twine &where) {
  SmallVector<Value> result;
  if (!indices)
    return result;
  result.reserve(indices->size());
  bool allFound = true;
  for (auto [position, index] : llvm::enumerate(readScalars(indices))) {
    auto value = getValue(index, values, indices, check,
                          where + "[" + Twine(position) + "]");
    if (failed(value) && !collecting())
      return failure();
    allFound &= succeeded(value);
    if (succeeded(value))
      result.push_back(*value);
  }
  if (!allFound)
    return failure();
  return result;
}

LogicalResult PTEReader::readTensorPlacement(const fb::Tensor *tensor,
                                             TensorOp op, const Twine &where) {
  if (const fb::AllocationDetails *allocation = tensor->allocation_info()) {
    uint64_t offset = (uint64_t(allocation->memory_offset_high()) << 32) |
                      allocation->memory_offset_low();
    if (allocation->memory_id() > uint32_t(INT32_MAX) ||
        offset > uint64_t(INT64_MAX))
      return error(Check::TensorPlacement, offsetOf(allocation),
                   where + ".allocation_info")
             << "memory id " << allocation->memory_id() << " or offset "
             << offset << " is out of range";
    if (op) {
      op.setMemoryIdAttr(builder.getI32IntegerAttr(allocation->memory_id()));
      op.setMemoryOffsetAttr(builder.getI64IntegerAttr(offset));
    }
  }
  if (op && tensor->data_buffer_idx())
    op.setDataIndexAttr(builder.getI64IntegerAttr(tensor->data_buffer_idx()));
  if (op && tensor->requires_grad())
    op.setRequiresGrad(true);
  if (op && tensor->layout())
    op.setLayoutAttr(builder.getI32IntegerAttr(tensor->layout()));
  if (const fb::ExtraTensorInfo *extra = tensor->extra_tensor_info()) {
    auto location =
        symbolizeTensorDataLocation(static_cast<int32_t>(extra->location()));
    auto device =
        symbolizeDeviceType(static_cast<int32_t>(extra->device_type()));
    if (!location || !device)
      return error(Check::TensorPlacement, offsetOf(extra),
                   where + ".extra_tensor_info")
             << "location " << static_cast<int32_t>(extra->location())
             << " or device type " << static_cast<int32_t>(extra->device_type())
             << " is not valid";
    StringAttr fqn;
    if (const auto *name = extra->fully_qualified_name(); name && op)
      fqn = builder.getStringAttr(name->string_view());
    if (op)
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
      return error(Check::TensorPlacement, offsetOf(tensor),
                   where + ".data_buffer_idx")
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
    return error(Check::Tensor, offsetOf(tensor), where + ".scalar_type")
           << "scalar type " << static_cast<int32_t>(tensor->scalar_type())
           << " is not a valid ExecuTorch scalar type";
  if (!tensor->sizes() || !tensor->dim_order())
    return error(Check::Tensor, offsetOf(tensor), where)
           << "a tensor needs both sizes and dim_order";
  if (tensor->storage_offset() != 0)
    return error(Check::Tensor, offsetOf(tensor), where + ".storage_offset")
           << "storage_offset is " << tensor->storage_offset()
           << "; the runtime requires 0";
  auto dynamism =
      symbolizeShapeDynamism(static_cast<int32_t>(tensor->shape_dynamism()));
  if (!dynamism)
    return error(Check::Tensor, offsetOf(tensor), where + ".shape_dynamism")
               .setRuntime(RuntimeLoad::Loads) // It never reads the field.
           << "shape dynamism "
           << static_cast<int32_t>(tensor->shape_dynamism()) << " is not valid";

  TensorOp op;
  if (buildIR) {
    SmallVector<int32_t> sizes = readScalars(tensor->sizes());
    SmallVector<int32_t> dimOrder(tensor->dim_order()->begin(),
                                  tensor->dim_order()->end());
    op = compat::create<TensorOp>(builder, entryLocFor(tensor, path), valueType,
                                  ScalarTypeAttr::get(context, *scalarType),
                                  builder.getDenseI32ArrayAttr(sizes),
                                  builder.getDenseI32ArrayAttr(dimOrder),
                                  IntegerAttr(), IntegerAttr(), IntegerAttr(),
                                  UnitAttr(), IntegerAttr(),
                                  ShapeDynamismAttr(), TensorInfoAttr());
    if (*dynamism != ShapeDynamism::Static)
      op.setShapeDynamismAttr(ShapeDynamismAttr::get(context, *dynamism));
  }
  if (failed(readTensorPlacement(tensor, op, where)))
    return failure();
  return op.getOperation();
}

LogicalResult PTEReader::checkTensorInvariants(const fb::Tensor *tensor,
                                               ScalarType type,
                                               const Twine &where) {
  SmallVector<int32_t> sizes = readScalars(tensor->sizes());
  SmallVector<int32_t> dimOrder(tensor->dim_order()->begin(),
                                tensor->dim_order()->end());
  StringRef name = TensorOp::getOperationName();
  const Check invariant = Check::ProgramInvariant;
  if (failed(reportInvariant(et::getTensorShapeProblem(sizes, dimOrder), name,
                             invariant, tensor, where)))
    return failure();
  std::optional<uint64_t> bytes = getTensorByteSize(type, sizes);
  const fb::AllocationDetails *allocation = tensor->allocation_info();
  if (allocation && failed(reportInvariant(
                        et::getPlannedTensorProblem(
                            static_cast<int32_t>(allocation->memory_id()),
                            (uint64_t(allocation->memory_offset_high()) << 32) |
                                allocation->memory_offset_low(),
                            bytes, methodBuffers),
                        name, invariant, tensor, where)))
    return failure();
  const fb::ExtraTensorInfo *extra = tensor->extra_tensor_info();
  if (!tensor->data_buffer_idx() || !tensorData ||
      (extra && extra->location() == fb::TensorDataLocation::EXTERNAL))
    return success(); // External data is found by name at load.
  return reportInvariant(
      et::getTensorDataProblem(tensor->data_buffer_idx(), allocation,
                               extra ? extra->mutable_data_segments_idx() : 0,
                               bytes, *tensorData),
      name, invariant, tensor, where);
}

Operation *PTEReader::readListValue(const fb::EValue *value, Location loc,
                                    TablePath path, PendingItems &pending) {
  switch (value->val_type()) {
  case fb::KernelTypes::IntList: {
    IntListOp op;
    if (buildIR)
      op = compat::create<IntListOp>(builder, loc, valueType, ValueRange());
    pending.intLists.push_back({op, IntListOp::getOperationName(),
                                value->val_as_IntList()->items(), path.index});
    return op.getOperation();
  }
  case fb::KernelTypes::DoubleList: {
    if (!buildIR)
      return nullptr;
    SmallVector<double> items =
        readScalars(value->val_as_DoubleList()->items());
    return compat::create<DoubleListOp>(builder, loc, valueType,
                                        builder.getDenseF64ArrayAttr(items))
        .getOperation();
  }
  case fb::KernelTypes::BoolList: {
    if (!buildIR)
      return nullptr;
    SmallVector<bool> items;
    if (const auto *list = value->val_as_BoolList()->items())
      for (uint8_t item : *list)
        items.push_back(item != 0);
    return compat::create<BoolListOp>(builder, loc, valueType,
                                      builder.getDenseBoolArrayAttr(items))
        .getOperation();
  }
  case fb::KernelTypes::TensorList: {
    TensorListOp op;
    if (buildIR)
      op = compat::create<TensorListOp>(builder, loc, valueType, ValueRange());
    pending.lists.push_back({op, TensorListOp::getOperationName(),
                             value->val_as_TensorList()->items(), path.index});
    return op.getOperation();
  }
  case fb::KernelTypes::OptionalTensorList: {
    // Index -1 is an absent item (None), as the runtime reads it.
    const auto *items = value->val_as_OptionalTensorList()->items();
    OptionalTensorListOp op;
    if (buildIR) {
      SmallVector<int32_t> nones;
      for (auto [position, index] : llvm::enumerate(readScalars(items)))
        if (index == -1)
          nones.push_back(position);
      op = compat::create<OptionalTensorListOp>(
          builder, loc, valueType, ValueRange(),
          builder.getDenseI32ArrayAttr(nones));
    }
    pending.lists.push_back(
        {op, OptionalTensorListOp::getOperationName(), items, path.index});
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
  auto loc = [&] { return entryLocFor(value, path); };
  fb::KernelTypes type = value->val_type();
  if (type != fb::KernelTypes::Null && type != fb::KernelTypes::NONE &&
      !value->val())
    return error(Check::Value, offsetOf(value), where)
           << "the value of type " << fb::EnumNameKernelTypes(type)
           << " is missing";
  switch (type) {
  case fb::KernelTypes::NONE:
    return error(Check::Value, offsetOf(value), where)
           << "the value has no type (tag NONE); None is written as Null";
  case fb::KernelTypes::Tensor:
    return readTensor(value->val_as_Tensor(), path, where);
  case fb::KernelTypes::IntList:
  case fb::KernelTypes::DoubleList:
  case fb::KernelTypes::BoolList:
  case fb::KernelTypes::TensorList:
  case fb::KernelTypes::OptionalTensorList:
    return readListValue(value, buildIR ? loc() : fileLoc, path, pending);
  case fb::KernelTypes::Null:
  case fb::KernelTypes::Int:
  case fb::KernelTypes::Bool:
  case fb::KernelTypes::Double:
  case fb::KernelTypes::String:
    return buildIR ? readScalarValue(value, loc()) : nullptr;
  }
  return error(Check::Value, offsetOf(value), where)
         << "unknown value type " << static_cast<int>(type);
}

Operation *PTEReader::readScalarValue(const fb::EValue *value, Location loc) {
  switch (value->val_type()) {
  case fb::KernelTypes::Null:
    return compat::create<NullOp>(builder, loc, valueType).getOperation();
  case fb::KernelTypes::Int:
    return compat::create<IntOp>(
               builder, loc, valueType,
               builder.getI64IntegerAttr(value->val_as_Int()->int_val()))
        .getOperation();
  case fb::KernelTypes::Bool:
    return compat::create<BoolOp>(
               builder, loc, valueType,
               builder.getBoolAttr(value->val_as_Bool()->bool_val()))
        .getOperation();
  case fb::KernelTypes::Double:
    return compat::create<DoubleOp>(
               builder, loc, valueType,
               builder.getF64FloatAttr(value->val_as_Double()->double_val()))
        .getOperation();
  case fb::KernelTypes::String: {
    const auto *string = value->val_as_String()->string_val();
    return compat::create<StringOp>(
               builder, loc, valueType,
               builder.getStringAttr(string ? string->string_view() : ""))
        .getOperation();
  }
  default:
    llvm_unreachable("not a scalar value");
  }
}

PTEReader::ValueKind PTEReader::getValueKind(const fb::EValue *value) {
  switch (value->val_type()) {
  case fb::KernelTypes::Null:
    return {NullOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Int:
    return {IntOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Bool:
    return {BoolOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Double:
    return {DoubleOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::String:
    return {StringOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Tensor:
    return {TensorOp::getOperationName(),
            symbolizeScalarType(
                static_cast<int32_t>(value->val_as_Tensor()->scalar_type()))};
  case fb::KernelTypes::IntList:
    return {IntListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::DoubleList:
    return {DoubleListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::BoolList:
    return {BoolListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::TensorList:
    return {TensorListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::OptionalTensorList:
    return {OptionalTensorListOp::getOperationName(), std::nullopt};
  default:
    return {};
  }
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
  bool allRead = true;
  for (auto [index, op] : llvm::enumerate(*table)) {
    std::string at = (where + ".operators[" + Twine(index) + "]").str();
    if (!op->name()) {
      FindingReport report =
          error(Check::OperatorName, offsetOf(op), at + ".name");
      report << "the operator has no name";
      if (!collecting())
        return report;
      allRead = false;
    } else if (collecting() &&
               failed(reportInvariant(
                   et::getOperatorProblem(op->name()->string_view()),
                   OperatorOp::getOperationName(), Check::ProgramInvariant, op,
                   at))) {
      allRead = false;
    }
    if (!buildIR) {
      operators.push_back(Value());
      continue;
    }
    StringAttr overload;
    if (op->overload())
      overload = builder.getStringAttr(op->overload()->string_view());
    operators.push_back(compat::create<OperatorOp>(
        builder, locFor(at, op), OperatorType::get(context),
        builder.getStringAttr(op->name() ? op->name()->string_view() : ""),
        overload));
  }
  return success(allRead);
}

LogicalResult PTEReader::readDelegates(const fb::ExecutionPlan *plan,
                                       unsigned planIndex, const Twine &where,
                                       SmallVectorImpl<Value> &delegates) {
  Type delegateType = DelegateType::get(context);
  bool allRead = true;
  for (auto [index, delegate] : llvm::enumerate(*plan->delegates())) {
    // Only error messages read it: built only for one (a program can have
    // an entry per call).
    auto at = [&, index = index] {
      return (where + ".delegates[" + Twine(index) + "]").str();
    };
    FlatSymbolRefAttr payload;
    ArrayAttr specs;
    bool read = succeeded(readDelegate(delegate, at, payload, specs));
    if (!read && !collecting())
      return failure();
    // A stand-in keeps the indices of the entries after it.
    allRead &= read;
    if (read && collecting())
      allRead &= succeeded(
          reportInvariant(et::getDelegateProblem(delegate->id()->string_view()),
                          DelegateOp::getOperationName(),
                          Check::ProgramInvariant, delegate, at()));
    if (!buildIR) {
      delegates.push_back(Value());
      continue;
    }
    Location loc = entryLocFor(delegate, {TablePath::Delegate, planIndex, 0,
                                          static_cast<uint32_t>(index)});
    delegates.push_back(compat::create<DelegateOp>(
        builder, loc, delegateType,
        read ? StringRef(delegate->id()->string_view()) : StringRef(), payload,
        specs));
  }
  return success(allRead);
}

LogicalResult PTEReader::readDelegate(const fb::BackendDelegate *delegate,
                                      function_ref<std::string()> at,
                                      FlatSymbolRefAttr &payload,
                                      ArrayAttr &specs) {
  if (!delegate->id())
    return error(Check::DelegateId, offsetOf(delegate), at() + ".id")
           << "the delegate has no backend id";
  const fb::BackendDelegateDataReference *processed = delegate->processed();
  if (!processed)
    return error(Check::DelegateProcessed, offsetOf(delegate),
                 at() + ".processed")
           << "the delegate has no payload reference";
  BlobOp blob;
  uint32_t dataIndex = processed->index();
  if (processed->location() == fb::DataLocation::SEGMENT) {
    if (dataIndex >= segmentBlobs.size())
      return error(Check::DelegateDataIndex, offsetOf(processed),
                   at() + ".processed.index")
             << "segment index " << dataIndex << " is out of range ("
             << segmentBlobs.size() << " segments)";
    if (std::optional<std::string> why = whyNoSegmentData())
      return error(Check::SegmentWithoutData, offsetOf(processed),
                   at() + ".processed")
             << "a segment reference, but " << *why
             << ", so the runtime loads no segment (NotFound)";
    segmentBlobs.setNamed(dataIndex);
    blob = segmentBlobs.blobs[dataIndex];
  } else if (processed->location() == fb::DataLocation::INLINE) {
    if (dataIndex >= inlineBlobs.size())
      return error(program->backend_delegate_data()
                       ? Check::DelegateDataIndex
                       : Check::DelegateInlineTable,
                   offsetOf(processed), at() + ".processed.index")
             << "inline data index " << dataIndex << " is out of range ("
             << inlineBlobs.size() << " backend_delegate_data entries)";
    inlineBlobs.setNamed(dataIndex);
    blob = inlineBlobs.blobs[dataIndex];
  } else {
    return error(Check::DelegateDataLocation, offsetOf(processed),
                 at() + ".processed.location")
           << "unknown data location "
           << static_cast<int>(processed->location());
  }
  if (buildIR)
    payload = FlatSymbolRefAttr::get(blob.getSymNameAttr());
  const auto *list = delegate->compile_specs();
  if (!list)
    return success();
  SmallVector<Attribute> entries;
  for (auto [specIndex, spec] : llvm::enumerate(*list)) {
    if (!spec->key() || !spec->value())
      return error(Check::CompileSpec, offsetOf(spec),
                   at() + ".compile_specs[" + Twine(specIndex) + "]")
             << "a compile spec needs both a key and a value";
    if (!buildIR)
      continue;
    entries.push_back(CompileSpecAttr::get(
        context, spec->key()->string_view(),
        StringRef(reinterpret_cast<const char *>(spec->value()->data()),
                  spec->value()->size())));
  }
  if (buildIR)
    specs = builder.getArrayAttr(entries);
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
  if (index < 0 || static_cast<uint32_t>(index) >= callees.size()) {
    bool kernel = std::is_same_v<OpTy, KernelCallOp>;
    FindingReport report =
        error(kernel ? Check::OperatorIndex : Check::DelegateIndex,
              offsetOf(call), at + "." + field);
    report << callee << " index " << index << " is out of range ("
           << callees.size() << " " << callee << "s)";
    // Loading a method resolves every kernel call's operator, but keeps
    // only the last call's result (method.cpp, delayed_error); a delegate
    // index is first followed when the call runs.
    bool rejected = kernel && static_cast<const void *>(call) == lastKernelCall;
    if (rejected)
      report.setRuntime(RuntimeLoad::Rejects);
    else
      report.detail("; the runtime loads this, and running the method reads "
                    "past its " +
                    callee + " table");
    return report;
  }
  if (!call->args())
    return error(Check::Instruction, offsetOf(call), at + ".args")
           << "the call has no args";
  auto args = getValues(call->args(), values, Check::InstructionValueIndex,
                        at + ".args");
  if (failed(args))
    return failure();
  if (buildIR)
    compat::create<OpTy>(builder, loc, callees[index], *args);
  return success();
}

LogicalResult PTEReader::readJump(const fb::Instruction *instruction,
                                  Location loc, const Twine &at, uint32_t size,
                                  ArrayRef<Value> values) {
  const fb::JumpFalseCall *jump = instruction->instr_args_as_JumpFalseCall();
  auto condition =
      getValue(jump->cond_value_index(), values, jump,
               Check::InstructionValueIndex, at + ".cond_value_index");
  if (failed(condition))
    return failure();
  int32_t destination = jump->destination_instruction();
  if (destination < 0 || static_cast<uint32_t>(destination) >= size) {
    FindingReport report = error(Check::JumpDestination, offsetOf(jump),
                                 at + ".destination_instruction");
    report << "destination " << destination << " is outside the chain (" << size
           << " instructions)";
    report.detail("; the runtime loads this, and a jump taken there runs "
                  "past the chain's instructions");
    return report;
  }
  if (collecting()) {
    ValueKind kind = valueKinds[jump->cond_value_index()];
    if (!kind.op.empty() &&
        failed(reportInvariant(et::getJumpConditionProblem(kind.op, kind.type),
                               JumpFalseOp::getOperationName(),
                               Check::ProgramInvariant, instruction, at)))
      return failure();
  }
  if (buildIR)
    compat::create<JumpFalseOp>(builder, loc, *condition, destination);
  return success();
}

LogicalResult PTEReader::readInstruction(const fb::Instruction *instruction,
                                         Location loc, const Twine &at,
                                         uint32_t size,
                                         const MethodTables &tables) {
  ArrayRef<Value> values = tables.values;
  if (!instruction->instr_args())
    return error(Check::Instruction, offsetOf(instruction), at + ".instr_args")
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
    const Check index = Check::InstructionValueIndex;
    auto from =
        getValue(move->move_from(), values, move, index, at + ".move_from");
    auto to = getValue(move->move_to(), values, move, index, at + ".move_to");
    if (failed(from) || failed(to))
      return failure();
    if (buildIR)
      compat::create<MoveOp>(builder, loc, *from, *to);
    return success();
  }
  case fb::InstructionArguments::JumpFalseCall:
    return readJump(instruction, loc, at, size, values);
  case fb::InstructionArguments::FreeCall: {
    const fb::FreeCall *free = instruction->instr_args_as_FreeCall();
    auto value = getValue(free->value_index(), values, free,
                          Check::InstructionValueIndex, at + ".value_index");
    if (failed(value))
      return failure();
    if (buildIR)
      compat::create<FreeOp>(builder, loc, *value);
    return success();
  }
  default:
    return error(Check::Instruction, offsetOf(instruction),
                 at + ".instr_args_type")
           << "unknown instruction type "
           << static_cast<int>(instruction->instr_args_type());
  }
}

LogicalResult PTEReader::readChain(const fb::Chain *chain, unsigned planIndex,
                                   unsigned chainIndex, const Twine &where,
                                   const MethodTables &tables) {
  if (!chain->instructions())
    return error(Check::Instruction, offsetOf(chain), where + ".instructions")
           << "the chain has no instructions list";
  const Check index = Check::ChainIOIndex;
  auto inputs =
      getValues(chain->inputs(), tables.values, index, where + ".inputs");
  auto outputs =
      getValues(chain->outputs(), tables.values, index, where + ".outputs");
  bool allRead = succeeded(inputs) && succeeded(outputs);
  if (!allRead && !collecting())
    return failure();

  OpBuilder::InsertionGuard guard(builder);
  if (buildIR) {
    auto chainOp = compat::create<ChainOp>(
        builder, locFor(where, chain),
        succeeded(inputs) ? ValueRange(*inputs) : ValueRange(),
        succeeded(outputs) ? ValueRange(*outputs) : ValueRange(),
        readStacktrace(chain));
    chainOp.getBody().push_back(new Block());
    builder.setInsertionPointToStart(&chainOp.getBody().front());
  }

  const auto *instructions = chain->instructions();
  for (auto [index, instruction] : llvm::enumerate(*instructions)) {
    Location loc = buildIR
                       ? entryLocFor(instruction,
                                     {TablePath::Instruction, planIndex,
                                      chainIndex, static_cast<uint32_t>(index)})
                       : fileLoc;
    // A Twine: the path is spelled out only for an error.
    if (failed(readInstruction(instruction, loc,
                               where + ".instructions[" + Twine(index) + "]",
                               instructions->size(), tables))) {
      if (!collecting())
        return failure();
      allRead = false;
    }
  }
  return success(allRead);
}

LogicalResult PTEReader::checkMethodTables(const fb::ExecutionPlan *plan,
                                           const Twine &where) {
  auto missing = [&](StringRef field) -> LogicalResult {
    return error(field == "name" ? Check::MethodName : Check::MissingTable,
                 offsetOf(plan), where + "." + field)
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
  methodBuffers = readScalars(plan->non_const_buffer_sizes());
  if (method)
    method.setBuffersAttr(builder.getDenseI64ArrayAttr(methodBuffers));
  if (const fb::ContainerMetadata *meta = plan->container_meta_type();
      meta && method) {
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
      return error(Check::BufferDevice, offsetOf(device),
                   where + ".non_const_buffer_device[" + Twine(index) +
                       "].device_type")
             << "device type " << static_cast<int>(device->device_type())
             << " is not valid";
    if (method)
      entries.push_back(BufferDeviceAttr::get(context, device->buffer_idx(),
                                              *type, device->device_index()));
  }
  if (method)
    method.setBufferDevicesAttr(builder.getArrayAttr(entries));
  return success();
}

LogicalResult PTEReader::checkMethodSymbol(const fb::ExecutionPlan *plan,
                                           unsigned planIndex, StringRef name) {
  std::string where = ("execution_plan[" + Twine(planIndex) + "].name").str();
  auto [it, inserted] = methodNames.try_emplace(name, planIndex);
  if (!inserted)
    return error(Check::MethodName, offsetOf(plan), where)
               .setRuntime(RuntimeLoad::Loads)
               .invariant()
           << "method name '" << name << "' is also execution_plan["
           << it->second << "]'s; the runtime finds only the first by name";
  // The importer names the blobs of segments and inline data.
  unsigned index = 0;
  for (auto [prefix, count] :
       {std::pair<StringRef, size_t>{layout::kSegmentBlobPrefix,
                                     segmentBlobs.size()},
        {layout::kInlineBlobPrefix, inlineBlobs.size()}}) {
    StringRef rest = name;
    if (rest.consume_front(prefix) && !rest.getAsInteger(10, index) &&
        index < count && Twine(index).str() == rest)
      return error(Check::MethodName, offsetOf(plan), where)
                 .setRuntime(RuntimeLoad::Loads)
                 .invariant()
             << "method name '" << name
             << "' is the name emit gives a blob of this program; emit "
                "cannot import it";
  }
  return success();
}

/// No device plans more memory than this: a buffer larger is a corrupt size
/// the runtime fails to allocate (MemoryAllocationFailed).
constexpr int64_t kMaxPlannedBufferBytes = int64_t(1) << 40;

LogicalResult PTEReader::checkMethodBuffers(const fb::ExecutionPlan *plan,
                                            const Twine &where) {
  et::Problem problem = et::getMethodBuffersProblem(methodBuffers);
  bool reserved = methodBuffers.empty() || methodBuffers.front() != 0;
  if (failed(reportInvariant(problem, MethodOp::getOperationName(),
                             reserved ? Check::ReservedBufferSize
                                      : Check::ProgramInvariant,
                             plan, where)))
    return failure();
  // What the import takes as it is but no runtime can load: a finding
  // only, which does not stop the import.
  for (auto [index, size] : llvm::enumerate(methodBuffers))
    if (size > kMaxPlannedBufferBytes)
      (void)(error(Check::PlannedBufferSize, offsetOf(plan),
                   where + ".non_const_buffer_sizes[" + Twine(index) + "]")
                 .importIgnores()
             << "planned buffer " << index << " is " << size
             << " bytes, more than any device has; the runtime fails to "
                "allocate it");
  return success();
}

LogicalResult PTEReader::connectListItems(const fb::ExecutionPlan *plan,
                                          const PendingItems &pending,
                                          ArrayRef<Value> values,
                                          const Twine &where) {
  const Check itemIndex = Check::ListItemIndex;
  // Collecting, an item of the wrong kind is a finding at the list's value.
  auto checkKind = [&](const auto &list, unsigned position, int64_t index) {
    if (!collecting() || valueKinds[index].op.empty())
      return success(); // A value that failed has its own finding.
    StringRef item = valueKinds[index].op;
    const fb::EValue *value = plan->values()->Get(list.valueIndex);
    return reportInvariant(et::getListItemProblem(list.listOp, position, item),
                           list.listOp, Check::ListInvariant, value,
                           where + ".values[" + Twine(list.valueIndex) + "]");
  };
  bool allFound = true;
  auto connect = [&](const auto &list) {
    SmallVector<Value> operands;
    bool optional = list.listOp == OptionalTensorListOp::getOperationName();
    for (auto [position, index] : llvm::enumerate(readScalars(list.items))) {
      if (optional && index == -1)
        continue;
      // A Twine: the path is spelled out only for an error.
      auto item = getValue(index, values, list.items, itemIndex,
                           where + ".values[" + Twine(list.valueIndex) +
                               "].items[" + Twine(position) + "]");
      allFound &=
          succeeded(item) && succeeded(checkKind(list, position, index));
      if (!allFound && !collecting())
        return failure();
      if (succeeded(item))
        operands.push_back(*item);
    }
    if (list.op)
      list.op->setOperands(operands);
    return success();
  };
  for (const PendingList<int32_t> &list : pending.lists)
    if (failed(connect(list)))
      return failure();
  for (const PendingList<int64_t> &list : pending.intLists)
    if (failed(connect(list)))
      return failure();
  return success(allFound);
}

LogicalResult PTEReader::readValues(const fb::ExecutionPlan *plan,
                                    unsigned planIndex, const Twine &where,
                                    SmallVectorImpl<Value> &values) {
  // Values first, in index order; list items may name later values, so
  // they are connected once every value exists.
  values.reserve(plan->values()->size());
  valueKinds.clear();
  PendingItems pending;
  bool allRead = true;
  for (auto [index, value] : llvm::enumerate(*plan->values())) {
    auto op = readValue(
        value, where + ".values[" + Twine(index) + "]",
        {TablePath::Value, planIndex, 0, static_cast<uint32_t>(index)},
        pending);
    // The kinds are for the invariants, which collecting checks.
    if (collecting())
      valueKinds.push_back(succeeded(op) ? getValueKind(value) : ValueKind());
    // A tensor that breaks an invariant is still a tensor to the lists and
    // jumps that name it.
    if (succeeded(op) && collecting() &&
        value->val_type() == fb::KernelTypes::Tensor)
      allRead &= succeeded(
          checkTensorInvariants(value->val_as_Tensor(), *valueKinds.back().type,
                                where + ".values[" + Twine(index) + "]"));
    Operation *decl = succeeded(op) ? *op : nullptr;
    if (failed(op)) {
      if (!collecting())
        return failure();
      // A stand-in keeps the indices of the values after it.
      allRead = false;
      if (buildIR)
        decl = compat::create<NullOp>(builder, fileLoc, valueType);
    }
    values.push_back(decl ? decl->getResult(0) : Value());
  }
  return success(succeeded(connectListItems(plan, pending, values, where)) &&
                 allRead);
}

/// The last kernel call of `plan` in the order the runtime loads them.
static const void *findLastKernelCall(const fb::ExecutionPlan *plan) {
  const auto *chains = plan->chains();
  for (unsigned chain = chains->size(); chain-- > 0;) {
    const auto *instructions = chains->Get(chain)->instructions();
    if (!instructions)
      continue;
    for (unsigned index = instructions->size(); index-- > 0;)
      if (const auto *call =
              instructions->Get(index)->instr_args_as_KernelCall())
        return call;
  }
  return nullptr;
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
  MethodOp method;
  if (buildIR)
    method = compat::create<MethodOp>(
        builder, locFor(where, plan), builder.getStringAttr(name),
        DenseI64ArrayAttr(), ContainerMetaAttr(), ArrayAttr());
  if (failed(readMethodAttributes(plan, method, where)))
    return failure();

  OpBuilder::InsertionGuard guard(builder);
  if (method) {
    method.getBody().push_back(new Block());
    builder.setInsertionPointToStart(&method.getBody().front());
  }
  lastKernelCall = findLastKernelCall(plan);
  // Each table is read whole when collecting findings: a failure stops the
  // import at once otherwise.
  bool allRead =
      !collecting() || (succeeded(checkMethodBuffers(plan, where)) &
                        succeeded(checkMethodSymbol(plan, planIndex, name)));
  auto read = [&](LogicalResult result) {
    allRead &= succeeded(result);
    return succeeded(result) || collecting();
  };
  MethodTables tables;
  if (!read(readValues(plan, planIndex, where, tables.values)))
    return failure();
  // The operator and delegate tables as they are, entries no instruction
  // uses included: the runtime resolves and initializes every one.
  if (!read(readOperators(plan, where, tables.operators)) ||
      !read(readDelegates(plan, planIndex, where, tables.delegates)))
    return failure();
  for (auto [index, chain] : llvm::enumerate(*plan->chains()))
    if (!read(readChain(chain, planIndex, index,
                        where + ".chains[" + Twine(index) + "]", tables)))
      return failure();

  const Check index = Check::MethodIOIndex;
  auto inputs =
      getValues(plan->inputs(), tables.values, index, where + ".inputs");
  auto outputs =
      getValues(plan->outputs(), tables.values, index, where + ".outputs");
  if (!read(success(succeeded(inputs) && succeeded(outputs))))
    return failure();
  if (succeeded(inputs) && succeeded(outputs) && buildIR)
    compat::create<SignatureOp>(builder, locFor(where + ".signature"), *inputs,
                                *outputs);
  return success(allRead);
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
    error(Check::Flatbuffer, 0, "Program")
        << "the flatbuffer in bytes [0, " << programSize
        << ") fails verification: the file is truncated or corrupt";
    return nullptr;
  }
  program = fb::GetProgram(file.data());
  if (!program->execution_plan()) {
    error(Check::MissingTable, offsetOf(program), "Program.execution_plan")
        << "the program has no execution_plan";
    return nullptr;
  }

  OwningOpRef<ModuleOp> module;
  if (buildIR) {
    module = ModuleOp::create(fileLoc);
    builder.setInsertionPointToEnd(module->getBody());
    // Named after the file; "program" when reading stdin.
    std::string name = llvm::sys::path::stem(fileName).str();
    if (name.empty() || name.front() == '<')
      name = "program";
    programOp = compat::create<ProgramOp>(builder, fileLoc, name);
    builder.setInsertionPointToEnd(&programOp.getBody().front());
  }

  // Collecting findings, every table and method is read, whatever fails.
  bool allRead = succeeded(readProgramData());
  if (!allRead && !collecting())
    return nullptr;
  for (auto [index, plan] : llvm::enumerate(*program->execution_plan())) {
    if (succeeded(readMethod(plan, index)))
      continue;
    if (!collecting())
      return nullptr;
    allRead = false;
  }
  // Stand-ins for what was bad would only add findings of their own.
  if (!allRead)
    return nullptr;
  reportUnnamedData(findings, "segments", segmentBlobs.offsets,
                    segmentBlobs.sizes, segmentBlobs.named);
  reportUnnamedData(findings, "backend_delegate_data", inlineBlobs.offsets,
                    inlineBlobs.sizes, inlineBlobs.named);
  // Collecting, the readers checked the dialect's invariants as they went.
  if (!buildIR)
    return nullptr;
  if (!verify || collecting())
    return module;
  if (entryLocations)
    return succeeded(verifyModule(*module)) ? std::move(module) : nullptr;
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  verificationFailed = failed(mlir::verify(*module));
  return verificationFailed ? nullptr : std::move(module);
}

std::optional<PTEReader::TableAt> PTEReader::tableAt(Location loc) {
  auto name = dyn_cast<NameLoc>(loc);
  auto plain = dyn_cast<FileLineColLoc>(name ? name.getChildLoc() : loc);
  if (!plain || plain.getFilename() != fileNameAttr || plain.getLine() != 0)
    return std::nullopt;
  if (name)
    return TableAt{plain.getColumn(), name.getName().str()};
  return TableAt{plain.getColumn(), pathAt(plain.getColumn())};
}

LogicalResult PTEReader::verifyModule(ModuleOp module) {
  // What the runtime would reject and the structure above does not show
  // (tensor data out of range, planned tensors past their buffer, ...).
  // Diagnostics printers show only a name location's child, so the path of
  // the offending table is added to the message.
  ScopedDiagnosticHandler addPath(context, [&](Diagnostic &diag) {
    if (std::optional<TableAt> table = tableAt(diag.getLocation());
        table && table->path)
      diag << " (in " << *table->path << ")";
    return failure(); // Let the enclosing handler report it.
  });
  return mlir::verify(module);
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
  return spell(it->second, /*entry=*/true);
}

std::string PTEReader::spell(const TablePath &path, bool entry) const {
  std::string plan =
      path.plan < planPaths.size() ? planPaths[path.plan] : std::string();
  std::string table;
  switch (path.kind) {
  case TablePath::Segment:
    table = "segments";
    break;
  case TablePath::InlineData:
    table = "backend_delegate_data";
    break;
  case TablePath::Value:
    table = plan + ".values";
    break;
  case TablePath::Delegate:
    table = plan + ".delegates";
    break;
  case TablePath::Instruction:
    table = (plan + ".chains[" + Twine(path.chain) + "].instructions").str();
    break;
  }
  return entry ? (table + "[" + Twine(path.index) + "]").str() : table;
}

const void *PTEReader::tableOf(const TablePath &path) const {
  switch (path.kind) {
  case TablePath::Segment:
    return program->segments();
  case TablePath::InlineData:
    return program->backend_delegate_data();
  default:
    break;
  }
  const fb::ExecutionPlan *plan = program->execution_plan()->Get(path.plan);
  if (path.kind == TablePath::Value)
    return plan->values();
  if (path.kind == TablePath::Delegate)
    return plan->delegates();
  return plan->chains()->Get(path.chain)->instructions();
}

Location PTEReader::entryLocFor(const void *table, TablePath path) {
  if (entryLocations) {
    uint64_t offset = offsetOf(table);
    plainPaths.push_back({static_cast<unsigned>(offset), path});
    return FileLineColLoc::get(fileNameAttr, 0, offset);
  }
  const void *whole = tableOf(path);
  auto [it, inserted] = tableLocs.try_emplace(whole, fileLoc);
  if (inserted)
    it->second = locFor(spell(path, /*entry=*/false), whole);
  return it->second;
}

OwningOpRef<ModuleOp> emit::translateFromPTE(llvm::MemoryBufferRef buffer,
                                             MLIRContext *context,
                                             const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  PTEReader reader(buffer, context, options);
  OwningOpRef<ModuleOp> module = reader.read(options.verify);
  if (!reader.verificationFailed)
    return module;
  // The errors say which entry is wrong: read again, locating each one. The
  // file read without error before, and its warnings were reported then.
  PTEReadOptions entries = options;
  entries.entryLocations = true;
  PTEReader again(buffer, context, entries);
  {
    ScopedDiagnosticHandler quiet(context,
                                  [](Diagnostic &) { return success(); });
    module = again.read(/*verify=*/false);
  }
  if (module && failed(again.verifyModule(*module)))
    return nullptr;
  return module;
}
