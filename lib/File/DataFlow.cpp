//===- DataFlow.cpp - What instructions read and write, and when ----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/DataFlow.h"

#include "emit/File/ProgramModel.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <tuple>

using namespace emit;

/// ATen's element-wise operators with portable `.out` kernels: each output
/// element is computed from the input elements at its own index (an input
/// of the output's shape is never broadcast). Sorted.
static constexpr llvm::StringLiteral kElementwiseOperators[] = {
    "abs",          "acos",        "acosh",       "add",        "asin",
    "asinh",        "atan",        "atan2",       "atanh",      "bitwise_and",
    "bitwise_not",  "bitwise_or",  "bitwise_xor", "ceil",       "clamp",
    "clone",        "cos",         "cosh",        "div",        "elu",
    "eq",           "erf",         "exp",         "expm1",      "floor",
    "floor_divide", "fmod",        "ge",          "gelu",       "gt",
    "hardsigmoid",  "hardswish",   "hardtanh",    "isinf",      "isnan",
    "le",           "leaky_relu",  "log",         "log10",      "log1p",
    "log2",         "logical_and", "logical_not", "logical_or", "logical_xor",
    "lt",           "masked_fill", "maximum",     "minimum",    "mul",
    "ne",           "neg",         "pow",         "reciprocal", "relu",
    "remainder",    "round",       "rsqrt",       "rsub",       "sigmoid",
    "sign",         "sin",         "sinh",        "sqrt",       "sub",
    "tan",          "tanh",        "trunc",       "where"};

/// ATen's naming of an in-place operator (torchgen's BaseOperatorName): a
/// trailing `_` (`add_`, `index_put_`), or an augmented assignment's
/// dunder (`__iand__`, while `__and__` is functional).
static bool isInPlaceName(StringRef base) {
  if (!base.starts_with("__") || !base.ends_with("__"))
    return base.ends_with("_");
  StringRef dunder = base.drop_front(2).drop_back(2);
  static constexpr llvm::StringLiteral kAugmented[] = {
      "add", "sub", "mul", "div", "truediv", "floordiv", "mod",
      "pow", "and", "or",  "xor", "lshift",  "rshift",   "matmul"};
  return dunder.consume_front("i") && llvm::is_contained(kAugmented, dunder);
}

KernelSharing emit::getKernelSharing(StringRef name) {
  if (name == "executorch_prim::et_view")
    return KernelSharing::View;
  auto [space, base] = name.rsplit("::");
  if (base.empty())
    return KernelSharing::None;
  if (isInPlaceName(base))
    return KernelSharing::InPlace;
  if (space == "aten" &&
      std::binary_search(std::begin(kElementwiseOperators),
                         std::end(kElementwiseOperators), base))
    return KernelSharing::Elementwise;
  return KernelSharing::None;
}

