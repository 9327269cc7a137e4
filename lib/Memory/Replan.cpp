//===- Replan.cpp - A new memory plan for a shipped program ---------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/Replan.h"

#include "Packing.h"
#include "PlanCheck.h"

#include "emit/DelegateCalls/DelegateCalls.h"
#include "emit/File/DataFlow.h"
#include "emit/File/ProgramModel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <numeric>
#include <set>

using namespace emit;
using namespace emit::memory;

/// The most pairs of live tensors compared while finding the units: far
/// more than a plan ExecuTorch made needs.
static constexpr uint64_t kMaxUnitComparisons = uint64_t(1) << 28;

LogicalResult memory::parseFastMemory(StringRef text, ReplanOptions &options,
                                      std::string &error) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  uint64_t bytes = 0;
  if (parts.front().trim().getAsInteger(0, bytes)) {
    error = ("'" + text +
             "': expected BYTES[,id=N][,order=accesses|peak], with BYTES a "
             "number")
                .str();
    return failure();
  }
  options.fastMemoryBytes = bytes;
  for (StringRef part : llvm::drop_begin(parts)) {
    auto [key, value] = part.trim().split('=');
    uint32_t id = 0;
    if (key == "id" && !value.getAsInteger(0, id) && id > 0) {
      options.fastMemoryId = id;
    } else if (key == "order" && value == "accesses") {
      options.fastMemoryOrder = FastMemoryOrder::AccessesPerByte;
    } else if (key == "order" && value == "peak") {
      options.fastMemoryOrder = FastMemoryOrder::PeakLive;
    } else {
      error = ("'" + text + "': unknown part '" + part +
               "' (expected id=N with N at least 1, or order=accesses or "
               "order=peak)")
                  .str();
      return failure();
    }
  }
  return success();
}

bool MethodPlan::isUnchanged() const {
  return placements.empty() && llvm::all_of(pools, [](const PoolPlan &pool) {
           return !pool.fast && pool.bytesAfter == pool.bytesBefore;
         });
}

uint64_t MethodPlan::getBytesBefore() const {
  uint64_t bytes = 0;
  for (const PoolPlan &pool : pools)
    bytes += pool.bytesBefore;
  return bytes;
}

uint64_t MethodPlan::getBytesAfter() const {
  uint64_t bytes = 0;
  for (const PoolPlan &pool : pools)
    bytes += pool.bytesAfter;
  return bytes;
}

uint64_t MethodPlan::getLowerBound() const {
  uint64_t bytes = 0;
  for (const PoolPlan &pool : pools)
    bytes += pool.lowerBound;
  return bytes;
}

namespace {
/// Per (mutable buffer name, memory id), the methods that plan it: state
/// the program's methods share (ExecuTorch's share_mutable_buffers) stays
/// where every method expects it.
class SharedState {
public:
  explicit SharedState(const ProgramModel &model) {
    for (const MethodModel &method : model.getMethods())
      for (uint32_t value : method.getMutableBuffers())
        if (std::optional<TensorModel> tensor = method.getTensor(value))
          if (!tensor->getName().empty())
            methods[getKey(*tensor)].insert(method.getName());
  }
  /// Another method than `method` that plans `tensor` (a mutable buffer)
  /// in the same buffer; empty when none does.
  StringRef getSharer(const MethodModel &method,
                      const TensorModel &tensor) const {
    auto it = methods.find(getKey(tensor));
    if (it == methods.end())
      return "";
    for (const auto &other : it->second)
      if (other.getKey() != method.getName())
        return other.getKey();
    return "";
  }

private:
  static std::string getKey(const TensorModel &tensor) {
    return (tensor.getName() + "#" + Twine(tensor.memoryId)).str();
  }
  llvm::StringMap<llvm::StringSet<>> methods;
};

/// Re-plans one method.
class MethodReplanner {
public:
  MethodReplanner(const MethodModel &model, const MethodDataFlow &uses,
                  const ReplanOptions &options, const SharedState &shared)
      : model(model), uses(uses), options(options), shared(shared) {}
  LogicalResult run(MethodPlan &plan, std::string &error);

private:
  /// Why the method cannot be re-planned; empty when it can.
  std::string findReasonToKeep() const;
  /// Groups the tensors that share bytes while live (or read each other's
  /// bytes: an elided view and its base) into units.
  bool formUnits();
  /// Joins the tensors of a buffer that share bytes while both are live;
  /// false past the comparison budget.
  bool joinLiveSharers();
  /// One unit per class of joined tensors.
  void buildUnits();
  uint32_t findRoot(uint32_t tensor);
  void join(uint32_t a, uint32_t b);
  void keepSharedPools();
  /// Picks the fast pool's units and packs them.
  void placeFastUnits(uint32_t fastId);
  /// The units in the order fast memory takes them.
  std::vector<uint32_t> getFastCandidates();
  void countTraffic();
  /// Re-plans pool `memoryId`, which keeps the units of `subset` not taken
  /// by the fast pool.
  void planPool(uint32_t memoryId, ArrayRef<uint32_t> subset);
  void collectPlacements();
  /// Keeps the method's plan as a whole, saying why.
  void keepMethod(std::string reason);
  /// The fast pool's memory id, if one is asked for; fails for one the
  /// method already plans.
  FailureOr<std::optional<uint32_t>> getFastId(std::string &error) const;
  /// Counts each pool's tensors, puts the fast pool last and sets the new
  /// buffer sizes.
  void finishPools(std::optional<uint32_t> fastId);

