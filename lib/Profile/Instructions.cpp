//===- Instructions.cpp - What a program says of an instruction -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The file layer has checked the program; indices are bounds-checked here
// all the same, since a readable file may still hold what the runtime only
// refuses when it runs.
//
//===----------------------------------------------------------------------===//

#include "Instructions.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/program_generated.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace emit;
using namespace emit::profile;
namespace fb = executorch_flatbuffer;

template <typename T>
static const T *getAt(const flatbuffers::Vector<flatbuffers::Offset<T>> *list,
                      int64_t index) {
  if (!list || index < 0 || index >= static_cast<int64_t>(list->size()))
    return nullptr;
  return list->Get(index);
}

static const fb::Instruction *getInstruction(const fb::ExecutionPlan &plan,
                                             uint32_t chain,
                                             uint32_t instruction) {
  const fb::Chain *found = getAt(plan.chains(), chain);
  return found ? getAt(found->instructions(), instruction) : nullptr;
}

static InstructionKind getKind(const fb::Instruction &instruction) {
  switch (instruction.instr_args_type()) {
  case fb::InstructionArguments::KernelCall:
    return InstructionKind::Kernel;
  case fb::InstructionArguments::DelegateCall:
    return InstructionKind::Delegate;
  case fb::InstructionArguments::MoveCall:
    return InstructionKind::Move;
  case fb::InstructionArguments::JumpFalseCall:
    return InstructionKind::JumpFalse;
  case fb::InstructionArguments::FreeCall:
    return InstructionKind::Free;
  default:
    return InstructionKind::Other;
  }
}

static StringRef getKindName(InstructionKind kind) {
  switch (kind) {
  case InstructionKind::Kernel:
    return "kernel";
  case InstructionKind::Delegate:
    return "delegate";
  case InstructionKind::Move:
    return "move";
  case InstructionKind::JumpFalse:
    return "jump_false";
  case InstructionKind::Free:
    return "free";
  case InstructionKind::Other:
    break;
  }
  return "other";
}

static const fb::Operator *getOperator(const fb::ExecutionPlan &plan,
                                       const fb::Instruction &instruction) {
  const fb::KernelCall *call = instruction.instr_args_as_KernelCall();
  return call ? getAt(plan.operators(), call->op_index()) : nullptr;
}

static std::string getKernelName(const fb::ExecutionPlan &plan,
                                 const fb::Instruction &instruction) {
  const fb::Operator *op = getOperator(plan, instruction);
  if (!op || !op->name())
    return "";
  StringRef name = op->name()->string_view();
  size_t separator = name.rfind("::");
  if (separator != StringRef::npos)
    name = name.drop_front(separator + 2);
  std::string kernel = name.str();
  if (op->overload() && op->overload()->size())
    kernel += "." + op->overload()->str();
  return kernel;
}

/// A kernel call's operator (`aten::add.out`) or a delegate call's backend.
static std::string getCalleeName(const fb::ExecutionPlan &plan,
                                 const fb::Instruction &instruction) {
  if (const fb::Operator *op = getOperator(plan, instruction)) {
    std::string name = op->name() ? op->name()->str() : "";
    if (op->overload() && op->overload()->size())
      name += "." + op->overload()->str();
    return name;
  }
  const fb::DelegateCall *call = instruction.instr_args_as_DelegateCall();
  const fb::BackendDelegate *delegate =
      call ? getAt(plan.delegates(), call->delegate_index()) : nullptr;
  return delegate && delegate->id() ? delegate->id()->str() : "";
}

MethodInstructions::MethodInstructions(const fb::ExecutionPlan &plan)
    : plan(plan), name(plan.name() ? plan.name()->str() : "") {
  chainStarts.push_back(0);
  if (const auto *chains = plan.chains())
    for (const fb::Chain *chain : *chains) {
      if (const auto *instructions = chain->instructions())
        for (const fb::Instruction *instruction : *instructions) {
          kinds.push_back(::getKind(*instruction));
          kernelNames.push_back(getKernelName(plan, *instruction));
          callees.push_back(getCalleeName(plan, *instruction));
        }
      chainStarts.push_back(kinds.size());
    }
}

std::optional<uint64_t> MethodInstructions::getSlot(int64_t chain,
                                                    int64_t instruction) const {
  if (chain < 0 || chain >= getChainCount() || instruction < 0 ||
      instruction >= getInstructionCount(chain))
    return std::nullopt;
  return chainStarts[chain] + instruction;
}

/// The kind of instruction the runtime names an event after.
static std::optional<InstructionKind> getEventKind(StringRef name) {
  return llvm::StringSwitch<std::optional<InstructionKind>>(name)
      .Case("OPERATOR_CALL", InstructionKind::Kernel)
      .Case("DELEGATE_CALL", InstructionKind::Delegate)
      .Case("MOVE_CALL", InstructionKind::Move)
      .Case("JF_CALL", InstructionKind::JumpFalse)
      .Case("FREE_CALL", InstructionKind::Free)
      .Default(std::nullopt);
}

