//===- PlanCheck.cpp - A method's memory plan, and whether it is sound ----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One sweep over the instructions: the tensors live at each are kept per
// buffer; at each, the bytes live in a buffer that changed are counted (the
// union of its live tensors: a view counts once), and every tensor the
// instruction writes is checked against the live tensors whose bytes it
// shares. Writing over a live tensor is an error unless ExecuTorch planned
// it so: a kernel writing its result over its first tensor argument when
// that argument dies there or is a mutable buffer (in-place kernels,
// exir/passes/reinplace.py), or two tensors that are one storage all their
// lives (`et_view`'s result and its input; a view the emitter elided and
// its base).
//
//===----------------------------------------------------------------------===//

#include "PlanCheck.h"

#include "CoveredBytes.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/ReadScalars.h"
#include "emit/File/program_generated.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace emit;
using namespace emit::memory;
namespace fb = executorch_flatbuffer;

/// Slack is worth a note when a buffer is more than twice its peak and
/// wastes at least this much.
static constexpr uint64_t kSlackBytes = 4096;
/// The most pairs of live tensors the overlap check compares in a method:
/// far more than a real plan needs (its live tensors do not overlap, so a
/// write meets a few), few enough to finish in seconds.
static constexpr uint64_t kMaxComparisons = uint64_t(1) << 28;
/// The most overlaps listed per method; the rest are counted.
static constexpr size_t kMaxOverlapFindings = 100;

/// The end of `tensor`'s bytes, saturated.
static uint64_t endOf(const PlannedTensor &tensor) {
  return tensor.offset + std::min(tensor.bytes, UINT64_MAX - tensor.offset);
}

static std::string deviceName(const fb::ExecutionPlan &plan,
                              uint32_t memoryId) {
  if (const auto *devices = plan.non_const_buffer_device())
    for (const fb::NonConstBufferDevice *device : *devices)
      if (device->buffer_idx() == static_cast<int32_t>(memoryId))
        if (auto type = et::symbolizeDeviceType(
                static_cast<uint32_t>(device->device_type())))
          return et::stringifyDeviceType(*type).str();
  return "cpu";
}

/// The planned tensors of `plan`, in value order.
static void readTensors(const fb::ExecutionPlan &plan, const MethodUses &uses,
                        MethodMemory &method) {
  for (auto [index, value] : llvm::enumerate(*plan.values())) {
    const fb::Tensor *tensor = value->val_as_Tensor();
    if (!tensor || !tensor->allocation_info() || !tensor->sizes())
      continue;
    auto type =
        et::symbolizeScalarType(static_cast<uint32_t>(tensor->scalar_type()));
    std::optional<uint64_t> bytes =
        type ? et::getTensorByteSize(*type,
                                     ArrayRef<int32_t>(tensor->sizes()->data(),
                                                       tensor->sizes()->size()))
             : std::nullopt;
    if (!bytes)
      continue;
    const fb::AllocationDetails *allocation = tensor->allocation_info();
    PlannedTensor planned;
    planned.value = index;
    if (const fb::ExtraTensorInfo *info = tensor->extra_tensor_info())
      if (info->fully_qualified_name())
        planned.name = info->fully_qualified_name()->str();
    planned.memoryId = allocation->memory_id();
    planned.offset = uint64_t(allocation->memory_offset_high()) << 32 |
                     allocation->memory_offset_low();
    planned.bytes = *bytes;
    if (uses.isLive(index))
      planned.lifetime = uses.lifetimes[index];
    method.tensors.push_back(std::move(planned));
  }
}

