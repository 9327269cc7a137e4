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

#include "emit/File/program_generated.h"

#include "llvm/Support/MathExtras.h"

using namespace emit;
using namespace emit::memory;
namespace fb = executorch_flatbuffer;

/// The entries of a vector the file may leave out (a file the layer reads
/// has every one the runtime needs; a missing one counts none).
template <typename T>
static uint32_t sizeOf(const flatbuffers::Vector<T> *v) {
  return v ? v->size() : 0;
}

namespace {
/// MemoryAllocator::allocate over a pool whose base is 64-byte aligned:
/// every alignment the runtime asks for divides 64, so aligning the offset
/// aligns the address.
class BumpAllocator {
public:
  explicit BumpAllocator(const RuntimeTarget &target) : target(target) {}

  /// allocateList<T>(count).
  void list(RuntimeType type, uint64_t count) {
    used =
        llvm::alignTo(used, target.alignOf(type)) + count * target.sizeOf(type);
  }
  /// allocateInstance<T>().
  void instance(RuntimeType type) { list(type, 1); }
  uint64_t getUsed() const { return used; }

private:
  const RuntimeTarget &target;
  uint64_t used = 0;
};
} // namespace

/// What parse_values allocates for one value (method.cpp,
/// tensor_parser_portable.cpp, tensor_parser.h).
static void allocateValue(const fb::EValue &value, BumpAllocator &allocator) {
  using RT = RuntimeType;
  switch (value.val_type()) {
  case fb::KernelTypes::IntList:
    allocator.list(RT::EValuePointer, sizeOf(value.val_as_IntList()->items()));
    allocator.list(RT::Int64, sizeOf(value.val_as_IntList()->items()));
    allocator.instance(RT::BoxedIntList);
    return;
  case fb::KernelTypes::BoolList:
    allocator.instance(RT::BoolArrayRef);
    return;
  case fb::KernelTypes::DoubleList:
    allocator.instance(RT::DoubleArrayRef);
    return;
  case fb::KernelTypes::String:
    allocator.instance(RT::CharArrayRef);
    return;
  case fb::KernelTypes::Tensor: {
    const fb::Tensor *tensor = value.val_as_Tensor();
    uint32_t rank = sizeOf(tensor->sizes());
    // Tensors whose shape can change get their own sizes and dim order.
    if (tensor->shape_dynamism() != fb::TensorShapeDynamism::STATIC) {
      allocator.list(RT::SizesType, rank);
      allocator.list(RT::DimOrderType, rank);
    }
    allocator.list(RT::StridesType, rank);
    allocator.instance(RT::TensorImpl);
    return;
  }
  case fb::KernelTypes::TensorList: {
    uint32_t count = sizeOf(value.val_as_TensorList()->items());
    allocator.list(RT::Tensor, count);
    allocator.list(RT::EValuePointer, count);
    allocator.instance(RT::BoxedTensorList);
    return;
  }
  case fb::KernelTypes::OptionalTensorList: {
    uint32_t count = sizeOf(value.val_as_OptionalTensorList()->items());
    allocator.list(RT::EValuePointer, count);
    allocator.list(RT::OptionalTensor, count);
    allocator.instance(RT::BoxedOptionalTensorList);
    return;
  }
  default:
    // Scalars live in the EValue itself.
    return;
  }
}

/// Whether the runtime loads `tensor` from a data file (an external
/// constant: EXTERNAL and not planned).
static bool isExternalConstant(const fb::Tensor &tensor) {
  const fb::ExtraTensorInfo *info = tensor.extra_tensor_info();
  return info && info->location() == fb::TensorDataLocation::EXTERNAL &&
         !tensor.allocation_info();
}

/// Method::parse_values.
static void allocateValues(const fb::ExecutionPlan &plan,
                           BumpAllocator &allocator) {
  allocator.list(RuntimeType::EValue, sizeOf(plan.values()));
  if (sizeOf(plan.inputs()) > 0)
    allocator.list(RuntimeType::Bool, sizeOf(plan.inputs()));
  if (!plan.values())
    return;
  uint64_t externalConstants = 0;
  for (const fb::EValue *value : *plan.values())
    if (const fb::Tensor *tensor = value->val_as_Tensor())
      externalConstants += isExternalConstant(*tensor);
  if (externalConstants > 0)
    allocator.list(RuntimeType::NamedData, externalConstants);
  for (const fb::EValue *value : *plan.values())
    allocateValue(*value, allocator);
}

/// Method::init's delegates: the table, the merged data map, each entry's
/// compile specs (BackendDelegate::Init, through the backend's init
/// context, whose runtime allocator is the method allocator).
static void allocateDelegates(const fb::ExecutionPlan &plan,
                              bool mergesDataMaps, BumpAllocator &allocator) {
  allocator.list(RuntimeType::BackendDelegate, sizeOf(plan.delegates()));
  if (mergesDataMaps)
    allocator.instance(RuntimeType::MergedDataMap);
  if (!plan.delegates())
    return;
  for (const fb::BackendDelegate *delegate : *plan.delegates())
    if (delegate->compile_specs())
      allocator.list(RuntimeType::CompileSpec,
                     delegate->compile_specs()->size());
}

/// Method::init's chains: per chain its kernels and argument lists, and
/// per call the list of its arguments.
static void allocateChains(const fb::ExecutionPlan &plan,
                           BumpAllocator &allocator) {
  allocator.list(RuntimeType::Chain, sizeOf(plan.chains()));
  if (!plan.chains())
    return;
  for (const fb::Chain *chain : *plan.chains()) {
    uint32_t count = sizeOf(chain->instructions());
    allocator.list(RuntimeType::OpFunction, count);
    allocator.list(RuntimeType::InstructionArgs, count);
    if (!chain->instructions())
      continue;
    for (const fb::Instruction *instruction : *chain->instructions()) {
      if (const auto *call = instruction->instr_args_as_KernelCall())
        allocator.list(RuntimeType::EValuePointer, sizeOf(call->args()));
      else if (const auto *call = instruction->instr_args_as_DelegateCall())
        allocator.list(RuntimeType::EValuePointer, sizeOf(call->args()));
    }
  }
}

uint64_t memory::getMethodAllocatorBytes(const fb::ExecutionPlan &plan,
                                         bool mergesDataMaps,
                                         const RuntimeTarget &target) {
  BumpAllocator allocator(target);
  allocateValues(plan, allocator);
  allocateDelegates(plan, mergesDataMaps, allocator);
  allocateChains(plan, allocator);
  return allocator.getUsed();
}
