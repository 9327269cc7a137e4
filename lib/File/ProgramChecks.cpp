//===- ProgramChecks.cpp - A .pte's header and program data -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Opening a program: its extended header as the runtime reads it, the
// flatbuffer verified once, the program-level tables, then every method
// (MethodChecks.cpp).
//
//===----------------------------------------------------------------------===//

#include "ProgramChecker.h"

#include "emit/Support/Layout.h"

using namespace mlir;
using namespace emit;

static_assert(llvm::endianness::native == llvm::endianness::little,
              "the .pte reader copies little-endian scalars as they are");

std::unique_ptr<ProgramFile>
ProgramFile::open(std::shared_ptr<const FileBuffer> buffer) {
  std::unique_ptr<ProgramFile> file(new ProgramFile(std::move(buffer)));
  ProgramChecker(*file).run();
  return file;
}

size_t ProgramFile::getSegmentCount() const {
  return program && program->segments() ? program->segments()->size() : 0;
}

SegmentPlacement ProgramFile::getSegmentPlacement(uint32_t index) const {
  const fb::DataSegment *segment = program->segments()->Get(index);
  return {segment->offset(), segment->size()};
}

uint64_t ProgramFile::getSegmentEntryOffset(uint32_t index) const {
  return offsetOf(program->segments()->Get(index));
}

LogicalResult ProgramChecker::reportInvariant(const et::Problem &problem,
                                              StringRef opName, Check check,
                                              const void *table,
                                              const Twine &where) {
  if (!problem)
    return success();
  return error(check, offsetOf(table), where).invariant()
         << "'" << opName << "' op " << *problem;
}

void ProgramChecker::run() {
  if (failed(checkHeader()) || failed(verifyFlatbuffer()))
    return;
  // Every table and method is read, whatever fails before it.
  bool allRead = succeeded(checkProgramData());
  for (auto [index, plan] : llvm::enumerate(*program->execution_plan()))
    allRead &= succeeded(checkMethod(plan, index));
  file.setReadable();
  // What would be reported of stand-ins for bad entries would only repeat
  // their findings.
  if (!allRead)
    return;
  reportUnnamedData(sink, "segments", segmentBlobs.offsets, segmentBlobs.sizes,
                    segmentBlobs.named);
  reportUnnamedData(sink, "backend_delegate_data", inlineBlobs.offsets,
                    inlineBlobs.sizes, inlineBlobs.named);
}

//===----------------------------------------------------------------------===//
// Header and verification
//===----------------------------------------------------------------------===//

LogicalResult ProgramChecker::checkHeader() {
  if (failed(checkIdentifier(sink, bytes, fb::ProgramIdentifier(), ".pte",
                             /*minSize=*/8)))
    return failure();
  file.programSize = bytes.size();
  file.header = pte::readHeader(bytes);
  if (!file.header)
    return success(); // No extended header: the whole file is the program.
  hasHeader = true;
  return checkHeaderFields(*file.header);
}