namespace {
/// The sweep over one method's instructions.
class PlanSweep {
public:
  PlanSweep(const ProgramFile &file, const fb::ExecutionPlan &plan,
            unsigned planIndex, const MethodUses &uses, MethodMemory &method)
      : file(file), plan(plan), planIndex(planIndex), uses(uses),
        method(method) {}
  void run();

private:
  /// Checks `writes`, what `instruction` writes (none: what holds data
  /// before the first instruction), against the live tensors.
  void checkWrites(std::optional<uint32_t> instruction,
                   ArrayRef<uint32_t> writes);
  /// Checks tensor `index`, written there, against the live tensors;
  /// false once the comparison budget is spent.
  bool checkWrite(std::optional<uint32_t> instruction, uint32_t index);
  /// Whether `written` is an in-place kernel's result on `operand`, its
  /// first tensor argument, at `instruction`: same bytes, and the operand
  /// dies there or is a mutable buffer (exir/passes/reinplace.py).
  bool isInPlace(uint32_t instruction, const PlannedTensor &written,
                 const PlannedTensor &operand) const;
  /// Puts tensors that are one storage for their whole lives in one alias
  /// class: `et_view`'s result with its input, and a view the emitter
  /// elided (never written, of another shape on the same bytes as a tensor
  /// written before it is first named) with that tensor. Any other tensor that
  /// no call returns is written where it is first named (a kernel's scratch
  /// buffer): `freshWrites`.
  void findAliases();
  /// The views the emitter elided, joined with their bases; the other
  /// tensors no call writes are written where first named.
  void findElidedViews(const llvm::BitVector &written);
  void joinAliases(uint32_t a, uint32_t b);
  /// Whether tensor value `view` has another shape or type than `base`: a
  /// view the emitter elides reshapes (a view to the same shape is no op).
  bool isReshaped(uint32_t view, uint32_t base) const;
  uint32_t aliasClass(uint32_t tensor);
  void reportOverlap(std::optional<uint32_t> instruction,
                     const PlannedTensor &written, const PlannedTensor &live,
                     bool bothWritten);
  void reportSlack(const PlannedBuffer &buffer, uint32_t peakAt);
  /// Says what the overlap check did not list (past kMaxOverlapFindings)
  /// or did not check (past kMaxComparisons).
  void reportUnchecked();
  std::string describe(const PlannedTensor &tensor) const;

  const ProgramFile &file;
  const fb::ExecutionPlan &plan;
  unsigned planIndex;
  const MethodUses &uses;
  MethodMemory &method;
  /// Per buffer (memory id - 1), the tensors live now by offset, the bytes
  /// they cover, and the largest tensor it holds.
  std::vector<std::set<std::pair<uint64_t, uint32_t>>> live;
  std::vector<CoveredBytes> covered;
  std::vector<uint64_t> largest;
  /// Pairs of tensors compared so far: past kMaxComparisons, a method is
  /// not checked further (a note says so) rather than taking forever.
  uint64_t comparisons = 0;
  std::optional<uint32_t> stoppedAt;
  /// Overlaps found past kMaxOverlapFindings.
  uint64_t unlisted = 0;
  /// The values the instruction being checked writes, and returns.
  llvm::BitVector writtenNow, returnedNow;
  /// Per value, its tensor in `method.tensors`, or -1.
  std::vector<int32_t> tensorOf;
  llvm::DenseSet<std::pair<uint32_t, uint32_t>> reported;
  /// Per tensor, its parent in its alias class (union-find).
  std::vector<uint32_t> aliasParent;
  /// Per instruction, the tensors it writes that no call returns.
  std::vector<SmallVector<uint32_t, 0>> freshWrites;
};
} // namespace

bool PlanSweep::isInPlace(uint32_t instruction, const PlannedTensor &written,
                          const PlannedTensor &operand) const {
  if (uses.instructions[instruction].firstTensorArgument !=
      static_cast<int32_t>(operand.value))
    return false;
  bool sameBytes = operand.memoryId == written.memoryId &&
                   operand.offset == written.offset &&
                   operand.bytes == written.bytes;
  return sameBytes && (uses.lastNamed[operand.value] == instruction ||
                       uses.persistent.test(operand.value));
}

bool PlanSweep::isReshaped(uint32_t view, uint32_t base) const {
  const fb::Tensor *a = plan.values()->Get(view)->val_as_Tensor();
  const fb::Tensor *b = plan.values()->Get(base)->val_as_Tensor();
  auto sizes = [](const fb::Tensor *tensor) {
    return ArrayRef<int32_t>(tensor->sizes()->data(), tensor->sizes()->size());
  };
  return a->scalar_type() != b->scalar_type() || sizes(a) != sizes(b);
}

uint32_t PlanSweep::aliasClass(uint32_t tensor) {
  while (aliasParent[tensor] != tensor)
    tensor = aliasParent[tensor] = aliasParent[aliasParent[tensor]];
  return tensor;
}

