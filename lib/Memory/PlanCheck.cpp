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

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/program_generated.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
#include <numeric>
#include <tuple>

using namespace emit;
using namespace emit::memory;
namespace fb = executorch_flatbuffer;

/// Slack is worth a note when a buffer is more than twice its peak and
/// wastes at least this much.
static constexpr uint64_t kSlackBytes = 4096;

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
  /// The bytes of `buffer` its live tensors cover.
  uint64_t liveBytes(unsigned buffer) const;
  /// Checks `writes`, what `instruction` writes (none: what holds data
  /// before the first instruction), against the live tensors.
  void checkWrites(std::optional<uint32_t> instruction,
                   ArrayRef<uint32_t> writes);
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
  std::string describe(const PlannedTensor &tensor) const;

  const ProgramFile &file;
  const fb::ExecutionPlan &plan;
  unsigned planIndex;
  const MethodUses &uses;
  MethodMemory &method;
  /// Per buffer (memory id - 1), the tensors live now.
  std::vector<SmallVector<uint32_t>> live;
  /// Per value, its tensor in `method.tensors`, or -1.
  std::vector<int32_t> tensorOf;
  llvm::DenseSet<std::pair<uint32_t, uint32_t>> reported;
  /// Per tensor, its parent in its alias class (union-find).
  std::vector<uint32_t> aliasParent;
  /// Per instruction, the tensors it writes that no call returns.
  std::vector<SmallVector<uint32_t, 0>> freshWrites;
};
} // namespace

uint64_t PlanSweep::liveBytes(unsigned buffer) const {
  SmallVector<std::pair<uint64_t, uint64_t>> ranges;
  for (uint32_t tensor : live[buffer]) {
    const PlannedTensor &planned = method.tensors[tensor];
    ranges.push_back({planned.offset, planned.offset + planned.bytes});
  }
  llvm::sort(ranges);
  uint64_t bytes = 0, covered = 0;
  for (auto [begin, end] : ranges) {
    begin = std::max(begin, covered);
    if (end > begin) {
      bytes += end - begin;
      covered = end;
    }
  }
  return bytes;
}

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
  for (uint32_t value : writes) {
    if (tensorOf[value] < 0)
      continue;
    const PlannedTensor &written = method.tensors[tensorOf[value]];
    if (written.memoryId == 0 || written.memoryId > live.size() ||
        written.bytes == 0)
      continue;
    for (uint32_t other : live[written.memoryId - 1]) {
      const PlannedTensor &tensor = method.tensors[other];
      // Before the first instruction, only given tensors hold data.
      if (!instruction && !uses.given.test(tensor.value))
        continue;
      if (tensor.value == written.value || tensor.bytes == 0 ||
          tensor.offset >= written.offset + written.bytes ||
          written.offset >= tensor.offset + tensor.bytes)
        continue;
      if (aliasClass(tensorOf[value]) == aliasClass(other))
        continue;
      bool bothWritten = llvm::is_contained(writes, tensor.value);
      // In place: what the call returns, not a scratch buffer it fills.
      if (!bothWritten && instruction &&
          llvm::is_contained(uses.getWrites(*instruction), value) &&
          isInPlace(*instruction, written, tensor))
        continue;
      reportOverlap(instruction, written, tensor, bothWritten);
    }
  }
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
  method.overlaps.push_back({tensor.value, written.value});
  uint64_t begin = std::max(written.offset, tensor.offset);
  uint64_t end =
      std::min(written.offset + written.bytes, tensor.offset + tensor.bytes);
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
  live.resize(bufferCount);
  tensorOf.assign(plan.values()->size(), -1);
  // Tensors by the instruction they start and end at.
  uint32_t steps = std::max(uses.instructionCount, 1u);
  std::vector<SmallVector<uint32_t, 1>> starts(steps), ends(steps);
  for (auto [index, tensor] : llvm::enumerate(method.tensors)) {
    tensorOf[tensor.value] = index;
    if (!tensor.lifetime || tensor.memoryId == 0 ||
        tensor.memoryId > bufferCount)
      continue;
    starts[std::min(tensor.lifetime->first, steps - 1)].push_back(index);
    ends[std::min(tensor.lifetime->last, steps - 1)].push_back(index);
  }
  findAliases();
  SmallVector<uint32_t> given(uses.given.set_bits());
  SmallVector<uint32_t> peakAt(bufferCount, 0);
  llvm::BitVector changed(bufferCount);
  for (uint32_t step = 0; step < steps; ++step) {
    for (uint32_t tensor : starts[step]) {
      unsigned buffer = method.tensors[tensor].memoryId - 1;
      live[buffer].push_back(tensor);
      changed.set(buffer);
    }
    if (step == 0)
      checkWrites(std::nullopt, given);
    if (step < uses.instructionCount) {
      SmallVector<uint32_t> writes(uses.getWrites(step));
      llvm::append_range(writes, freshWrites[step]);
      checkWrites(step, writes);
    }
    for (unsigned buffer : changed.set_bits()) {
      uint64_t bytes = liveBytes(buffer);
      if (bytes > method.buffers[buffer].peakLiveBytes) {
        method.buffers[buffer].peakLiveBytes = bytes;
        peakAt[buffer] = step;
      }
    }
    changed.reset();
    for (uint32_t tensor : ends[step]) {
      unsigned buffer = method.tensors[tensor].memoryId - 1;
      llvm::erase(live[buffer], tensor);
      changed.set(buffer);
    }
  }
  for (auto [buffer, at] : llvm::zip_equal(method.buffers, peakAt))
    reportSlack(buffer, at);
}

void memory::checkPlan(const ProgramFile &file, const fb::ExecutionPlan &plan,
                       unsigned planIndex, const MethodUses &uses,
                       MethodMemory &method) {
  const auto &sizes = *plan.non_const_buffer_sizes();
  for (uint32_t id = 1; id < sizes.size(); ++id)
    method.buffers.push_back(
        {id, static_cast<uint64_t>(std::max<int64_t>(sizes.Get(id), 0)),
         deviceName(plan, id), 0});
  readTensors(plan, uses, method);
  PlanSweep(file, plan, planIndex, uses, method).run();
}
