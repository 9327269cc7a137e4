//===- ReleaseFeatures.cpp - The features each runtime release honours ----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one table of what decides whether a runtime release loads a program:
// each row a feature a file may use, how to find it, what the releases
// that lack it do, and the release source that decides it (paths in
// pytorch/executorch at the release's tag). A new release is a new name in
// kReleases and, where it changes something, a row or a bound.
//
//===----------------------------------------------------------------------===//

#include "ReleaseFeatures.h"

#include "emit/Kernels/KernelLibraries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <map>

using namespace emit;

namespace {
/// Positions in kReleases.
enum Release : unsigned {
  R0_1,
  R0_2,
  R0_3,
  R0_4,
  R0_5,
  R0_6,
  R0_7,
  R1_0,
  R1_1,
  R1_2,
  R1_3,
  R1_4,
  RMain,
  RCount
};
} // namespace

static const StringRef kReleases[] = {"0.1", "0.2", "0.3", "0.4", "0.5",
                                      "0.6", "0.7", "1.0", "1.1", "1.2",
                                      "1.3", "1.4", "main"};
static_assert(std::size(kReleases) == RCount);

ArrayRef<StringRef> emit::getReleaseNames() { return kReleases; }

//===----------------------------------------------------------------------===//
// Walking a program's tables
//===----------------------------------------------------------------------===//

/// `method`'s path, as findings name it.
static std::string methodPath(const MethodModel &method) {
  return ("execution_plan[" + Twine(method.getIndex()) + "] '" +
          method.getName() + "'")
      .str();
}

void TensorScans::run(const ProgramModel &model) {
  if (!scans.empty())
    for (const MethodModel &method : model.getMethods())
      for (uint32_t value = 0, end = method.getValueCount(); value < end;
           ++value) {
        if (method.getValueKind(value) != ValueKind::Tensor)
          continue;
        std::optional<TensorModel> tensor = method.getTensor(value);
        if (!tensor)
          continue;
        for (auto &[visit, finish] : scans)
          visit(method, value, *tensor);
      }
  for (auto &[visit, finish] : scans)
    finish();
}

/// The first of the tensors `matches` accepts, and how many there are, as
/// a use; none when none does. Counted in the judgement's one walk over
/// the tensors.
template <typename Match>
static void findTensors(const ReleaseInput &input, const Twine &what,
                        Match matches, std::vector<FeatureUse> &uses) {
  struct Found {
    unsigned count = 0;
    std::string where;
  };
  auto found = std::make_shared<Found>();
  input.tensors.add(
      [found, matches](const MethodModel &method, uint32_t value,
                       const TensorModel &tensor) {
        if (!matches(tensor) || found->count++ > 0)
          return;
        found->where =
            methodPath(method) + ".values[" + std::to_string(value) + "]";
      },
      [found, what = what.str(), &uses] {
        if (found->count)
          uses.push_back(
              {found->where, (what + " (" + Twine(found->count) +
                              (found->count == 1 ? " tensor)" : " tensors)"))
                                 .str()});
      });
}

/// Tensors of a scalar type in `types`.
static void findScalarTypes(const ReleaseInput &input,
                            std::initializer_list<int> types, const char *what,
                            std::vector<FeatureUse> &uses) {
  findTensors(
      input, what,
      [types = SmallVector<int, 3>(types)](const TensorModel &tensor) {
        return llvm::is_contained(types, tensor.rawScalarType);
      },
      uses);
}

/// Constants read from constant_buffer (the program has no constant
/// segment) whose entry holds more bytes than the tensor.
static void findPaddedConstants(const ReleaseInput &input,
                                std::vector<FeatureUse> &uses) {
  const ConstantStoresModel &stores = input.model.getConstantStores();
  if (input.model.readsConstantSegment() || !stores.hasConstantBuffer)
    return;
  findTensors(
      input, "constants with a larger constant_buffer entry",
      [&stores](const TensorModel &tensor) {
        if (!tensor.isConstant() || tensor.external ||
            tensor.dataIndex >= stores.constantBuffer.size())
          return false;
        std::optional<uint64_t> stored =
            stores.constantBuffer[tensor.dataIndex];
        std::optional<uint64_t> bytes = tensor.getBytes();
        return stored && bytes && *stored > *bytes;
      },
      uses);
}

