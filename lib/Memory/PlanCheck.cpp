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
// shares. Lifetimes are inclusive at both ends, as ExecuTorch's planner's
// are: a call's result and what it reads are live at the call together.
// Writing over a live tensor is an error unless ExecuTorch planned it so
// (exir/memory_planning.py, verify_storage_reuse): an in-place operator's
// result over the argument it mutates, or two tensors that are one storage
// all their lives (`et_view`'s result and its input; a view the emitter
// elided and its base). An element-wise `.out` kernel writing exactly over
// an input that dies there computes the right result, but ExecuTorch plans
// it only for operators a user enrolled: a warning.
//
//===----------------------------------------------------------------------===//

#include "PlanCheck.h"

#include "CoveredBytes.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/ProgramModel.h"

#include "llvm/ADT/DenseSet.h"

#include <numeric>
#include <set>

using namespace emit;
using namespace emit::memory;

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

void memory::readPlannedTensors(const MethodModel &model,
                                const MethodDataFlow &uses,
                                std::vector<PlannedTensor> &tensors) {
  // Counted first: a method may plan hundreds of thousands.
  tensors.reserve(model.getPlannedTensorCount());
  for (uint32_t index = 0; index < model.getValueCount(); ++index) {
    std::optional<TensorModel> tensor = model.getTensor(index);
    if (!tensor || !tensor->planned)
      continue;
    std::optional<uint64_t> bytes = tensor->getBytes();
    if (!bytes)
      continue;
    PlannedTensor planned;
    planned.value = index;
    planned.name = tensor->getName();
    planned.memoryId = tensor->memoryId;
    planned.offset = tensor->offset;
    planned.bytes = *bytes;
    if (uses.isLive(index))
      planned.lifetime = uses.lifetimes[index];
    tensors.push_back(std::move(planned));
  }
}

namespace {
/// Items grouped by key, each group in the order its items were added: one
/// array (a counting sort) rather than a vector per instruction.
class IndexGroups {
public:
  void reserve(size_t count) { pairs.reserve(count); }
  void add(uint32_t key, uint32_t item) { pairs.push_back({key, item}); }
  /// Groups what was added, under keys below `keys`.
  void finish(uint32_t keys) {
    begins.assign(keys + 1, 0);
    for (auto [key, item] : pairs)
      ++begins[key + 1];
    std::partial_sum(begins.begin(), begins.end(), begins.begin());
    items.resize(pairs.size());
    std::vector<uint32_t> next(begins.begin(), begins.end() - 1);
    for (auto [key, item] : pairs)
      items[next[key]++] = item;
    pairs = {};
  }
  ArrayRef<uint32_t> get(uint32_t key) const {
    return ArrayRef<uint32_t>(items).slice(begins[key],
                                           begins[key + 1] - begins[key]);
  }

private:
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<uint32_t> begins;
  std::vector<uint32_t> items;
};

/// How a written tensor came to share bytes with a live one.
enum class Sharing {
  /// ExecuTorch plans it so: no finding.
  OnPurpose,
  /// An element-wise kernel's result exactly over an input that dies
  /// there: right, but not ExecuTorch's plan (a warning).
  ElementwiseOverInput,
  /// The method computes wrong results (an error).
  Unplanned,
};

/// The sweep over one method's instructions.
class PlanSweep {
public:
  PlanSweep(const ProgramFile &file, const MethodModel &model,
            const MethodDataFlow &uses, MethodMemory &method)
      : file(file), model(model), planIndex(model.getIndex()), uses(uses),
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
  /// How `written`, which `instruction` writes, came to share bytes with
  /// `live`.
  Sharing classifySharing(uint32_t instruction, const PlannedTensor &written,
                          const PlannedTensor &live) const;
  /// Whether `instruction` is a kernel call that reads `value`.
  bool reads(uint32_t instruction, uint32_t value) const;
  /// Whether `a` and `b` are the same tensor in the same bytes: scalar
  /// type, sizes and dim order.
  bool isSameLayout(const PlannedTensor &a, const PlannedTensor &b) const;
  /// Puts tensors that are one storage for their whole lives in one alias
  /// class: `et_view`'s result with its input, and a view the emitter
  /// elided with its base (MethodDataFlow::viewOf). Any other tensor that
  /// no call returns is written where it is first named (a kernel's scratch
  /// buffer): `freshWrites`.
  void findAliases();
  void joinAliases(uint32_t a, uint32_t b);
  /// Whether tensor value `view` has another shape or type than `base`: a
  /// view the emitter elides reshapes (a view to the same shape is no op).
  bool isReshaped(uint32_t view, uint32_t base) const;
  uint32_t aliasClass(uint32_t tensor);
  void reportOverlap(std::optional<uint32_t> instruction,
                     const PlannedTensor &written, const PlannedTensor &live,
                     bool bothWritten);
  void reportElementwiseOverInput(uint32_t instruction,
                                  const PlannedTensor &written,
                                  const PlannedTensor &input);
  /// Adds a finding of `id` at `tensor`'s value.
  void addFinding(Severity severity, Check id, const PlannedTensor &tensor,
                  std::string message, StringRef detail);
  /// `instruction N`, with the operator it calls or the backend.
  std::string describeInstruction(uint32_t instruction) const;
  /// Whether (and where) the pair is already reported.
  bool isReported(const PlannedTensor &a, const PlannedTensor &b);
  void reportSlack(const PlannedBuffer &buffer, uint32_t peakAt);
  /// Says what the overlap check did not list (past kMaxOverlapFindings)
  /// or did not check (past kMaxComparisons).
  void reportUnchecked();
  std::string describe(const PlannedTensor &tensor) const;