  const MethodModel &model;
  const MethodDataFlow &uses;
  const ReplanOptions &options;
  const SharedState &shared;
  MethodPlan *plan = nullptr;
  std::vector<PlannedTensor> tensors;
  std::vector<int32_t> tensorOf;
  std::vector<uint32_t> parent;
  /// Per tensor its unit; per unit its place now.
  std::vector<uint32_t> unitOf;
  std::vector<Unit> units;
  std::vector<uint32_t> newMemoryId;
  std::vector<uint64_t> newOffset;
  /// Per unit, the instructions that read or write one of its tensors.
  std::vector<uint64_t> accesses;
  /// Per unit, the bytes instructions read and write of it.
  std::vector<uint64_t> traffic;
  /// Per pool (memory id), whether it keeps its plan, and why.
  std::vector<std::string> keptBecause;
};
} // namespace

std::string MethodReplanner::findReasonToKeep() const {
  ArrayRef<int64_t> sizes = model.getBufferSizes();
  if (tensors.size() != model.getPlannedTensorCount())
    return "a planned tensor's size is unknown (its scalar type is not one "
           "emit knows, or its byte count overflows)";
  for (const PlannedTensor &tensor : tensors) {
    if (tensor.memoryId == 0 || tensor.memoryId >= sizes.size() ||
        sizes[tensor.memoryId] < 0 ||
        tensor.offset > uint64_t(sizes[tensor.memoryId]) ||
        tensor.bytes > uint64_t(sizes[tensor.memoryId]) - tensor.offset)
      return ("value " + Twine(tensor.value) +
              " lies outside its planned buffer: the file's plan is invalid "
              "(emit-verify says where)")
          .str();
  }
  return "";
}

uint32_t MethodReplanner::findRoot(uint32_t tensor) {
  while (parent[tensor] != tensor)
    tensor = parent[tensor] = parent[parent[tensor]];
  return tensor;
}

void MethodReplanner::join(uint32_t a, uint32_t b) {
  parent[findRoot(a)] = findRoot(b);
}

bool MethodReplanner::formUnits() {
  parent.resize(tensors.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    int32_t base = uses.viewOf[tensor.value];
    if (base != MethodDataFlow::kNoView && tensorOf[base] >= 0)
      join(index, tensorOf[base]);
  }
  if (!joinLiveSharers())
    return false;
  buildUnits();
  return true;
}