/// Planned buffers or tensors placed on a device other than the CPU.
static void findDevicePlacement(const ReleaseInput &input,
                                std::vector<FeatureUse> &uses) {
  for (const MethodModel &method : input.model.getMethods())
    for (const BufferDeviceModel &device : method.getBufferDevices())
      if (device.deviceType != kCpuDevice)
        return uses.push_back({methodPath(method) + ".non_const_buffer_device",
                               "planned buffers on a device"});
  findTensors(
      input, "tensors on a device",
      [](const TensorModel &tensor) {
        return tensor.getDeviceType() != kCpuDevice;
      },
      uses);
}

//===----------------------------------------------------------------------===//
// Tensor data, as releases before 0.6 read it: by its data index alone
// (getTensorDataPtr in runtime/executor/tensor_parser*.cpp and
// Program::get_constant_buffer_data at each tag). They know no external
// data; 0.1 to 0.3 take any data index for a constant's, and 0.4 and 0.5
// a planned tensor's for an offset into the first mutable data segment.
//===----------------------------------------------------------------------===//

namespace {
/// The releases before 0.6 that read tensor data alike.
enum class LegacyReader { R0_1, R0_2To0_3, R0_4To0_5 };
constexpr std::pair<LegacyReader, std::pair<Release, Release>>
    kLegacyReaders[] = {{LegacyReader::R0_1, {R0_1, R0_2}},
                        {LegacyReader::R0_2To0_3, {R0_2, R0_4}},
                        {LegacyReader::R0_4To0_5, {R0_4, R0_6}}};

/// What a release does with one tensor's data.
struct LegacyRead {
  ReleaseVerdict verdict = ReleaseVerdict::Loads;
  const char *effect = nullptr;
};

/// A tensor's data as releases before 0.6 find it in `program`.
class LegacyTensorReads {
public:
  explicit LegacyTensorReads(const ConstantStoresModel &stores)
      : stores(stores) {}
  /// What `reader` does with `tensor`'s data: loads it as the file means
  /// (no effect), or misreads, refuses or crashes on it.
  LegacyRead read(LegacyReader reader, const TensorModel &tensor) const;

private:
  /// A constant at `index` of `bytes` bytes, read as `reader` reads it;
  /// `meant` when the tensor is one (else its bytes are another's).
  LegacyRead readConstant(LegacyReader reader, uint32_t index, uint64_t bytes,
                          bool meant) const;
  LegacyRead readMutable(uint32_t index, uint64_t bytes) const;
  const ConstantStoresModel &stores;
};
} // namespace

static constexpr LegacyRead kReadsOtherBytes = {
    ReleaseVerdict::Misreads,
    "reads the tensor by its data index as a constant: it points at another "
    "constant's bytes (a planned one: kernels write into them)"};

LegacyRead LegacyTensorReads::read(LegacyReader reader,
                                   const TensorModel &tensor) const {
  // A planned tensor with initial data is the file's meaning only where the
  // release reads mutable data segments (0.4 on), and an external one never.
  bool meant = !tensor.external && (!tensor.planned || tensor.dataIndex == 0 ||
                                    reader == LegacyReader::R0_4To0_5);
  uint64_t bytes = tensor.getBytes().value_or(0);
  if (tensor.dataIndex == 0) {
    if (meant)
      return {};
    return {ReleaseVerdict::Misreads,
            tensor.planned
                ? "does not know external data: the planned tensor starts "
                  "without its data"
                : "does not know external data: the tensor's data pointer is "
                  "null"};
  }
  if (tensor.planned && reader == LegacyReader::R0_4To0_5) {
    LegacyRead read = readMutable(tensor.dataIndex, bytes);
    if (!read.effect && !meant)
      return {ReleaseVerdict::Misreads,
              "reads the tensor's data index as an offset into the first "
              "mutable data segment: it starts with other bytes"};
    return read;
  }
  return readConstant(reader, tensor.dataIndex, bytes, meant);
}