  const ProgramFile &file;
  const MethodModel &model;
  unsigned planIndex;
  const MethodDataFlow &uses;
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
  IndexGroups freshWrites;
};
} // namespace

Sharing PlanSweep::classifySharing(uint32_t instruction,
                                   const PlannedTensor &written,
                                   const PlannedTensor &live) const {
  const InstructionUse &use = uses.instructions[instruction];
  const InstructionModel &call = model.getInstructions()[instruction];
  // A scratch buffer the call fills is not its result.
  if (call.kind != InstructionKind::Kernel || !returnedNow.test(written.value))
    return Sharing::Unplanned;
  bool sameBytes = live.memoryId == written.memoryId &&
                   live.offset == written.offset && live.bytes == written.bytes;
  if (!sameBytes)
    return Sharing::Unplanned;
  switch (use.sharing) {
  case KernelSharing::InPlace:
    // ATen's convention: the mutated argument is `self`, the first.
    return !call.args.empty() &&
                   call.args.front() == static_cast<int32_t>(live.value)
               ? Sharing::OnPurpose
               : Sharing::Unplanned;
  case KernelSharing::Elementwise:
    return reads(instruction, live.value) && isSameLayout(written, live) &&
                   uses.lastNamed[live.value] == instruction &&
                   !uses.persistent.test(live.value)
               ? Sharing::ElementwiseOverInput
               : Sharing::Unplanned;
  case KernelSharing::View:
  case KernelSharing::None:
    return Sharing::Unplanned;
  }
  llvm_unreachable("unknown kernel sharing");
}

bool PlanSweep::reads(uint32_t instruction, uint32_t value) const {
  return model.getInstructions()[instruction].kind == InstructionKind::Kernel &&
         llvm::is_contained(uses.getReads(instruction), value);
}

bool PlanSweep::isSameLayout(const PlannedTensor &a,
                             const PlannedTensor &b) const {
  return !isReshaped(a.value, b.value) &&
         model.getTensor(a.value)->getDimOrder() ==
             model.getTensor(b.value)->getDimOrder();
}

bool PlanSweep::isReshaped(uint32_t view, uint32_t base) const {
  TensorModel a = *model.getTensor(view), b = *model.getTensor(base);
  return a.rawScalarType != b.rawScalarType || a.getSizes() != b.getSizes();
}

uint32_t PlanSweep::aliasClass(uint32_t tensor) {
  while (aliasParent[tensor] != tensor)
    tensor = aliasParent[tensor] = aliasParent[aliasParent[tensor]];
  return tensor;
}