namespace {
/// Reads a method's instructions in order, filling in its data flow.
class UseReader {
public:
  UseReader(const MethodModel &method, MethodDataFlow &uses,
            ArrayRef<const delegate::CallArguments *> delegateArguments)
      : method(method), valueCount(method.getValueCount()), uses(uses),
        delegateArguments(delegateArguments) {}
  void run();

private:
  /// Calls `fn` on `index` and, for a list of tensors, on its items.
  template <typename Fn>
  void forEachTensor(int64_t index, Fn fn) const;
  /// Names `index` at the current instruction (a list's items take the
  /// list's lifetime once every instruction is read: giveItemsListLifetimes).
  void name(int64_t index);
  /// Notes that the current instruction writes the tensor `index` or, for a
  /// list, its items (up to kMaxListWrites items in all).
  void write(int64_t index);
  /// Notes that the current instruction reads `index`, unless it writes it
  /// (among its writes from `writesBegin` on).
  void read(int64_t index, size_t writesBegin);
  void giveItemsListLifetimes();
  void readInstruction(const InstructionModel &instruction,
                       SmallVectorImpl<std::pair<uint32_t, uint32_t>> &loops);
  void readKernelCall(const InstructionModel &call);
  void readDelegateCall(const InstructionModel &call);
  /// Marks in `writes` the arguments of `call` that `known` says its
  /// backend writes.
  void markKnownWrites(const delegate::CallArguments &known,
                       ArrayRef<int32_t> args, SmallVectorImpl<bool> &writes);
  /// Marks in `writes` the arguments the emitter's layout makes a call's
  /// outputs: the longest run at its end of arguments first named here,
  /// given by nobody and no view of a tensor holding data.
  void markTrailingWrites(ArrayRef<int32_t> args,
                          SmallVectorImpl<bool> &writes);
  void markGiven();
  /// Where a planned tensor value lies: its buffer, offset, bytes and
  /// scalar type; none for another value.
  std::optional<std::tuple<uint32_t, uint64_t, uint64_t, int32_t>>
  getPlacement(uint32_t value) const;
  /// The tensor that holds data on the bytes of `value` (a planned tensor
  /// no instruction wrote yet, given by nobody) with its size and type but
  /// another shape: the base of a view the emitter elided (a static view
  /// reshapes; a tensor of the same shape on those bytes reuses them);
  /// none otherwise.
  std::optional<uint32_t> findElidedBase(uint32_t value);
  /// Brings `holders` up to the current instruction: the given tensors,
  /// then each write before it. Only a question about a view asks, so a
  /// method without one pays no placement reads.
  void syncHolders();
  void noteHolder(uint32_t value);
  /// After the current instruction: its reads that are elided views get
  /// their base; what it writes is written from now on.
  void trackViews();
  void extendSignature();
  /// The values named before the current instruction are those whose
  /// lifetime starts before it.
  bool namedBefore(uint32_t value) const {
    return uses.lifetimes[value].first < current;
  }
  void extendOverLoops(ArrayRef<std::pair<uint32_t, uint32_t>> loops);

  const MethodModel &method;
  uint32_t valueCount;
  MethodDataFlow &uses;
  ArrayRef<const delegate::CallArguments *> delegateArguments;
  /// Per operator, how its kernel shares its result's bytes.
  std::vector<KernelSharing> sharingOf;
  /// The tensor that last held data at each place (buffer, offset), as of
  /// the writes before `holdersSynced` (an index into `uses.written`).
  llvm::DenseMap<std::pair<uint32_t, uint64_t>, uint32_t> holders;
  size_t holdersSynced = 0;
  bool givenHeld = false;
  /// The values an instruction before the current one wrote, and those
  /// looked at as views already.
  llvm::BitVector writtenBefore, viewChecked;
  uint32_t current = 0;
  uint64_t listWrites = 0;
};
} // namespace

/// The most list items written the reader records: a file that names one
/// long list as the result of every call costs no more than this.
static constexpr uint64_t kMaxListWrites = uint64_t(1) << 24;

template <typename Fn>
void UseReader::forEachTensor(int64_t index, Fn fn) const {
  if (index < 0 || index >= static_cast<int64_t>(valueCount))
    return;
  fn(static_cast<uint32_t>(index));
  for (int32_t item : method.getValue(index).getItems())
    if (item >= 0 && static_cast<uint32_t>(item) < valueCount)
      fn(static_cast<uint32_t>(item));
}

void UseReader::name(int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(valueCount))
    return;
  Lifetime &lifetime = uses.lifetimes[index];
  lifetime.first = std::min(lifetime.first, current);
  lifetime.last = std::max(lifetime.last, current);
}

void UseReader::write(int64_t index) {
  forEachTensor(index, [&](uint32_t value) {
    if (value != index && ++listWrites > kMaxListWrites)
      return;
    if (method.getValueKind(value) == ValueKind::Tensor)
      uses.written.push_back(value);
  });
}

void UseReader::read(int64_t index, size_t writesBegin) {
  if (index < 0 || index >= static_cast<int64_t>(valueCount))
    return;
  auto writes = ArrayRef<uint32_t>(uses.written).drop_front(writesBegin);
  if (!llvm::is_contained(writes, static_cast<uint32_t>(index)))
    uses.read.push_back(index);
}