bool MethodReplanner::joinLiveSharers() {
  // A sweep over the instructions: each tensor, where it starts, against
  // the live tensors of its buffer whose bytes it shares.
  SmallVector<uint32_t> byFirst, byLast;
  size_t pools = model.getBufferSizes().size();
  std::vector<uint64_t> largest(pools, 0);
  for (auto [index, tensor] : llvm::enumerate(tensors))
    if (tensor.lifetime && tensor.bytes) {
      byFirst.push_back(index);
      byLast.push_back(index);
      largest[tensor.memoryId] =
          std::max(largest[tensor.memoryId], tensor.bytes);
    }
  llvm::stable_sort(byFirst, [&](uint32_t a, uint32_t b) {
    return tensors[a].lifetime->first < tensors[b].lifetime->first;
  });
  llvm::stable_sort(byLast, [&](uint32_t a, uint32_t b) {
    return tensors[a].lifetime->last < tensors[b].lifetime->last;
  });
  std::vector<std::set<std::pair<uint64_t, uint32_t>>> live(pools);
  uint64_t comparisons = 0;
  size_t started = 0, ended = 0;
  while (started < byFirst.size()) {
    uint32_t step = tensors[byFirst[started]].lifetime->first;
    for (;
         ended < byLast.size() && tensors[byLast[ended]].lifetime->last < step;
         ++ended) {
      const PlannedTensor &done = tensors[byLast[ended]];
      live[done.memoryId].erase({done.offset, byLast[ended]});
    }
    for (; started < byFirst.size() &&
           tensors[byFirst[started]].lifetime->first == step;
         ++started) {
      uint32_t index = byFirst[started];
      const PlannedTensor &tensor = tensors[index];
      auto &pool = live[tensor.memoryId];
      uint64_t end = tensor.offset + tensor.bytes;
      auto it =
          tensor.offset < largest[tensor.memoryId]
              ? pool.begin()
              : pool.upper_bound(
                    {tensor.offset - largest[tensor.memoryId], UINT32_MAX});
      for (; it != pool.end() && it->first < end; ++it) {
        if (++comparisons > kMaxUnitComparisons)
          return false;
        if (it->first + tensors[it->second].bytes > tensor.offset)
          join(index, it->second);
      }
      pool.insert({tensor.offset, index});
    }
  }
  return true;
}

void MethodReplanner::buildUnits() {
  // One unit per class, spanning its tensors' bytes and lifetimes.
  SmallVector<int32_t> unitOfRoot(tensors.size(), -1);
  unitOf.resize(tensors.size());
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    uint32_t root = findRoot(index);
    if (unitOfRoot[root] < 0) {
      unitOfRoot[root] = units.size();
      Unit unit;
      unit.memoryId = tensor.memoryId;
      unit.base = tensor.offset;
      unit.first = UINT32_MAX;
      units.push_back(unit);
    }
    Unit &unit = units[unitOfRoot[root]];
    unitOf[index] = unitOfRoot[root];
    uint64_t end =
        std::max(unit.base + unit.bytes, tensor.offset + tensor.bytes);
    unit.base = std::min(unit.base, tensor.offset);
    unit.bytes = end - unit.base;
    if (tensor.lifetime) {
      unit.live = true;
      unit.first = std::min(unit.first, tensor.lifetime->first);
      unit.last = std::max(unit.last, tensor.lifetime->last);
    }
  }
  for (Unit &unit : units)
    if (!unit.live)
      unit.first = unit.last = 0;
}

void MethodReplanner::keepSharedPools() {
  for (uint32_t value : model.getMutableBuffers()) {
    std::optional<TensorModel> tensor = model.getTensor(value);
    if (!tensor || !tensor->planned || tensor->memoryId >= keptBecause.size() ||
        !keptBecause[tensor->memoryId].empty())
      continue;
    StringRef sharer = shared.getSharer(model, *tensor);
    if (!sharer.empty())
      keptBecause[tensor->memoryId] =
          ("it holds mutable buffer '" + tensor->getName() +
           "', which method '" + sharer + "' plans in the same buffer")
              .str();
  }
}

void MethodReplanner::countTraffic() {
  accesses.assign(units.size(), 0);
  traffic.assign(units.size(), 0);
  auto access = [&](uint32_t value) {
    int32_t tensor = tensorOf[value];
    if (tensor < 0)
      return;
    ++accesses[unitOf[tensor]];
    traffic[unitOf[tensor]] += tensors[tensor].bytes;
    plan->trafficBytes += tensors[tensor].bytes;
  };
  for (uint32_t instruction = 0; instruction < uses.instructionCount;
       ++instruction) {
    for (uint32_t value : uses.getWrites(instruction))
      access(value);
    for (uint32_t value : uses.getReads(instruction)) {
      access(value);
      ValueKind kind = model.getValueKind(value);
      if (kind == ValueKind::TensorList ||
          kind == ValueKind::OptionalTensorList)
        for (int32_t item : model.getValue(value).getItems())
          if (item >= 0 && static_cast<uint32_t>(item) < tensorOf.size())
            access(item);
    }
  }
}