void PlanSweep::findAliases() {
  aliasParent.resize(method.tensors.size());
  std::iota(aliasParent.begin(), aliasParent.end(), 0);
  llvm::BitVector written(model.getValueCount());
  for (uint32_t instruction = 0; instruction < uses.instructionCount;
       ++instruction) {
    const InstructionUse &use = uses.instructions[instruction];
    int32_t operand = use.firstTensorArgument;
    for (uint32_t value : uses.getWrites(instruction)) {
      written.set(value);
      if (use.sharing == KernelSharing::View && operand >= 0 &&
          tensorOf[value] >= 0 && tensorOf[operand] >= 0)
        joinAliases(tensorOf[value], tensorOf[operand]);
    }
  }
  // A view the emitter elided is its base; any other tensor no call writes
  // is written where it is first named (a kernel's scratch buffer).
  for (auto [index, tensor] : llvm::enumerate(method.tensors)) {
    if (!tensor.lifetime || written.test(tensor.value) ||
        uses.given.test(tensor.value))
      continue;
    int32_t base = uses.viewOf[tensor.value];
    if (base != MethodDataFlow::kNoView && tensorOf[base] >= 0)
      joinAliases(index, tensorOf[base]);
    else
      freshWrites.add(tensor.lifetime->first, tensor.value);
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
    Sharing sharing = bothWritten || !instruction
                          ? Sharing::Unplanned
                          : classifySharing(*instruction, written, tensor);
    if (sharing == Sharing::ElementwiseOverInput)
      reportElementwiseOverInput(*instruction, written, tensor);
    else if (sharing == Sharing::Unplanned)
      reportOverlap(instruction, written, tensor, bothWritten);
  }
  return true;
}

std::string PlanSweep::describe(const PlannedTensor &tensor) const {
  std::string text = ("value " + Twine(tensor.value)).str();
  if (!tensor.name.empty())
    text += (" ('" + tensor.name + "')").str();
  return text;
}

bool PlanSweep::isReported(const PlannedTensor &a, const PlannedTensor &b) {
  auto key = std::minmax(a.value, b.value);
  return !reported.insert({key.first, key.second}).second;
}

std::string PlanSweep::describeInstruction(uint32_t instruction) const {
  std::string text = ("instruction " + Twine(instruction)).str();
  const InstructionModel &call = model.getInstructions()[instruction];
  if (const OperatorModel *op = model.getOperator(call)) {
    if (!op->hasName)
      return text;
    return text + " (" + op->qualifiedName + ")";
  }
  if (const DelegateModel *delegate = model.getDelegate(call)) {
    text += " (a call of delegate " + std::to_string(call.callee);
    if (delegate->hasId)
      text += ", backend '" + delegate->backend.str() + "'";
    return text + ")";
  }
  return text;
}

void PlanSweep::reportOverlap(std::optional<uint32_t> instruction,
                              const PlannedTensor &written,
                              const PlannedTensor &tensor, bool bothWritten) {
  if (isReported(written, tensor))
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
    os << describeInstruction(*instruction) << " writes both at once";
  else if (reads(*instruction, tensor.value))
    os << describeInstruction(*instruction) << " writes " << describe(written)
       << " over " << describe(tensor)
       << ", which it reads and which is live from instruction "
       << tensor.lifetime->first << " to " << tensor.lifetime->last
       << ": only an in-place operator's result shares bytes with what it "
          "reads (exactly, and only with the argument it mutates, its first)";
  else
    os << describeInstruction(*instruction) << " writes " << describe(written)
       << " over " << describe(tensor) << ", which is live from instruction "
       << tensor.lifetime->first << " to " << tensor.lifetime->last;
  addFinding(Severity::Error, Check::MemoryOverlap, written, std::move(message),
             "; the runtime loads the program, and the method computes wrong "
             "results");
}

void PlanSweep::reportElementwiseOverInput(uint32_t instruction,
                                           const PlannedTensor &written,
                                           const PlannedTensor &input) {
  if (isReported(written, input))
    return;
  std::string message;
  llvm::raw_string_ostream os(message);
  os << describeInstruction(instruction) << " writes its result "
     << describe(written) << " exactly over its input " << describe(input)
     << " (bytes [" << written.offset << ", " << endOf(written)
     << ") of planned buffer " << written.memoryId
     << "), which dies there: an element-wise kernel reads each element "
        "before it writes it, so the result is right, but ExecuTorch plans "
        "this only for an operator a user enrolled in reinplace_pass; any "
        "other kernel computes wrong results";
  addFinding(Severity::Warning, Check::MemoryInPlaceOut, written,
             std::move(message), "; the runtime loads the program");
}

void PlanSweep::addFinding(Severity severity, Check id,
                           const PlannedTensor &tensor, std::string message,
                           StringRef detail) {
  const FileCheck &check = getFileCheck(id);
  method.findings.findings.push_back(
      {severity, &check, file.getName().str(),
       file.offsetOf(model.getValueLocation(tensor.value)),
       ("execution_plan[" + Twine(planIndex) + "] '" + method.name +
        "'.values[" + Twine(tensor.value) + "]")
           .str(),
       std::move(message), detail.str(), check.runtime, ImportEffect::Ignores});
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
       file.offsetOf(model.getBufferSizeLocation(buffer.memoryId)),
       ("execution_plan[" + Twine(planIndex) + "] '" + method.name +
        "'.non_const_buffer_sizes[" + Twine(buffer.memoryId) + "]")
           .str(),
       std::move(message), "", check.runtime, ImportEffect::Ignores});
}