void PlanSweep::findAliases() {
  aliasParent.resize(method.tensors.size());
  std::iota(aliasParent.begin(), aliasParent.end(), 0);
  llvm::BitVector written(plan.values()->size());
  for (uint32_t instruction = 0; instruction < uses.instructionCount;
       ++instruction) {
    const InstructionUse &use = uses.instructions[instruction];
    int32_t operand = use.firstTensorArgument;
    for (uint32_t value : uses.getWrites(instruction)) {
      written.set(value);
      if (use.returnsView && operand >= 0 && tensorOf[value] >= 0 &&
          tensorOf[operand] >= 0)
        joinAliases(tensorOf[value], tensorOf[operand]);
    }
  }
  findElidedViews(written);
}

void PlanSweep::findElidedViews(const llvm::BitVector &written) {
  freshWrites.resize(std::max(uses.instructionCount, 1u));
  // By their bytes, the tensors calls write there, by first use.
  std::map<std::tuple<uint32_t, uint64_t, uint64_t>, SmallVector<uint32_t>>
      byBytes;
  for (auto [index, tensor] : llvm::enumerate(method.tensors))
    if (tensor.lifetime && written.test(tensor.value))
      byBytes[{tensor.memoryId, tensor.offset, tensor.bytes}].push_back(index);
  auto firstOf = [&](uint32_t tensor) {
    return method.tensors[tensor].lifetime->first;
  };
  for (auto &[bytes, tensors] : byBytes)
    llvm::stable_sort(tensors, [&](uint32_t a, uint32_t b) {
      return firstOf(a) < firstOf(b);
    });
  for (auto [index, tensor] : llvm::enumerate(method.tensors)) {
    if (!tensor.lifetime || written.test(tensor.value) ||
        uses.given.test(tensor.value))
      continue;
    // The base: the last tensor written on these bytes before the view is
    // first named, of another shape.
    std::optional<uint32_t> base;
    auto it = byBytes.find({tensor.memoryId, tensor.offset, tensor.bytes});
    if (it != byBytes.end()) {
      ArrayRef<uint32_t> before(it->second);
      before = before.take_front(
          llvm::partition_point(
              before,
              [&](uint32_t c) { return firstOf(c) < tensor.lifetime->first; }) -
          before.begin());
      for (uint32_t candidate : llvm::reverse(before))
        if (isReshaped(tensor.value, method.tensors[candidate].value)) {
          base = candidate;
          break;
        }
    }
    if (base)
      joinAliases(index, *base);
    else
      freshWrites[tensor.lifetime->first].push_back(tensor.value);
  }
}

void PlanSweep::joinAliases(uint32_t a, uint32_t b) {
  aliasParent[aliasClass(a)] = aliasClass(b);
}

void PlanSweep::checkWrites(std::optional<uint32_t> instruction,
                            ArrayRef<uint32_t> writes) {
  ArrayRef<uint32_t> returned;
  if (instruction)
    returned = uses.getWrites(*instruction);
  for (uint32_t value : writes)
    writtenNow.set(value);
  for (uint32_t value : returned)
    returnedNow.set(value);
  for (uint32_t value : writes)
    if (tensorOf[value] >= 0 && !checkWrite(instruction, tensorOf[value]))
      break;
  for (uint32_t value : writes)
    writtenNow.reset(value);
  for (uint32_t value : returned)
    returnedNow.reset(value);
}

bool PlanSweep::checkWrite(std::optional<uint32_t> instruction,
                           uint32_t index) {
  const PlannedTensor &written = method.tensors[index];
  if (written.memoryId == 0 || written.memoryId > live.size() ||
      written.bytes == 0)
    return true;
  // The live tensors that may overlap it start after its offset less the
  // largest tensor's bytes, and before its end.
  unsigned buffer = written.memoryId - 1;
  auto it = written.offset < largest[buffer]
                ? live[buffer].begin()
                : live[buffer].upper_bound(
                      {written.offset - largest[buffer], UINT32_MAX});
  for (; it != live[buffer].end() && it->first < endOf(written); ++it) {
    if (++comparisons > kMaxComparisons) {
      stoppedAt = instruction.value_or(0);
      return false;
    }
    const PlannedTensor &tensor = method.tensors[it->second];
    // Before the first instruction, only given tensors hold data.
    if (!instruction && !uses.given.test(tensor.value))
      continue;
    if (tensor.value == written.value || tensor.bytes == 0 ||
        tensor.offset >= endOf(written) || written.offset >= endOf(tensor) ||
        aliasClass(index) == aliasClass(it->second))
      continue;
    bool bothWritten = writtenNow.test(tensor.value);
    // In place: what the call returns, not a scratch buffer it fills.
    if (!bothWritten && instruction && returnedNow.test(written.value) &&
        isInPlace(*instruction, written, tensor))
      continue;
    reportOverlap(instruction, written, tensor, bothWritten);
  }
  return true;
}