LogicalResult ProgramChecker::checkHeaderFields(const pte::ReadHeader &header) {
  // The runtime reads the header's fields and checks little else. A check
  // it makes refuses the file here too; a field it ignores is a finding the
  // import refuses (it cannot hold the file exactly), and the checks go on
  // as the runtime would (docs/FileFormats.md lists which is which).
  uint64_t size = bytes.size();
  uint32_t length = header.length;
  if (length < pte::kMinHeaderLength)
    return error(Check::HeaderLength, 12, "extended header length")
           << "header length " << length << " < " << pte::kMinHeaderLength;
  // The fields the runtime reads must be in the file; it ignores the rest
  // of the length.
  uint64_t fieldsEnd = 8 + std::min<uint64_t>(length, pte::kHeaderLength);
  bool lengthInFile = size >= 8 + uint64_t(length);
  if (!lengthInFile) {
    FindingReport report =
        error(Check::HeaderLength, 12, "extended header length");
    report << "header length " << length << " runs past the end of the " << size
           << "-byte file";
    if (size < fieldsEnd)
      return report;
    report.ignoredByRuntime().detail(kIgnoredByRuntime);
  }
  uint64_t programSize = file.programSize = header.fields.programSize;
  // The runtime reads the program, [0, program_size), and verifies it.
  if (programSize > size ||
      (lengthInFile && programSize < 8 + uint64_t(length))) {
    FindingReport report =
        error(Check::HeaderProgramSize, 16, "extended header program_size");
    report << "program_size " << programSize << " is not within the " << size
           << "-byte file (after the " << length << "-byte header)";
    if (programSize > size)
      return report;
    report.ignoredByRuntime().detail(kIgnoredByRuntime);
  }
  uint64_t dataSize = header.fields.segmentDataSize;
  if (failed(checkSegmentBase(header.fields.segmentBaseOffset, dataSize)))
    return failure();
  // Like the runtime, take a segment_data_size of 0 as not recorded (the
  // segment data then ends with the last segment).
  uint64_t segmentBase = file.segmentBase;
  if (dataSize == 0 || segmentBase == 0 || segmentBase > size)
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

LogicalResult ProgramChecker::checkSegmentBase(uint64_t segmentBase,
                                               uint64_t dataSize) {
  uint64_t size = bytes.size(), programSize = file.programSize;
  file.segmentBase = segmentBase;
  // A base of 0 means no segment data: the runtime then loads no segment.
  if (segmentBase == 0)
    return success();
  if (segmentBase > size) {
    FindingReport report = error(Check::HeaderSegmentBase, 24,
                                 "extended header segment_base_offset");
    report << "segment_base_offset " << segmentBase
           << " is past the end of the " << size << "-byte file";
    // The runtime checks that the file holds the segment data only when
    // the header records its size; else it fails only to read a segment.
    if (dataSize != 0)
      return report;
    report.setRuntime(RuntimeLoad::Loads)
        .detail("; the runtime loads this, and fails to read any segment");
    return success();
  }
  if (segmentBase < programSize)
    error(Check::HeaderSegmentBase, 24, "extended header segment_base_offset")
            .setRuntime(RuntimeLoad::Loads)
            .setImport(ImportEffect::Inexact)
            .detail("; the runtime loads this, and reads segments from there")
        << "segment_base_offset " << segmentBase
        << " is inside the program, which ends at " << programSize;
  return success();
}

LogicalResult ProgramChecker::checkSegmentDataEnd(uint64_t end) {
  if (end != bytes.size())
    reportSegmentDataEnd(sink, 24, "extended header", file.segmentBase, end,
                         bytes.size(), /*recordedSize=*/segmentDataSize != 0);
  return success();
}

std::optional<std::string> ProgramChecker::whyNoSegmentData() const {
  if (!hasHeader)
    return std::string("the file has no extended header");
  if (file.segmentBase == 0)
    return std::string("the extended header's segment_base_offset (byte 24) "
                       "is 0");
  return std::nullopt;
}

LogicalResult ProgramChecker::verifyFlatbuffer() {
  // Verify the flatbuffer before touching it. Each table takes at least 4
  // bytes, which bounds the table count of an honest file.
  uint64_t programSize = file.flatbufferSize = file.programSize;
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(bytes.data()), programSize,
      /*_max_depth=*/64, /*_max_tables=*/programSize / 4 + 64);
  if (!fb::VerifyProgramBuffer(verifier))
    return error(Check::Flatbuffer, 0, "Program")
           << "the flatbuffer in bytes [0, " << programSize
           << ") fails verification: the file is truncated or corrupt";
  program = fb::GetProgram(bytes.data());
  if (!program->execution_plan())
    return error(Check::MissingTable, offsetOf(program),
                 "Program.execution_plan")
           << "the program has no execution_plan";
  file.program = program;
  return success();
}

//===----------------------------------------------------------------------===//
// Program data
//===----------------------------------------------------------------------===//

LogicalResult ProgramChecker::checkProgramData() {
  // The blob tables first: the tables after them name their blobs.
  bool allRead = succeeded(checkSegments());
  file.segmentTableEnd = file.findings.findings.size();
  for (auto checkTable :
       {&ProgramChecker::checkInlineData, &ProgramChecker::checkConstantSegment,
        &ProgramChecker::checkConstantBuffer,
        &ProgramChecker::checkMutableDataSegments,
        &ProgramChecker::checkNamedData})
    allRead &= succeeded((this->*checkTable)());
  if (allRead)
    setTensorDataTables();
  return success(allRead);
}