LegacyRead LegacyTensorReads::readConstant(LegacyReader reader, uint32_t index,
                                           uint64_t bytes, bool meant) const {
  // 0.2 on read the constant segment when Program::load loaded one (it has
  // offsets, and its bytes are not empty: the loader hands an empty range
  // over as null), else constant_buffer; 0.1 reads constant_buffer only.
  const std::optional<SubsegmentModel> &segment = stores.constantSegment;
  bool inSegment = segment && !segment->offsets.empty();
  if (inSegment && !segment->segmentBytes)
    return {}; // Program::load refuses it before: a row of its own
  uint64_t size = inSegment ? *segment->segmentBytes : 0;
  bool fromSegment = inSegment && size > 0 && reader != LegacyReader::R0_1;
  // A constant the file keeps in the segment, read from constant_buffer,
  // is another's bytes.
  meant &= fromSegment == inSegment;
  if (fromSegment) {
    if (index >= segment->offsets.size())
      return {ReleaseVerdict::Rejects,
              "load_method: InvalidArgument, its data index is past the "
              "constant segment's offsets"};
    uint64_t offset = segment->offsets[index];
    if (offset > size || bytes > size - offset)
      return {ReleaseVerdict::Rejects,
              "load_method: InvalidArgument, its data index's offset plus "
              "its bytes run past the constant segment"};
    return meant ? LegacyRead() : kReadsOtherBytes;
  }
  if (!stores.hasConstantBuffer)
    return {ReleaseVerdict::Crashes,
            "takes its data index for a constant's and dereferences the "
            "missing constant_buffer (SIGSEGV)"};
  if (index >= stores.constantBuffer.size())
    return {ReleaseVerdict::Rejects,
            "load_method: InvalidArgument, its data index is past "
            "constant_buffer"};
  std::optional<uint64_t> stored = stores.constantBuffer[index];
  if (reader != LegacyReader::R0_1 && stored && *stored > bytes)
    return {ReleaseVerdict::Rejects,
            "load_method: InvalidArgument, the constant_buffer entry at its "
            "data index is larger than the tensor"};
  return meant ? LegacyRead() : kReadsOtherBytes;
}

LegacyRead LegacyTensorReads::readMutable(uint32_t index,
                                          uint64_t bytes) const {
  // Program::load_mutable_subsegment_into(0, index, bytes) at v0.4.0.
  if (stores.mutableSegments.empty())
    return {ReleaseVerdict::Rejects,
            "load_method: NotFound, the program has no mutable data "
            "segments to read the planned tensor's data from"};
  const SubsegmentModel &first = stores.mutableSegments.front();
  if (index >= first.offsets.size())
    return {ReleaseVerdict::Rejects,
            "load_method: NotFound, its data index is past the first mutable "
            "data segment's offsets"};
  if (!first.segmentBytes)
    return {ReleaseVerdict::Rejects,
            "load_method: NotFound, the first mutable data segment's index "
            "is past the segments"};
  uint64_t size = *first.segmentBytes;
  uint64_t offset = first.offsets[index];
  if (offset > size || bytes > size - offset)
    return {ReleaseVerdict::Rejects,
            "load_method: InvalidArgument, its offset plus its bytes run "
            "past the first mutable data segment"};
  return {};
}

namespace {
/// The tensors a finder accepts, grouped by what the releases before
/// `until` do with their data.
class LegacyReadScan {
public:
  LegacyReadScan(const ConstantStoresModel &stores, Release until)
      : reads(stores), until(until) {}
  void visit(const MethodModel &method, uint32_t value,
             const TensorModel &tensor);
  /// One use per outcome, naming its first tensor and how many share it.
  void finish(const char *what, std::vector<FeatureUse> &uses);

private:
  struct Outcome {
    std::vector<UseEffect> effects;
    std::string where;
    unsigned count = 0;
  };
  LegacyTensorReads reads;
  Release until;
  // Outcomes in the order of their first tensor, by what they are.
  std::vector<Outcome> outcomes;
  std::map<std::vector<std::pair<ReleaseVerdict, const char *>>, size_t>
      outcomeOf;
};
} // namespace