std::vector<uint32_t> MethodReplanner::getFastCandidates() {
  std::vector<uint32_t> candidates;
  for (auto [index, unit] : llvm::enumerate(units))
    if (unit.live && unit.bytes && keptBecause[unit.memoryId].empty())
      candidates.push_back(index);
  if (options.fastMemoryOrder == FastMemoryOrder::AccessesPerByte) {
    // a / x > b / y as a * y > b * x, in 128 bits.
    llvm::stable_sort(candidates, [&](uint32_t a, uint32_t b) {
      return static_cast<unsigned __int128>(accesses[a]) * units[b].bytes >
             static_cast<unsigned __int128>(accesses[b]) * units[a].bytes;
    });
    return candidates;
  }
  uint32_t peakAt = 0;
  std::vector<uint32_t> all(units.size());
  std::iota(all.begin(), all.end(), 0);
  getPeakLiveBytes(units, all, uses.instructionCount, &peakAt);
  llvm::erase_if(candidates, [&](uint32_t unit) {
    return units[unit].first > peakAt || units[unit].last < peakAt;
  });
  llvm::stable_sort(candidates, [&](uint32_t a, uint32_t b) {
    return units[a].bytes > units[b].bytes;
  });
  return candidates;
}

void MethodReplanner::placeFastUnits(uint32_t fastId) {
  countTraffic();
  uint64_t limit = *options.fastMemoryBytes;
  Packer packer(units, uses.instructionCount, options.alignment);
  std::vector<uint32_t> chosen;
  for (uint32_t unit : getFastCandidates()) {
    if (units[unit].bytes > limit)
      continue;
    if (!packer.place(unit, Fit::Best))
      break;
    if (packer.getSize() > limit) {
      packer.removeLast();
      continue;
    }
    chosen.push_back(unit);
  }
  llvm::sort(chosen);
  PoolPlan pool;
  pool.memoryId = fastId;
  pool.fast = true;
  pool.units = chosen.size();
  pool.lowerBound = getPeakLiveBytes(units, chosen, uses.instructionCount);
  pool.algorithm = "fast";
  pool.bytesAfter = packer.getSize();
  std::vector<uint64_t> offsets;
  for (uint32_t unit : chosen)
    offsets.push_back(packer.getOffset(unit));
  // The order the units were taken in packs them; another may pack better.
  std::optional<Packing> packing =
      packUnits(units, chosen, uses.instructionCount, options.alignment,
                options.exhaustiveUnits);
  if (!isSoundPacking(units, chosen, offsets)) {
    // Never taken: the incremental packing is checked as every other is.
    chosen.clear();
    offsets.clear();
    pool.units = 0;
    pool.bytesAfter = 0;
    pool.algorithm = "fast (none: packing unsound)";
  }
  if (packing && packing->size < pool.bytesAfter) {
    offsets = packing->offsets;
    pool.bytesAfter = packing->size;
    pool.algorithm = "fast, " + packing->algorithm;
  }
  for (auto [unit, offset] : llvm::zip_equal(chosen, offsets)) {
    newMemoryId[unit] = fastId;
    newOffset[unit] = offset;
    plan->fastTrafficBytes += traffic[unit];
  }
  plan->pools.push_back(std::move(pool));
}

void MethodReplanner::planPool(uint32_t memoryId, ArrayRef<uint32_t> subset) {
  PoolPlan pool;
  pool.memoryId = memoryId;
  pool.bytesBefore = model.getBufferSizes()[memoryId];
  pool.units = subset.size();
  pool.lowerBound = getPeakLiveBytes(units, subset, uses.instructionCount);
  if (!keptBecause[memoryId].empty()) {
    pool.algorithm = "kept";
    pool.keptBecause = keptBecause[memoryId];
    pool.bytesAfter = pool.bytesBefore;
    plan->pools.push_back(std::move(pool));
    return;
  }
  // The file's own plan of what stays, ending at its last byte.
  uint64_t fileBytes = 0;
  for (uint32_t unit : subset)
    fileBytes = std::max(fileBytes, units[unit].base + units[unit].bytes);
  std::optional<Packing> packing =
      packUnits(units, subset, uses.instructionCount, options.alignment,
                options.exhaustiveUnits);
  if (packing && packing->size < fileBytes) {
    pool.algorithm = packing->algorithm;
    pool.bytesAfter = packing->size;
    for (auto [unit, offset] : llvm::zip_equal(subset, packing->offsets))
      newOffset[unit] = offset;
  } else {
    pool.algorithm = packing ? "file" : "file (out of comparisons)";
    pool.bytesAfter = fileBytes;
  }
  plan->pools.push_back(std::move(pool));
}

void MethodReplanner::collectPlacements() {
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    uint32_t unit = unitOf[index];
    uint32_t memoryId = newMemoryId[unit];
    uint64_t offset = newOffset[unit] + (tensor.offset - units[unit].base);
    if (memoryId == tensor.memoryId && offset == tensor.offset)
      continue;
    plan->placements.push_back({tensor.value, memoryId, offset});
  }
}