void UseReader::giveItemsListLifetimes() {
  for (auto [index, lifetime] : llvm::enumerate(uses.lifetimes)) {
    if (lifetime.first > lifetime.last)
      continue;
    Lifetime list = lifetime;
    forEachTensor(index, [&](uint32_t item) {
      Lifetime &own = uses.lifetimes[item];
      own.first = std::min(own.first, list.first);
      own.last = std::max(own.last, list.last);
    });
  }
}

void UseReader::readKernelCall(const InstructionModel &call) {
  InstructionUse &use = uses.instructions[current];
  if (call.callee >= 0)
    use.sharing = sharingOf[call.callee];
  ArrayRef<int32_t> args = call.args;
  if (args.empty())
    return;
  for (int32_t arg : args) {
    if (use.firstTensorArgument < 0 && arg >= 0 &&
        static_cast<uint32_t>(arg) < valueCount &&
        method.getValueKind(arg) == ValueKind::Tensor)
      use.firstTensorArgument = arg;
    name(arg);
  }
  size_t writesBegin = uses.written.size();
  write(args.back());
  auto written = ArrayRef<uint32_t>(uses.written).drop_front(writesBegin);
  auto isWritten = [&](int32_t arg) {
    return arg == args.back() ||
           (arg >= 0 && llvm::is_contained(written, uint32_t(arg)));
  };
  // The emitter passes an out variant's out arguments again before what it
  // returns: those are written, not read. An in-place call reads the
  // `self` it returns; an argument an out variant also writes to (`x` in
  // `add.out(x, x, out=x)`) is read.
  ArrayRef<int32_t> reads = args.drop_back();
  if (use.sharing != KernelSharing::InPlace)
    while (!reads.empty() && isWritten(reads.back()))
      reads = reads.drop_back();
  for (int32_t arg : reads)
    read(arg, uses.written.size());
}

void UseReader::markKnownWrites(const delegate::CallArguments &known,
                                ArrayRef<int32_t> args,
                                SmallVectorImpl<bool> &writes) {
  // The positions the payload counts: every argument, or its tensors.
  SmallVector<uint32_t> counted;
  for (auto [position, arg] : llvm::enumerate(args))
    if (known.counting == delegate::CallArguments::Counting::Arguments ||
        (arg >= 0 && static_cast<uint32_t>(arg) < valueCount &&
         method.getValueKind(arg) == ValueKind::Tensor))
      counted.push_back(position);
  for (uint32_t output : known.outputs) {
    uint64_t at = output;
    if (known.outputsFromEnd) {
      if (known.outputs.size() > counted.size())
        continue;
      at += counted.size() - known.outputs.size();
    }
    if (at < counted.size())
      writes[counted[at]] = true;
  }
}

void UseReader::markTrailingWrites(ArrayRef<int32_t> args,
                                   SmallVectorImpl<bool> &writes) {
  for (unsigned position = args.size(); position > 0; --position) {
    int32_t arg = args[position - 1];
    if (arg < 0 || static_cast<uint32_t>(arg) >= valueCount ||
        namedBefore(arg) || uses.given.test(arg) || findElidedBase(arg))
      return;
    writes[position - 1] = true;
  }
}

void UseReader::readDelegateCall(const InstructionModel &call) {
  ArrayRef<int32_t> args = call.args;
  SmallVector<bool> writes(args.size(), false);
  const delegate::CallArguments *known =
      call.callee >= 0 &&
              static_cast<size_t>(call.callee) < delegateArguments.size()
          ? delegateArguments[call.callee]
          : nullptr;
  if (known)
    markKnownWrites(*known, args, writes);
  else
    markTrailingWrites(args, writes);
  for (auto [position, arg] : llvm::enumerate(args)) {
    if (writes[position])
      write(arg);
    name(arg);
  }
  size_t writesBegin = uses.instructions[current].writesBegin;
  for (auto [position, arg] : llvm::enumerate(args))
    if (!writes[position])
      read(arg, writesBegin);
}