void ProgramChecker::setTensorDataTables() {
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

std::optional<uint64_t> ProgramChecker::segmentSize(uint32_t index) const {
  if (index >= segmentBlobs.size() || badSegments.test(index))
    return std::nullopt;
  return segmentBlobs.sizes[index];
}

llvm::DenseMap<uint32_t, ProgramChecker::SegmentLoad>
ProgramChecker::segmentsLoadedAtLoad() const {
  llvm::DenseMap<uint32_t, SegmentLoad> loaded;
  auto add = [&](uint32_t index, SegmentLoad how) {
    SegmentLoad &known = loaded[index];
    known = std::max(known, how);
  };
  // Program::load reads the constant segment when it has an entry besides
  // the reserved one, at the base whatever it is; and a backend's init may
  // read any named data, which the program's data map reads likewise.
  if (const fb::SubsegmentOffsets *constants = program->constant_segment())
    if (constants->offsets() && constants->offsets()->size() > 1)
      add(constants->segment_index(), SegmentLoad::AtBase);
  if (const auto *mutables = program->mutable_data_segments())
    for (const fb::SubsegmentOffsets *entry : *mutables)
      add(entry->segment_index(), SegmentLoad::Checked);
  // load_method initializes every delegate entry with its payload.
  bool delegated = false;
  for (const fb::ExecutionPlan *plan : *program->execution_plan()) {
    if (!plan->delegates())
      continue;
    for (const fb::BackendDelegate *delegate : *plan->delegates()) {
      delegated = true;
      if (const auto *processed = delegate->processed())
        if (processed->location() == fb::DataLocation::SEGMENT)
          add(processed->index(), SegmentLoad::Checked);
    }
  }
  if (const auto *named = program->named_data(); named && delegated)
    for (const fb::NamedData *entry : *named)
      add(entry->segment_index(), SegmentLoad::AtBase);
  return loaded;
}

RuntimeLoad ProgramChecker::getSegmentRuntime(SegmentLoad load, bool inFile) {
  switch (load) {
  case SegmentLoad::None:
    return RuntimeLoad::Loads;
  case SegmentLoad::AtBase:
    return inFile ? RuntimeLoad::Loads : RuntimeLoad::Rejects;
  case SegmentLoad::Checked:
    return RuntimeLoad::Rejects;
  }
  llvm_unreachable("unknown segment load");
}

LogicalResult ProgramChecker::checkSegment(const fb::DataSegment *segment,
                                           unsigned index, SegmentLoad load,
                                           uint64_t &dataEnd) {
  uint64_t offset = segment->offset(), size = segment->size();
  uint64_t base = file.segmentBase, start = base + offset;
  // Without segment data, a segment the runtime reads at the base reads
  // from the file's start: the wrong bytes, or past the end of the file;
  // one it reads through LoadSegment is not found.
  bool readsInFile = offset <= bytes.size() && size <= bytes.size() - offset;
  if (std::optional<std::string> noSegmentData = whyNoSegmentData();
      noSegmentData && size != 0)
    return error(Check::SegmentWithoutData, offsetOf(segment),
                 "segments[" + Twine(index) + "]")
               .setRuntime(getSegmentRuntime(load, readsInFile))
           << "the segment holds " << size << " bytes, but " << *noSegmentData
           << ", so it has no segment data";
  if (start < base || start + size < start || start + size > bytes.size())
    return error(Check::SegmentRange, offsetOf(segment),
                 "segments[" + Twine(index) + "]")
               .setRuntime(getSegmentRuntime(load, /*inFile=*/false))
           << "offset " << offset << " and size " << size
           << " from segment base " << base << " run past the end of the "
           << bytes.size() << "-byte file";
  dataEnd = std::max(dataEnd, offset + size);
  return success();
}

LogicalResult ProgramChecker::checkSegments() {
  const auto *segments = program->segments();
  if (!segments)
    return success();
  uint64_t dataEnd = 0; // Relative to the base.
  bool allChecked = true;
  llvm::DenseMap<uint32_t, SegmentLoad> loaded = segmentsLoadedAtLoad();
  badSegments.resize(segments->size());
  for (auto [index, segment] : llvm::enumerate(*segments)) {
    bool checked =
        succeeded(checkSegment(segment, index, loaded.lookup(index), dataEnd));
    allChecked &= checked;
    // A bad segment's size is not known.
    if (!checked)
      badSegments.set(index);
    segmentBlobs.add(offsetOf(segment), checked ? segment->size() : 0);
  }
  if (!whyNoSegmentData() && !segmentDataSize && allChecked &&
      file.segmentBase <= bytes.size())
    return checkSegmentDataEnd(file.segmentBase + dataEnd);
  return success(allChecked);
}

uint64_t ProgramChecker::vectorAlignment(ArrayRef<uint64_t> addresses) {
  uint64_t programSize = file.programSize;
  if (!addresses.empty() && hasHeader &&
      programSize % pte::kInlineDataAlignment != 0)
    error(Check::ProgramSizeAlignment, 16, "extended header program_size")
            .ignoredByRuntime()
            .detail(kIgnoredByRuntime)
        << "program_size " << programSize << " is not a multiple of "
        << pte::kInlineDataAlignment << ", the alignment the schema forces "
        << "on inline data, to which a flatbuffer holding some is padded";
  return layout::commonAlignment(
      addresses, std::min<uint64_t>(layout::powerOfTwoDividing(programSize),
                                    pte::kMaxInlineAlignment));
}

LogicalResult ProgramChecker::checkInlineData() {
  const auto *entries = program->backend_delegate_data();
  if (!entries)
    return success();
  SmallVector<uint64_t> addresses;
  for (const fb::BackendDelegateInlineData *entry : *entries) {
    const auto *data = entry->data();
    // An empty vector has no bytes to align (builders skip it).
    if (data && data->size())
      addresses.push_back(offsetOf(data->data()));
    inlineBlobs.add(offsetOf(entry), data ? data->size() : 0);
  }
  // Every inline payload is written with the file's one delegate
  // alignment, as ExecuTorch writes them.
  file.inlineAlignment = vectorAlignment(addresses);
  return success();
}

LogicalResult ProgramChecker::checkSegmentIndex(uint32_t index,
                                                const void *table,
                                                const Twine &where) {
  if (index >= segmentBlobs.size())
    return error(Check::SegmentIndex, offsetOf(table), where)
           << "segment_index " << index << " is out of range ("
           << segmentBlobs.size() << " segments)";
  segmentBlobs.setNamed(index);
  return success();
}

FailureOr<SmallVector<int64_t>>
ProgramChecker::readOffsets(const flatbuffers::Vector<uint64_t> *offsets,
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

LogicalResult ProgramChecker::checkConstantSegment() {
  const fb::SubsegmentOffsets *constants = program->constant_segment();
  if (!constants)
    return success();
  // Without an entry besides the reserved one the runtime (from 0.4) never
  // looks at the segment index.
  bool hasEntries = constants->offsets() && constants->offsets()->size() > 1;
  if ((hasEntries || constants->segment_index() < segmentBlobs.size()) &&
      failed(checkSegmentIndex(constants->segment_index(), constants,
                               "constant_segment.segment_index")))
    return failure();
  FailureOr<SmallVector<int64_t>> offsets =
      readOffsets(constants->offsets(), constants, "constant_segment.offsets");
  if (failed(offsets))
    return failure();
  constantOffsets = std::move(*offsets);
  constantCapacity = segmentSize(constants->segment_index());
  return success();
}

LogicalResult ProgramChecker::checkConstantBuffer() {
  // The deprecated constant buffer, and also an empty one in a file without
  // a constant segment (which the importer keeps).
  const auto *buffers = program->constant_buffer();
  if (!(buffers && buffers->size()) && program->constant_segment())
    return success();
  SmallVector<uint64_t> addresses;
  constantBufferSizes.emplace();
  if (buffers)
    for (const fb::Buffer *buffer : *buffers) {
      const auto *storage = buffer->storage();
      if (storage && storage->size())
        addresses.push_back(offsetOf(storage->data()));
      constantBufferSizes->push_back(storage ? storage->size() : 0);
    }
  if (!addresses.empty())
    file.constantBufferAlignment = vectorAlignment(addresses);
  return success();
}

LogicalResult ProgramChecker::checkMutableDataSegments() {
  const auto *mutables = program->mutable_data_segments();
  if (!mutables)
    return success();
  for (auto [index, entry] : llvm::enumerate(*mutables)) {
    std::string where = ("mutable_data_segments[" + Twine(index) + "]").str();
    if (failed(checkSegmentIndex(entry->segment_index(), entry,
                                 where + ".segment_index")))
      return failure();
    FailureOr<SmallVector<int64_t>> offsets =
        readOffsets(entry->offsets(), entry, where + ".offsets");
    if (failed(offsets))
      return failure();
    mutableOffsets.push_back(std::move(*offsets));
  }
  return success();
}

LogicalResult ProgramChecker::checkNamedData() {
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
    allRead &= succeeded(checkNamedDataKey(sink, bytes, entry, entry->key(),
                                           where, index, keys)) &&
               succeeded(checkSegmentIndex(entry->segment_index(), entry,
                                           where + ".segment_index"));
  }
  return success(allRead);
}