void MethodReplanner::keepMethod(std::string reason) {
  plan->keptBecause = std::move(reason);
  ArrayRef<int64_t> sizes = model.getBufferSizes();
  for (uint32_t memoryId = 1; memoryId < sizes.size(); ++memoryId) {
    PoolPlan pool;
    pool.memoryId = memoryId;
    pool.bytesBefore = pool.bytesAfter = std::max<int64_t>(sizes[memoryId], 0);
    pool.algorithm = "kept";
    pool.keptBecause = plan->keptBecause;
    plan->pools.push_back(std::move(pool));
  }
}

FailureOr<std::optional<uint32_t>>
MethodReplanner::getFastId(std::string &error) const {
  if (!options.fastMemoryBytes)
    return std::optional<uint32_t>();
  size_t next = std::max<size_t>(model.getBufferSizes().size(), 1);
  uint32_t id = options.fastMemoryId.value_or(next);
  if (id >= next)
    return std::optional<uint32_t>(id);
  error =
      ("method '" + model.getName() + "' already plans buffer " + Twine(id) +
       " (its buffers are 1 to " + Twine(next - 1) +
       "): the fast pool needs a new memory id, " + Twine(next) + " or more")
          .str();
  return failure();
}

void MethodReplanner::finishPools(std::optional<uint32_t> fastId) {
  std::vector<unsigned> tensorsIn(std::max<size_t>(
      model.getBufferSizes().size(), fastId ? *fastId + 1 : 0));
  for (auto index : llvm::seq(tensors.size()))
    ++tensorsIn[newMemoryId[unitOf[index]]];
  for (PoolPlan &pool : plan->pools)
    pool.tensors = tensorsIn[pool.memoryId];
  // The fast pool goes last, after the pools it takes from.
  if (fastId)
    std::rotate(plan->pools.begin(), plan->pools.begin() + 1,
                plan->pools.end());
  for (const PoolPlan &pool : plan->pools) {
    if (pool.memoryId >= plan->bufferSizes.size())
      plan->bufferSizes.resize(pool.memoryId + 1, 0);
    plan->bufferSizes[pool.memoryId] = pool.bytesAfter;
  }
}

LogicalResult MethodReplanner::run(MethodPlan &result, std::string &error) {
  plan = &result;
  plan->name = model.getName().str();
  plan->index = model.getIndex();
  plan->instructions = uses.instructionCount;
  ArrayRef<int64_t> sizes = model.getBufferSizes();
  plan->bufferSizes.assign(sizes.begin(), sizes.end());
  FailureOr<std::optional<uint32_t>> fastId = getFastId(error);
  if (failed(fastId))
    return failure();
  readPlannedTensors(model, uses, tensors);
  tensorOf.assign(model.getValueCount(), -1);
  for (auto [index, tensor] : llvm::enumerate(tensors))
    tensorOf[tensor.value] = index;
  std::string reason = findReasonToKeep();
  if (reason.empty() && !formUnits())
    reason = "its live tensors share too many bytes to compare in time";
  if (!reason.empty()) {
    keepMethod(std::move(reason));
    return success();
  }
  keptBecause.assign(sizes.size(), "");
  keepSharedPools();
  for (const Unit &unit : units) {
    newMemoryId.push_back(unit.memoryId);
    newOffset.push_back(unit.base);
  }
  if (*fastId)
    placeFastUnits(**fastId);
  // Each pool keeps the units fast memory did not take.
  std::vector<std::vector<uint32_t>> staying(sizes.size());
  for (auto [index, unit] : llvm::enumerate(units))
    if (newMemoryId[index] == unit.memoryId)
      staying[unit.memoryId].push_back(index);
  for (uint32_t memoryId = 1; memoryId < sizes.size(); ++memoryId)
    planPool(memoryId, staying[memoryId]);
  finishPools(*fastId);
  collectPlacements();
  return success();
}

FailureOr<ReplanReport> memory::replanMemory(const ProgramModel &model,
                                             delegate::DelegateCalls &calls,
                                             const ReplanOptions &options,
                                             std::string &error) {
  ReplanReport report;
  report.file = model.getFile().getName().str();
  SharedState shared(model);
  for (const MethodModel &method : model.getMethods()) {
    MethodDataFlow uses =
        computeDataFlow(method, calls.getCallArguments(method));
    MethodPlan plan;
    if (failed(MethodReplanner(method, uses, options, shared).run(plan, error)))
      return failure();
    report.methods.push_back(std::move(plan));
  }
  return report;
}