std::optional<std::tuple<uint32_t, uint64_t, uint64_t, int32_t>>
UseReader::getPlacement(uint32_t value) const {
  if (!method.isPlannedTensor(value))
    return std::nullopt;
  std::optional<TensorModel> tensor = method.getTensor(value);
  if (!tensor || !tensor->planned)
    return std::nullopt;
  std::optional<uint64_t> bytes = tensor->getBytes();
  if (!bytes)
    return std::nullopt;
  return std::make_tuple(tensor->memoryId, tensor->offset, *bytes,
                         tensor->rawScalarType);
}

std::optional<uint32_t> UseReader::findElidedBase(uint32_t value) {
  if (writtenBefore.test(value) || uses.given.test(value))
    return std::nullopt;
  auto placement = getPlacement(value);
  if (!placement)
    return std::nullopt;
  syncHolders();
  auto holder =
      holders.find({std::get<0>(*placement), std::get<1>(*placement)});
  if (holder == holders.end() || holder->second == value ||
      getPlacement(holder->second) != placement ||
      method.getTensor(value)->getSizes() ==
          method.getTensor(holder->second)->getSizes())
    return std::nullopt;
  return holder->second;
}

void UseReader::noteHolder(uint32_t value) {
  if (auto placement = getPlacement(value))
    holders[{std::get<0>(*placement), std::get<1>(*placement)}] = value;
}

void UseReader::syncHolders() {
  if (!givenHeld)
    for (unsigned value : uses.given.set_bits())
      noteHolder(value);
  givenHeld = true;
  size_t end = uses.instructions[current].writesBegin;
  for (; holdersSynced < end; ++holdersSynced)
    noteHolder(uses.written[holdersSynced]);
}

void UseReader::trackViews() {
  // Each value (a list with its items) is looked at once, where it is
  // first read: a list read by every call costs its items once. Only a
  // planned tensor no one wrote yet can be a view.
  auto check = [&](uint32_t value) {
    if (viewChecked.test(value))
      return;
    viewChecked.set(value);
    if (!method.isPlannedTensor(value))
      return;
    if (std::optional<uint32_t> base = findElidedBase(value))
      uses.viewOf[value] = *base;
  };
  for (uint32_t read : uses.getReads(current)) {
    ValueKind kind = method.getValueKind(read);
    if (kind == ValueKind::Tensor) {
      check(read);
    } else if ((kind == ValueKind::TensorList ||
                kind == ValueKind::OptionalTensorList) &&
               !viewChecked.test(read)) {
      viewChecked.set(read);
      for (int32_t item : method.getValue(read).getItems())
        if (item >= 0 && static_cast<uint32_t>(item) < valueCount)
          check(item);
    }
  }
  for (uint32_t value : uses.getWrites(current))
    writtenBefore.set(value);
}

void UseReader::extendOverLoops(ArrayRef<std::pair<uint32_t, uint32_t>> loops) {
  // Overlapping loops are one loop; then one pass extends every value.
  SmallVector<std::pair<uint32_t, uint32_t>> merged(loops);
  llvm::sort(merged);
  SmallVector<std::pair<uint32_t, uint32_t>> disjoint;
  for (auto loop : merged) {
    if (!disjoint.empty() && loop.first <= disjoint.back().second)
      disjoint.back().second = std::max(disjoint.back().second, loop.second);
    else
      disjoint.push_back(loop);
  }
  // The loops a lifetime meets are a run of the sorted disjoint loops;
  // extended over them, it meets no other.
  for (Lifetime &lifetime : uses.lifetimes) {
    if (lifetime.first > lifetime.last)
      continue;
    auto begin = llvm::partition_point(
        disjoint, [&](auto loop) { return loop.second < lifetime.first; });
    auto end = std::partition_point(begin, disjoint.end(), [&](auto loop) {
      return loop.first <= lifetime.last;
    });
    if (begin == end)
      continue;
    lifetime.first = std::min(lifetime.first, begin->first);
    lifetime.last = std::max(lifetime.last, std::prev(end)->second);
  }
}