std::string PlanSweep::describe(const PlannedTensor &tensor) const {
  std::string text = ("value " + Twine(tensor.value)).str();
  if (!tensor.name.empty())
    text += " ('" + tensor.name + "')";
  return text;
}

void PlanSweep::reportOverlap(std::optional<uint32_t> instruction,
                              const PlannedTensor &written,
                              const PlannedTensor &tensor, bool bothWritten) {
  auto key = std::minmax(written.value, tensor.value);
  if (!reported.insert({key.first, key.second}).second)
    return;
  if (method.overlaps.size() == kMaxOverlapFindings) {
    ++unlisted;
    return;
  }
  method.overlaps.push_back({tensor.value, written.value});
  uint64_t begin = std::max(written.offset, tensor.offset);
  uint64_t end = std::min(endOf(written), endOf(tensor));
  uint32_t from = std::max(written.lifetime->first, tensor.lifetime->first);
  uint32_t to = std::min(written.lifetime->last, tensor.lifetime->last);
  std::string message;
  llvm::raw_string_ostream os(message);
  os << describe(tensor) << " and " << describe(written) << " share bytes ["
     << begin << ", " << end << ") of planned buffer " << written.memoryId
     << " while both are live (instructions " << from << " to " << to << "): ";
  if (!instruction)
    os << "both hold data before the first instruction (method inputs or "
          "mutable buffers)";
  else if (bothWritten)
    os << "instruction " << *instruction << " writes both at once";
  else
    os << "instruction " << *instruction << " writes " << describe(written)
       << " over " << describe(tensor) << ", which is live from instruction "
       << tensor.lifetime->first << " to " << tensor.lifetime->last;
  const FileCheck &check = getFileCheck(Check::MemoryOverlap);
  method.findings.findings.push_back(
      {Severity::Error, &check, file.getName().str(),
       file.offsetOf(plan.values()->Get(written.value)),
       ("execution_plan[" + Twine(planIndex) + "] '" + method.name +
        "'.values[" + Twine(written.value) + "]")
           .str(),
       std::move(message),
       "; the runtime loads the program, and the method computes wrong "
       "results",
       check.runtime, ImportEffect::Ignores});
}

void PlanSweep::reportSlack(const PlannedBuffer &buffer, uint32_t peakAt) {
  if (buffer.bytes <= 2 * buffer.peakLiveBytes ||
      buffer.bytes - buffer.peakLiveBytes < kSlackBytes)
    return;
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "planned buffer " << buffer.memoryId << " is " << buffer.bytes
     << " bytes, but at most " << buffer.peakLiveBytes
     << " bytes of it are live at once";
  if (buffer.peakLiveBytes)
    os << " (at instruction " << peakAt << ")";
  os << ": " << buffer.bytes - buffer.peakLiveBytes << " bytes are never used";
  const FileCheck &check = getFileCheck(Check::MemorySlack);
  method.findings.findings.push_back(
      {Severity::Note, &check, file.getName().str(),
       file.offsetOf(plan.non_const_buffer_sizes()->Data() +
                     sizeof(int64_t) * buffer.memoryId),
       ("execution_plan[" + Twine(planIndex) + "] '" + method.name +
        "'.non_const_buffer_sizes[" + Twine(buffer.memoryId) + "]")
           .str(),
       std::move(message), "", check.runtime, ImportEffect::Ignores});
}