void LegacyReadScan::visit(const MethodModel &method, uint32_t value,
                           const TensorModel &tensor) {
  std::vector<std::pair<ReleaseVerdict, const char *>> key;
  std::vector<UseEffect> effects;
  for (auto [reader, range] : kLegacyReaders) {
    if (range.first >= until)
      break;
    LegacyRead read = reads.read(reader, tensor);
    key.push_back({read.verdict, read.effect});
    if (read.effect)
      effects.push_back({range.first, std::min(range.second, until),
                         read.verdict, read.effect});
  }
  if (effects.empty())
    return;
  auto [at, added] = outcomeOf.try_emplace(key, outcomes.size());
  if (added)
    outcomes.emplace_back();
  Outcome &outcome = outcomes[at->second];
  if (outcome.count++ == 0) {
    outcome.effects = std::move(effects);
    outcome.where =
        methodPath(method) + ".values[" + std::to_string(value) + "]";
  }
}

void LegacyReadScan::finish(const char *what, std::vector<FeatureUse> &uses) {
  for (Outcome &outcome : outcomes)
    uses.push_back({outcome.where,
                    (Twine(what) + " (" + Twine(outcome.count) +
                     (outcome.count == 1 ? " tensor)" : " tensors)"))
                        .str(),
                    0, std::move(outcome.effects)});
}

/// The tensors `matches` accepts, by what the releases before `until` do
/// with their data, as uses with effects of their own, counted in the
/// judgement's one walk over the tensors.
template <typename Match>
static void findLegacyReads(const ReleaseInput &input, Release until,
                            const char *what, Match matches,
                            std::vector<FeatureUse> &uses) {
  auto scan =
      std::make_shared<LegacyReadScan>(input.model.getConstantStores(), until);
  input.tensors.add(
      [scan, matches](const MethodModel &method, uint32_t value,
                      const TensorModel &tensor) {
        if (matches(tensor))
          scan->visit(method, value, tensor);
      },
      [scan, what, &uses] { scan->finish(what, uses); });
}

//===----------------------------------------------------------------------===//
// Prim ops: registered by the runtime itself, by release
// (kernels/prim_ops/register_prim_ops.cpp, in the kernel libraries' table)
//===----------------------------------------------------------------------===//

/// Operators that are prim ops a release before 0.1 lacks, each once with
/// the first release that registers it.
static void findPrimOps(const ReleaseInput &input,
                        std::vector<FeatureUse> &uses) {
  llvm::StringMap<bool> seen;
  for (const MethodModel &method : input.model.getMethods())
    for (auto [index, op] : llvm::enumerate(method.getOperators())) {
      StringRef name = op.qualifiedName;
      std::optional<unsigned> first = kernels::getFirstPrimRelease(name);
      if (!first || *first == R0_1 || !seen.try_emplace(name, true).second)
        continue;
      uses.push_back(
          {methodPath(method) + ".operators[" + std::to_string(index) + "]",
           ("prim op " + name).str(), *first});
    }
}

//===----------------------------------------------------------------------===//
// Finders, one per row
//===----------------------------------------------------------------------===//

static void findHalf(const ReleaseInput &input, std::vector<FeatureUse> &uses) {
  findScalarTypes(input, {5}, "Half tensors", uses);
}
static void findBFloat16(const ReleaseInput &input,
                         std::vector<FeatureUse> &uses) {
  findScalarTypes(input, {15}, "BFloat16 tensors", uses);
}
static void findComplex(const ReleaseInput &input,
                        std::vector<FeatureUse> &uses) {
  findScalarTypes(input, {8, 9, 10}, "complex tensors", uses);
}
static void findUnsigned(const ReleaseInput &input,
                         std::vector<FeatureUse> &uses) {
  findScalarTypes(input, {27, 28, 29}, "UInt16, UInt32 or UInt64 tensors",
                  uses);
}

