//===- MethodAllocator.cpp - What loading a method allocates --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Follows Method::load and Method::init (runtime/executor/method.cpp,
// tensor_parser_portable.cpp, tensor_parser.h at the model's revision), in
// their order: alignment padding depends on it.
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/MethodAllocator.h"

#include "emit/File/ProgramModel.h"

#include "llvm/Support/MathExtras.h"

using namespace emit;
using namespace emit::memory;

/// The entries of a vector the file may leave out (a file the layer reads
/// has every one the runtime needs; a missing one counts none).
namespace {
/// MemoryAllocator::allocate over a pool whose base is 64-byte aligned,
/// one per target: every alignment the runtime asks for divides 64, so
/// aligning the offset aligns the address.
class BumpAllocators {
public:
  explicit BumpAllocators(ArrayRef<RuntimeTarget> targets)
      : targets(targets), used(targets.size(), 0) {}

  /// allocateList<T>(count).
  void list(RuntimeType type, uint64_t count) {
    for (auto [target, bytes] : llvm::zip_equal(targets, used))
      bytes = llvm::alignTo(bytes, target.alignOf(type)) +
              count * target.sizeOf(type);
  }
  /// allocateInstance<T>().
  void instance(RuntimeType type) { list(type, 1); }
  std::vector<uint64_t> takeUsed() { return std::move(used); }

private:
  ArrayRef<RuntimeTarget> targets;
  std::vector<uint64_t> used;
};
} // namespace

/// What parse_values allocates for one value (method.cpp,
/// tensor_parser_portable.cpp, tensor_parser.h).
static void allocateValue(const MethodModel &method, uint32_t index,
                          BumpAllocators &allocator) {
  using RT = RuntimeType;
  ValueModel value = method.getValue(index);
  switch (value.kind) {
  case ValueKind::IntList:
    allocator.list(RT::EValuePointer, value.itemCount);
    allocator.list(RT::Int64, value.itemCount);
    allocator.instance(RT::BoxedIntList);
    return;
  case ValueKind::BoolList:
    allocator.instance(RT::BoolArrayRef);
    return;
  case ValueKind::DoubleList:
    allocator.instance(RT::DoubleArrayRef);
    return;
  case ValueKind::String:
    allocator.instance(RT::CharArrayRef);
    return;
  case ValueKind::Tensor: {
    TensorModel tensor = *method.getTensor(index);
    uint32_t rank = tensor.getSizes().size();
    // Tensors whose shape can change get their own sizes and dim order.
    if (tensor.dynamic) {
      allocator.list(RT::SizesType, rank);
      allocator.list(RT::DimOrderType, rank);
    }
    allocator.list(RT::StridesType, rank);
    allocator.instance(RT::TensorImpl);
    return;
  }
  case ValueKind::TensorList:
    allocator.list(RT::Tensor, value.itemCount);
    allocator.list(RT::EValuePointer, value.itemCount);
    allocator.instance(RT::BoxedTensorList);
    return;
  case ValueKind::OptionalTensorList:
    allocator.list(RT::EValuePointer, value.itemCount);
    allocator.list(RT::OptionalTensor, value.itemCount);
    allocator.instance(RT::BoxedOptionalTensorList);
    return;
  default:
    // Scalars live in the EValue itself.
    return;
  }
}

static void allocateValues(const MethodModel &method,
                           BumpAllocators &allocator) {
  uint32_t count = method.getValueCount();
  allocator.list(RuntimeType::EValue, count);
  if (!method.getInputs().empty())
    allocator.list(RuntimeType::Bool, method.getInputs().size());
  uint64_t externalConstants = method.getExternalConstantCount();
  if (externalConstants > 0)
    allocator.list(RuntimeType::NamedData, externalConstants);
  for (uint32_t index = 0; index < count; ++index)
    allocateValue(method, index, allocator);
}

static void allocateDelegates(const MethodModel &method, bool mergesDataMaps,
                              BumpAllocators &allocator) {
  allocator.list(RuntimeType::BackendDelegate, method.getDelegates().size());
  if (mergesDataMaps)
    allocator.instance(RuntimeType::MergedDataMap);
  for (const DelegateModel &delegate : method.getDelegates())
    if (delegate.hasCompileSpecs)
      allocator.list(RuntimeType::CompileSpec, delegate.compileSpecs.size());
}

static void allocateChains(const MethodModel &method,
                           BumpAllocators &allocator) {
  allocator.list(RuntimeType::Chain, method.getChainCount());
  ArrayRef<InstructionModel> instructions = method.getInstructions();
  for (uint32_t chain = 0, begin = 0; chain < method.getChainCount(); ++chain) {
    uint32_t count = method.getInstructionCount(chain);
    allocator.list(RuntimeType::OpFunction, count);
    allocator.list(RuntimeType::InstructionArgs, count);
    for (const InstructionModel &instruction : instructions.slice(begin, count))
      if (instruction.kind == InstructionKind::Kernel ||
          instruction.kind == InstructionKind::Delegate)
        allocator.list(RuntimeType::EValuePointer, instruction.args.size());
    begin += count;
  }
}

std::vector<uint64_t>
memory::getMethodAllocatorBytes(const MethodModel &method, bool mergesDataMaps,
                                ArrayRef<RuntimeTarget> targets) {
  BumpAllocators allocator(targets);
  allocateValues(method, allocator);
  allocateDelegates(method, mergesDataMaps, allocator);
  allocateChains(method, allocator);
  return allocator.takeUsed();
}