void PlanSweep::run() {
  unsigned bufferCount = method.buffers.size();
  tensorOf.assign(model.getValueCount(), -1);
  writtenNow.resize(model.getValueCount());
  returnedNow.resize(model.getValueCount());
  // Tensors by the instruction they start and end at; each buffer's ends.
  uint32_t steps = std::max(uses.instructionCount, 1u);
  IndexGroups starts, ends;
  starts.reserve(method.tensors.size());
  ends.reserve(method.tensors.size());
  // Each buffer's distinct tensor ends: few, however many tensors.
  std::vector<llvm::DenseSet<uint64_t>> points(bufferCount);
  largest.assign(bufferCount, 0);
  for (auto [index, tensor] : llvm::enumerate(method.tensors)) {
    tensorOf[tensor.value] = index;
    if (!tensor.lifetime || tensor.memoryId == 0 ||
        tensor.memoryId > bufferCount)
      continue;
    starts.add(std::min(tensor.lifetime->first, steps - 1), index);
    ends.add(std::min(tensor.lifetime->last, steps - 1), index);
    unsigned buffer = tensor.memoryId - 1;
    points[buffer].insert(tensor.offset);
    points[buffer].insert(endOf(tensor));
    largest[buffer] = std::max(largest[buffer], tensor.bytes);
  }
  starts.finish(steps);
  ends.finish(steps);
  live.resize(bufferCount);
  for (const llvm::DenseSet<uint64_t> &bufferPoints : points)
    covered.emplace_back(
        std::vector<uint64_t>(bufferPoints.begin(), bufferPoints.end()));
  findAliases();
  freshWrites.finish(steps);
  SmallVector<uint32_t> given(uses.given.set_bits());
  SmallVector<uint32_t> peakAt(bufferCount, 0);
  for (uint32_t step = 0; step < steps; ++step) {
    for (uint32_t index : starts.get(step)) {
      const PlannedTensor &tensor = method.tensors[index];
      live[tensor.memoryId - 1].insert({tensor.offset, index});
      covered[tensor.memoryId - 1].add(tensor.offset, endOf(tensor));
    }
    if (step == 0 && !stoppedAt)
      checkWrites(std::nullopt, given);
    if (step < uses.instructionCount && !stoppedAt) {
      SmallVector<uint32_t> writes(uses.getWrites(step));
      llvm::append_range(writes, freshWrites.get(step));
      checkWrites(step, writes);
    }
    // A buffer's live bytes grow only where tensors start.
    for (uint32_t index : starts.get(step)) {
      unsigned buffer = method.tensors[index].memoryId - 1;
      if (covered[buffer].getCovered() > method.buffers[buffer].peakLiveBytes) {
        method.buffers[buffer].peakLiveBytes = covered[buffer].getCovered();
        peakAt[buffer] = step;
      }
    }
    for (uint32_t index : ends.get(step)) {
      const PlannedTensor &tensor = method.tensors[index];
      live[tensor.memoryId - 1].erase({tensor.offset, index});
      covered[tensor.memoryId - 1].remove(tensor.offset, endOf(tensor));
    }
  }
  if (stoppedAt || unlisted)
    reportUnchecked();
  for (auto [buffer, at] : llvm::zip_equal(method.buffers, peakAt))
    buffer.peakAt = at;
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
       file.getName().str(), file.offsetOf(model.getPlanLocation()),
       ("execution_plan[" + Twine(planIndex) + "] '" + method.name + "'").str(),
       std::move(message), "", check.runtime, ImportEffect::Ignores});
}

void memory::checkPlan(const ProgramFile &file, const MethodModel &model,
                       const MethodDataFlow &uses, MethodMemory &method) {
  ArrayRef<int64_t> sizes = model.getBufferSizes();
  for (uint32_t id = 1; id < sizes.size(); ++id)
    method.buffers.push_back(
        {id, static_cast<uint64_t>(std::max<int64_t>(sizes[id], 0)),
         model.getBufferDeviceName(id).str(), 0});
  readPlannedTensors(model, uses, method.tensors);
  PlanSweep(file, model, uses, method).run();
}