void PlanSweep::run() {
  unsigned bufferCount = method.buffers.size();
  tensorOf.assign(plan.values()->size(), -1);
  writtenNow.resize(plan.values()->size());
  returnedNow.resize(plan.values()->size());
  // Tensors by the instruction they start and end at; each buffer's ends.
  uint32_t steps = std::max(uses.instructionCount, 1u);
  std::vector<SmallVector<uint32_t, 1>> starts(steps), ends(steps);
  std::vector<std::vector<uint64_t>> points(bufferCount);
  largest.assign(bufferCount, 0);
  for (auto [index, tensor] : llvm::enumerate(method.tensors)) {
    tensorOf[tensor.value] = index;
    if (!tensor.lifetime || tensor.memoryId == 0 ||
        tensor.memoryId > bufferCount)
      continue;
    starts[std::min(tensor.lifetime->first, steps - 1)].push_back(index);
    ends[std::min(tensor.lifetime->last, steps - 1)].push_back(index);
    unsigned buffer = tensor.memoryId - 1;
    points[buffer].push_back(tensor.offset);
    points[buffer].push_back(endOf(tensor));
    largest[buffer] = std::max(largest[buffer], tensor.bytes);
  }
  live.resize(bufferCount);
  for (std::vector<uint64_t> &bufferPoints : points)
    covered.emplace_back(std::move(bufferPoints));
  findAliases();
  SmallVector<uint32_t> given(uses.given.set_bits());
  SmallVector<uint32_t> peakAt(bufferCount, 0);
  for (uint32_t step = 0; step < steps; ++step) {
    for (uint32_t index : starts[step]) {
      const PlannedTensor &tensor = method.tensors[index];
      live[tensor.memoryId - 1].insert({tensor.offset, index});
      covered[tensor.memoryId - 1].add(tensor.offset, endOf(tensor));
    }
    if (step == 0 && !stoppedAt)
      checkWrites(std::nullopt, given);
    if (step < uses.instructionCount && !stoppedAt) {
      SmallVector<uint32_t> writes(uses.getWrites(step));
      llvm::append_range(writes, freshWrites[step]);
      checkWrites(step, writes);
    }
    // A buffer's live bytes grow only where tensors start.
    for (uint32_t index : starts[step]) {
      unsigned buffer = method.tensors[index].memoryId - 1;
      if (covered[buffer].getCovered() > method.buffers[buffer].peakLiveBytes) {
        method.buffers[buffer].peakLiveBytes = covered[buffer].getCovered();
        peakAt[buffer] = step;
      }
    }
    for (uint32_t index : ends[step]) {
      const PlannedTensor &tensor = method.tensors[index];
      live[tensor.memoryId - 1].erase({tensor.offset, index});
      covered[tensor.memoryId - 1].remove(tensor.offset, endOf(tensor));
    }
  }
  if (stoppedAt || unlisted)
    reportUnchecked();
  for (auto [buffer, at] : llvm::zip_equal(method.buffers, peakAt))
    reportSlack(buffer, at);
}

void PlanSweep::reportUnchecked() {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (unlisted)
    os << unlisted << " more pairs of tensors share bytes while live (the "
       << "first " << kMaxOverlapFindings << " are listed)";
  if (stoppedAt)
    os << (unlisted ? "; " : "") << "overlaps not checked from instruction "
       << *stoppedAt << " on: more than " << kMaxComparisons
       << " pairs of live tensors compared";
  const FileCheck &check = getFileCheck(Check::MemoryOverlap);
  method.findings.findings.push_back(
      {unlisted ? Severity::Error : Severity::Note, &check,
       file.getName().str(), file.offsetOf(&plan),
       ("execution_plan[" + Twine(planIndex) + "] '" + method.name + "'").str(),
       std::move(message), "", check.runtime, ImportEffect::Ignores});
}

void memory::checkPlan(const ProgramFile &file, const fb::ExecutionPlan &plan,
                       unsigned planIndex, const MethodUses &uses,
                       MethodMemory &method) {
  // Copied out: a file may leave its 8-byte sizes unaligned.
  SmallVector<int64_t> sizes = readScalars(plan.non_const_buffer_sizes());
  for (uint32_t id = 1; id < sizes.size(); ++id)
    method.buffers.push_back(
        {id, static_cast<uint64_t>(std::max<int64_t>(sizes[id], 0)),
         deviceName(plan, id), 0});
  readTensors(plan, uses, method);
  PlanSweep(file, plan, planIndex, uses, method).run();
}