static bool isExternalConstant(const TensorModel &tensor) {
  return tensor.external && !tensor.planned;
}
static bool isExternalPlanned(const TensorModel &tensor) {
  return tensor.external && tensor.planned;
}

static void findSegmentConstants(const ReleaseInput &input,
                                 std::vector<FeatureUse> &uses) {
  if (!input.model.readsConstantSegment())
    return;
  findLegacyReads(
      input, R0_2, "constants in the constant segment",
      [](const TensorModel &tensor) {
        return tensor.dataIndex > 0 && !tensor.planned && !tensor.external;
      },
      uses);
}

static void findInitialStates(const ReleaseInput &input,
                              std::vector<FeatureUse> &uses) {
  findLegacyReads(
      input, R0_4, "memory-planned tensors with an initial state",
      [](const TensorModel &tensor) {
        return tensor.isMutableBuffer() && !tensor.external;
      },
      uses);
}

static void findExternalConstants(const ReleaseInput &input,
                                  std::vector<FeatureUse> &uses) {
  findLegacyReads(input, R0_6, "external constants", isExternalConstant, uses);
}
static void findExternalPlanned(const ReleaseInput &input,
                                std::vector<FeatureUse> &uses) {
  findLegacyReads(input, R0_6, "planned tensors with external data",
                  isExternalPlanned, uses);
}

static bool isExternal(const TensorModel &tensor) { return tensor.external; }

static void findExternalPlannedWithoutData(const ReleaseInput &input,
                                           std::vector<FeatureUse> &uses) {
  if (input.dataFiles.total() == 0)
    findTensors(input, "planned tensors with external data, no data file",
                isExternalPlanned, uses);
}
/// A constant segment of the reserved entry alone whose index names no
/// segment: 0.4 on never read it, 0.2 and 0.3 load it.
static void findUnloadableEmptySegment(const ReleaseInput &input,
                                       std::vector<FeatureUse> &uses) {
  const std::optional<SubsegmentModel> &segment =
      input.model.getConstantStores().constantSegment;
  if (!segment || segment->offsets.size() != 1)
    return;
  if (!segment->segmentBytes)
    uses.push_back({"constant_segment.segment_index",
                    "an empty constant segment whose index names no "
                    "segment"});
}

static void findExternalWithoutData(const ReleaseInput &input,
                                    std::vector<FeatureUse> &uses) {
  if (input.dataFiles.total() == 0)
    findTensors(input, "external constants, no data file", isExternalConstant,
                uses);
}
static void findExternalInCurrentLayout(const ReleaseInput &input,
                                        std::vector<FeatureUse> &uses) {
  if (input.dataFiles.current > 0)
    findTensors(input, "external tensors from a .ptd in the 0.7 layout",
                isExternal, uses);
}
static void findExternalIn0_6Layout(const ReleaseInput &input,
                                    std::vector<FeatureUse> &uses) {
  if (input.dataFiles.layout0_6 > 0)
    findTensors(input, "external tensors from a .ptd in the 0.6 layout",
                isExternal, uses);
}

static void findNamedDataTableWithData(const ReleaseInput &input,
                                       std::vector<FeatureUse> &uses) {
  // Present counts, even empty: 0.7 makes the program's data map then.
  std::optional<size_t> keys = input.model.getNamedDataKeyCount();
  if (input.dataFiles.total() > 0 && keys)
    uses.push_back({"named_data", "a named_data table (" +
                                      std::to_string(*keys) +
                                      " keys) beside a data file"});
}

static void findBackendDataInDataFile(const ReleaseInput &input,
                                      std::vector<FeatureUse> &uses) {
  if (input.dataFiles.backendKeys == 0)
    return;
  for (const MethodModel &method : input.model.getMethods())
    if (!method.getDelegates().empty())
      return uses.push_back(
          {"--data", std::to_string(input.dataFiles.backendKeys) +
                         " keys without a tensor layout, for the program's "
                         "delegates (" +
                         methodPath(method) + " has delegate entries)"});
}