std::optional<std::string>
MethodInstructions::whyNot(StringRef name, bool delegateEvent, int64_t chain,
                           int64_t instruction) const {
  if (chain < 0 || chain >= getChainCount())
    return ("chain " + Twine(chain) + " is past the method's " +
            Twine(getChainCount()) + " chain(s)")
        .str();
  std::optional<uint64_t> slot = getSlot(chain, instruction);
  if (!slot)
    return ("instruction " + Twine(instruction) + " is past chain " +
            Twine(chain) + " (" + Twine(getInstructionCount(chain)) +
            " instructions)")
        .str();
  InstructionKind kind = kinds[*slot];
  std::optional<InstructionKind> expected =
      delegateEvent ? InstructionKind::Delegate : getEventKind(name);
  if (name.consume_front("native_call_")) {
    expected = InstructionKind::Kernel;
    StringRef kernel = kernelNames[*slot];
    if (kind == InstructionKind::Kernel && kernel != name)
      return ("instruction " + Twine(instruction) + " of chain " +
              Twine(chain) + " calls " + kernel + ", not " + name)
          .str();
  }
  if (expected && *expected != kind)
    return ("instruction " + Twine(instruction) + " of chain " + Twine(chain) +
            " is a " + getKindName(kind) + " call, not a " +
            getKindName(*expected) + " call")
        .str();
  return std::nullopt;
}

static std::string getScalarTypeName(int32_t type) {
  if (auto known = et::symbolizeScalarType(static_cast<uint32_t>(type)))
    return et::stringifyScalarType(*known).str();
  return std::to_string(type);
}

static Operand describeValue(const fb::ExecutionPlan &plan, int32_t index) {
  Operand operand{
      static_cast<uint32_t>(index), "invalid", "", {}, 0, std::nullopt, 0};
  const fb::EValue *value = getAt(plan.values(), index);
  if (!value)
    return operand;
  operand.kind =
      llvm::StringSwitch<std::string>(
          fb::EnumNameKernelTypes(value->val_type()))
          .Case("OptionalTensorList", "optional_tensor_list")
          .Case("TensorList", "tensor_list")
          .Case("IntList", "int_list")
          .Case("DoubleList", "double_list")
          .Case("BoolList", "bool_list")
          .Default(llvm::StringRef(fb::EnumNameKernelTypes(value->val_type()))
                       .lower());
  const fb::Tensor *tensor = value->val_as_Tensor();
  if (!tensor)
    return operand;
  auto type = static_cast<int32_t>(tensor->scalar_type());
  operand.dtype = getScalarTypeName(type);
  SmallVector<int32_t> sizes;
  if (tensor->sizes())
    sizes.assign(tensor->sizes()->begin(), tensor->sizes()->end());
  operand.shape.assign(sizes.begin(), sizes.end());
  if (auto known = et::symbolizeScalarType(static_cast<uint32_t>(type)))
    operand.bytes = et::getTensorByteSize(*known, sizes).value_or(0);
  if (const fb::AllocationDetails *planned = tensor->allocation_info()) {
    operand.buffer = planned->memory_id();
    operand.offset = uint64_t(planned->memory_offset_high()) << 32 |
                     planned->memory_offset_low();
  }
  return operand;
}

static uint64_t getPayloadBytes(const fb::Program &program,
                                const fb::BackendDelegate &delegate) {
  const fb::BackendDelegateDataReference *processed = delegate.processed();
  if (!processed)
    return 0;
  if (processed->location() == fb::DataLocation::SEGMENT) {
    const auto *segments = program.segments();
    return segments && processed->index() < segments->size()
               ? segments->Get(processed->index())->size()
               : 0;
  }
  const fb::BackendDelegateInlineData *inlined =
      getAt(program.backend_delegate_data(), processed->index());
  return inlined && inlined->data() ? inlined->data()->size() : 0;
}

InstructionInfo MethodInstructions::describe(const fb::Program &program,
                                             uint32_t chain,
                                             uint32_t instruction) const {
  InstructionInfo info;
  const fb::Instruction *found = getInstruction(plan, chain, instruction);
  if (!found)
    return info;
  info.kind = getKindName(::getKind(*found)).str();
  const flatbuffers::Vector<int32_t> *args = nullptr;
  info.name = getCalleeName(plan, *found);
  if (const fb::KernelCall *call = found->instr_args_as_KernelCall()) {
    args = call->args();
  } else if (const fb::DelegateCall *call =
                 found->instr_args_as_DelegateCall()) {
    args = call->args();
    if (const fb::BackendDelegate *delegate =
            getAt(plan.delegates(), call->delegate_index())) {
      info.payloadBytes = getPayloadBytes(program, *delegate);
      if (const auto *specs = delegate->compile_specs())
        for (const fb::CompileSpec *spec : *specs)
          info.compileSpecs.push_back(spec->key() ? spec->key()->str() : "");
    }
  }
  if (args)
    for (int32_t arg : *args)
      info.operands.push_back(describeValue(plan, arg));
  return info;
}