void UseReader::markGiven() {
  for (uint32_t index : method.getMutableBuffers())
    uses.persistent.set(index);
  uses.given = uses.persistent;
  for (int32_t input : method.getInputs())
    if (input >= 0 && static_cast<uint32_t>(input) < valueCount)
      uses.given.set(input);
  // A list given is its items given (each list once, however often named).
  for (unsigned list : llvm::to_vector(uses.given.set_bits()))
    forEachTensor(list, [&](uint32_t item) { uses.given.set(item); });
}

void UseReader::readInstruction(
    const InstructionModel &instruction,
    SmallVectorImpl<std::pair<uint32_t, uint32_t>> &loops) {
  InstructionUse &use = uses.instructions[current];
  use.writesBegin = uses.written.size();
  use.readsBegin = uses.read.size();
  switch (instruction.kind) {
  case InstructionKind::Kernel:
    return readKernelCall(instruction);
  case InstructionKind::Delegate:
    return readDelegateCall(instruction);
  case InstructionKind::JumpFalse: {
    name(instruction.first);
    read(instruction.first, uses.written.size());
    uint32_t destination = static_cast<uint32_t>(instruction.second);
    uint32_t chainBegin = current - instruction.index;
    if (destination < method.getInstructionCount(instruction.chain) &&
        chainBegin + destination <= current)
      loops.push_back({chainBegin + destination, current});
    return;
  }
  case InstructionKind::Move:
    // The destination becomes the source's value: no byte is written.
    name(instruction.first);
    name(instruction.second);
    return read(instruction.first, uses.written.size());
  case InstructionKind::Free:
    return name(instruction.first);
  case InstructionKind::Unknown:
    return;
  }
}

void UseReader::extendSignature() {
  uint32_t end = uses.instructionCount ? uses.instructionCount - 1 : 0;
  for (int32_t input : method.getInputs())
    if (input >= 0 && static_cast<uint32_t>(input) < valueCount) {
      uses.lifetimes[input].first = 0;
      uses.lifetimes[input].last = std::max(uses.lifetimes[input].last, 0u);
    }
  for (int32_t output : method.getOutputs())
    if (output >= 0 && static_cast<uint32_t>(output) < valueCount) {
      uses.lifetimes[output].first =
          std::min(uses.lifetimes[output].first, end);
      uses.lifetimes[output].last = end;
    }
  for (unsigned value : uses.persistent.set_bits())
    uses.lifetimes[value] = {0, end};
}

void UseReader::run() {
  for (const OperatorModel &op : method.getOperators())
    sharingOf.push_back(getKernelSharing(op.name));
  uses.lifetimes.assign(valueCount, Lifetime());
  uses.persistent.resize(valueCount);
  uses.viewOf.assign(valueCount, MethodDataFlow::kNoView);
  writtenBefore.resize(valueCount);
  viewChecked.resize(valueCount);
  markGiven();
  uses.instructionCount = method.getInstructions().size();
  uses.instructions.resize(uses.instructionCount + 1);
  SmallVector<std::pair<uint32_t, uint32_t>> loops;
  for (const InstructionModel &instruction : method.getInstructions()) {
    readInstruction(instruction, loops);
    // Its writes and reads end where the next instruction's begin.
    uses.instructions[current + 1].writesBegin = uses.written.size();
    uses.instructions[current + 1].readsBegin = uses.read.size();
    trackViews();
    ++current;
  }
  // A value some instruction writes after a read is no elided view.
  for (unsigned value : writtenBefore.set_bits())
    uses.viewOf[value] = MethodDataFlow::kNoView;
  extendSignature();
  giveItemsListLifetimes();
  uses.lastNamed.reserve(valueCount);
  for (const Lifetime &lifetime : uses.lifetimes)
    uses.lastNamed.push_back(lifetime.last);
  // The method returns its outputs: they outlive every instruction.
  for (int32_t output : method.getOutputs())
    forEachTensor(output, [&](uint32_t value) {
      uses.lastNamed[value] = MethodDataFlow::kAfterLast;
    });
  extendOverLoops(loops);
}

MethodDataFlow emit::computeDataFlow(
    const MethodModel &method,
    ArrayRef<const delegate::CallArguments *> delegateArguments) {
  MethodDataFlow uses;
  UseReader(method, uses, delegateArguments).run();
  return uses;
}