// A program's data files before 0.6 are the external constants' concern;
// the row is met by a data file on its own (judgeDataFileReleases).
static void findNoUse(const ReleaseInput &, std::vector<FeatureUse> &) {}

static void findSeveralDataFiles(const ReleaseInput &input,
                                 std::vector<FeatureUse> &uses) {
  if (unsigned count = input.dataFiles.total(); count > 1)
    uses.push_back({"--data", std::to_string(count) + " data files"});
}

static void findEntriesWithoutSpecs(const ReleaseInput &input,
                                    std::vector<FeatureUse> &uses) {
  for (const MethodModel &method : input.model.getMethods())
    for (auto [index, entry] : llvm::enumerate(method.getDelegates()))
      if (!entry.hasCompileSpecs)
        return uses.push_back(
            {methodPath(method) + ".delegates[" + std::to_string(index) + "]",
             "a delegate entry without compile_specs"});
}

static void findConstantBufferPath(const ReleaseInput &input,
                                   std::vector<FeatureUse> &uses) {
  if (!input.model.readsConstantSegment())
    uses.push_back(
        {"constant_segment", input.model.getConstantStores().constantSegment
                                 ? "a constant segment without offsets"
                                 : "no constant segment"});
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

static constexpr ReleaseFeature kFeatures[] = {
    {"scalar-type-half",
     "v0.1.0 runtime/core/exec_aten/util/scalar_type_util.h "
     "(sizeof_scalar_type)",
     {{R0_1, R0_2, ReleaseVerdict::Crashes,
       "sizeof_scalar_type aborts the process on Half (ET_CHECK)"}},
     findHalf,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"scalar-type-bfloat16",
     "v0.1.0 runtime/core/exec_aten/util/scalar_type_util.h; v0.2.1 "
     "runtime/executor/tensor_parser_portable.cpp",
     {{R0_1, R0_2, ReleaseVerdict::Crashes,
       "sizeof_scalar_type aborts the process on BFloat16 (ET_CHECK)"},
      {R0_2, R0_3, ReleaseVerdict::Rejects,
       "load_method: InvalidProgram, BFloat16 has no deserialization "
       "support"}},
     findBFloat16,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"scalar-type-complex",
     "v0.1.0 runtime/core/exec_aten/util/scalar_type_util.h; v0.5.0 "
     "runtime/executor/tensor_parser_portable.cpp",
     {{R0_1, R0_2, ReleaseVerdict::Crashes,
       "sizeof_scalar_type aborts the process on complex types (ET_CHECK)"},
      {R0_2, R0_6, ReleaseVerdict::Rejects,
       "load_method: InvalidProgram, complex types have no "
       "deserialization support"}},
     findComplex,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"scalar-type-uint",
     "v0.4.0 runtime/core/portable_type/scalar_type.h (22 types); v0.5.0 "
     "adds UInt16, UInt32, UInt64",
     {{R0_1, R0_2, ReleaseVerdict::Crashes,
       "sizeof_scalar_type aborts the process: an invalid ScalarType"},
      {R0_2, R0_5, ReleaseVerdict::Rejects,
       "load_method: InvalidProgram, invalid or unsupported ScalarType"}},
     findUnsigned,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"prim-op",
     "kernels/prim_ops/register_prim_ops.cpp at each release",
     {{R0_1, kUseFirstRelease, ReleaseVerdict::Rejects,
       "load_method: OperatorMissing, the runtime registers no such prim "
       "op (unless the application registers a kernel under its name)"}},
     findPrimOps,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Operators},
    // Tensor data before 0.6: each use's effects are what each release's
    // reading of it by its data index does (findLegacyReads).
    {"constant-segment",
     "v0.1.0 runtime/executor/program.cpp (get_constant_buffer_data reads "
     "only constant_buffer)",
     {},
     findSegmentConstants,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-constants-to-buffer",
     /*stage=*/LoadStage::Values},
    {"empty-constant-segment",
     "v0.3.0 runtime/executor/program.cpp (Program::load loads the constant "
     "segment whenever it has offsets); v0.4.0 skips one of the reserved "
     "entry alone",
     {{R0_2, R0_4, ReleaseVerdict::Rejects,
       "Program::load: InvalidProgram, it loads the empty constant segment "
       "and finds no segment at its index"}},
     findUnloadableEmptySegment,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Program},
    {"mutable-initial-state",
     "v0.3.0 runtime/executor/tensor_parser_exec_aten.cpp "
     "(getTensorDataPtr) and program.cpp (get_constant_buffer_data); "
     "v0.4.0 loads mutable_data_segments",
     {},
     findInitialStates,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"external-constants",
     "v0.5.0 runtime/executor/tensor_parser_exec_aten.cpp (no EXTERNAL "
     "branch: the data index decides) and program.cpp "
     "(get_constant_buffer_data); v0.6.0 resolves them from the "
     "NamedDataMap",
     {},
     findExternalConstants,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-internalize-data",
     /*stage=*/LoadStage::Values},
    {"external-planned-data",
     "v0.5.0 runtime/executor/tensor_parser_exec_aten.cpp (no EXTERNAL "
     "branch: the data index decides) and program.cpp "
     "(load_mutable_subsegment_into); v0.6.0 loads them from the "
     "NamedDataMap into their planned memory",
     {},
     findExternalPlanned,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"external-data-missing",
     "v0.6.0 runtime/executor/method.cpp (parse_external_constants "
     "dereferences the data map); v0.7.0 and later refuse a null one",
     {{R0_6, R0_7, ReleaseVerdict::Crashes,
       "dereferences the missing data map (SIGSEGV)"},
      {R0_7, RCount, ReleaseVerdict::Rejects,
       "load_method: InvalidState, no data map holds the external "
       "constants"}},
     findExternalWithoutData,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"external-planned-data-missing",
     "v0.7.0 runtime/executor/tensor_parser_exec_aten.cpp "
     "(getTensorDataPtr dereferences the data map for a planned external "
     "tensor); v1.0.0 refuses a null one",
     {{R0_6, R1_0, ReleaseVerdict::Crashes,
       "dereferences the missing data map (SIGSEGV)"},
      {R1_0, RCount, ReleaseVerdict::Rejects,
       "load_method: InvalidExternalData, no data map holds the planned "
       "tensors' data"}},
     findExternalPlannedWithoutData,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"ptd-layout",
     "v0.6.0 extension/flat_tensor/flat_tensor_data_map.cpp (the 0.6 "
     "layout); v0.7.0 extension/flat_tensor/serialize/flat_tensor.fbs",
     {{R0_6, R0_7, ReleaseVerdict::Crashes,
       "reads the data file in the 0.6 layout: a file in the 0.7 layout "
       "(as emit and 0.7 and later write them) is misread and crashes it "
       "(emit-translate --pte-to-pte --target-runtime=0.6 converts the "
       ".ptd)"}},
     findExternalInCurrentLayout,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-internalize-data",
     /*stage=*/LoadStage::Program},
    {"ptd-0.6-layout",
     "v0.7.0 extension/flat_tensor/flat_tensor_data_map.cpp (reads the 0.7 "
     "schema under 0.6's identifier and version, unverified)",
     {{R0_1, R0_6, ReleaseVerdict::Misreads,
       "reads no data file (0.6 introduced them)"},
      {R0_7, RCount, ReleaseVerdict::Rejects,
       "reads the data file in the 0.6 layout with the 0.7 schema: a key's "
       "segment index comes from its tensor's scalar type and the segment "
       "table from tensor_alignment, so load_method refuses it "
       "(InvalidExternalData, segment index out of bounds) or, for other "
       "bytes, reads wrong data (emit-translate --pte-to-pte "
       "--target-runtime=0.7 converts the .ptd)"}},
     findExternalIn0_6Layout,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-internalize-data",
     /*stage=*/LoadStage::Values},
    {"named-data-and-data-file",
     "v0.7.0 runtime/executor/program.cpp (a PteDataMap whenever "
     "named_data is present) and method.cpp (refuses it beside a data map); "
     "v1.0.0 merges them",
     {{R0_7, R1_0, ReleaseVerdict::Rejects,
       "load_method: NotSupported, 'NamedDataMap merge not supported' when "
       "the program has a named_data table (even an empty one, as 1.x "
       "serializers write) and a data file is given"}},
     findNamedDataTableWithData,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-internalize-data",
     /*stage=*/LoadStage::Delegates},
    {"data-file-reader",
     "v0.5.0 extension/ (no flat_tensor); v0.6.0 "
     "extension/flat_tensor/flat_tensor_data_map.cpp",
     {{R0_1, R0_6, ReleaseVerdict::Rejects,
       "has no data file reader: FlatTensorDataMap came in 0.6"}},
     findNoUse,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Program},
    {"backend-data-in-data-file",
     "v0.6.0 runtime/executor/method.cpp (BackendInitContext gets the "
     "program's named data map only); v0.7.0 passes the data file's",
     {{R0_6, R0_7, ReleaseVerdict::Rejects,
       "gives backends the program's named data only: a delegate whose data "
       "is in the data file does not find it and its init fails"}},
     findBackendDataInDataFile,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-internalize-data",
     /*stage=*/LoadStage::Delegates},
    {"several-data-files",
     "v0.7.0 runtime/executor/method.h (load_method takes one "
     "NamedDataMap); v1.0.0 extension/named_data_map/merged_data_map.h",
     {{R0_6, R1_0, ReleaseVerdict::Rejects,
       "takes one data map: no MergedDataMap to load several data files "
       "together"}},
     findSeveralDataFiles,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-internalize-data",
     /*stage=*/LoadStage::Program},
    {"device-placement",
     "v1.3.0 schema/program.fbs (non_const_buffer_device, "
     "ExtraTensorInfo.device_type) and runtime/executor/method.cpp",
     {{R0_1, R1_3, ReleaseVerdict::Misreads,
       "ignores the placement: plans the buffer in host memory"}},
     findDevicePlacement,
     /*dependsOnBuild=*/false,
     /*rewrite=*/nullptr,
     /*stage=*/LoadStage::Values},
    {"delegate-without-compile-specs",
     "v1.2.0 runtime/executor/method.cpp (BackendDelegate::Init reads "
     "compile_specs()->size() unchecked); v1.3.0 checks for none",
     {{R0_1, R1_3, ReleaseVerdict::Crashes,
       "load_method dereferences the entry's missing compile_specs "
       "(SIGSEGV)"}},
     findEntriesWithoutSpecs,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-explicit-compile-specs",
     /*stage=*/LoadStage::Delegates},
    {"constant-buffer-padded",
     "v0.2.1 to v1.1.0 runtime/executor/program.cpp "
     "(get_constant_buffer_data: storage no larger than the tensor); "
     "v1.2.0 turns the check round (storage at least the tensor)",
     {{R0_2, R1_2, ReleaseVerdict::Rejects,
       "load_method: InvalidArgument, a constant_buffer entry larger than "
       "its tensor (0.1 and 1.2 on take it)"}},
     findPaddedConstants,
     /*dependsOnBuild=*/false,
     /*rewrite=*/"et-constants-to-segment",
     /*stage=*/LoadStage::Values},
    {"constant-buffer",
     "v1.3.0 runtime/executor/program.cpp and CMakeLists.txt "
     "(ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0)",
     {{R1_3, RCount, ReleaseVerdict::Rejects,
       "Program::load: InvalidProgram, the program relies on the "
       "constant_buffer path, which CMake and pip builds disable"}},
     findConstantBufferPath,
     /*dependsOnBuild=*/true,
     /*rewrite=*/"et-constants-to-segment",
     /*stage=*/LoadStage::Program},
};

ArrayRef<ReleaseFeature> emit::getReleaseFeatures() { return kFeatures; }
