//===- MethodChecks.cpp - A .pte's methods ----------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Each method's tables, in the order the runtime loads them: its values
// (with the dialect's invariants on each tensor and list), operators,
// delegate entries, chains of instructions, and its inputs and outputs.
//
//===----------------------------------------------------------------------===//

#include "ProgramChecker.h"

#include "emit/File/ProgramModel.h"
#include "emit/Support/Layout.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;

//===----------------------------------------------------------------------===//
// Methods
//===----------------------------------------------------------------------===//

/// The last kernel call of `plan` in the order the runtime loads them.
static const void *findLastKernelCall(const fb::ExecutionPlan *plan) {
  const auto *chains = plan->chains();
  for (unsigned chain = chains->size(); chain-- > 0;) {
    const auto *instructions = chains->Get(chain)->instructions();
    if (!instructions)
      continue;
    for (unsigned index = instructions->size(); index-- > 0;)
      if (const auto *call =
              instructions->Get(index)->instr_args_as_KernelCall())
        return call;
  }
  return nullptr;
}

LogicalResult ProgramChecker::checkMethod(const fb::ExecutionPlan *plan,
                                          unsigned planIndex) {
  // Every finding from here is of this method.
  sink.setMethod(planIndex);
  LogicalResult result = checkMethodContents(plan, planIndex);
  sink.setMethod(std::nullopt);
  sink.setSite({});
  return result;
}

LogicalResult ProgramChecker::checkMethodContents(const fb::ExecutionPlan *plan,
                                                  unsigned planIndex) {
  std::string where = ("execution_plan[" + Twine(planIndex) + "]").str();
  if (failed(checkMethodTables(plan, where)))
    return failure();
  StringRef name = plan->name()->string_view();
  where = (where + " '" + name + "'").str();
  if (failed(checkMethodAttributes(plan, where)))
    return failure();
  lastKernelCall = findLastKernelCall(plan);
  operatorCount = plan->operators() ? plan->operators()->size() : 0;
  delegateCount = plan->delegates()->size();
  // Each table is read whole, whatever fails before it.
  bool allRead = succeeded(checkMethodBuffers(plan, where));
  allRead &= succeeded(checkMethodSymbol(plan, planIndex, name));
  allRead &= succeeded(checkValues(plan, where));
  // The operator and delegate tables as they are, entries no instruction
  // uses included: the runtime resolves and initializes every one.
  allRead &= succeeded(checkOperators(plan, where));
  allRead &= succeeded(checkDelegates(plan, where));
  for (auto [index, chain] : llvm::enumerate(*plan->chains()))
    allRead &= succeeded(
        checkChain(chain, index, where + ".chains[" + Twine(index) + "]"));
  allRead &= succeeded(checkValueIndices(plan->inputs(), Check::MethodIOIndex,
                                         where + ".inputs"));
  allRead &= succeeded(checkValueIndices(plan->outputs(), Check::MethodIOIndex,
                                         where + ".outputs"));
  return success(allRead);
}

LogicalResult ProgramChecker::checkMethodTables(const fb::ExecutionPlan *plan,
                                                const Twine &where) {
  auto missing = [&](StringRef field) -> LogicalResult {
    return error(field == "name" ? Check::MethodName : Check::MissingTable,
                 offsetOf(plan), where + "." + field)
           << "the method has no " << field << ", which the runtime requires";
  };
  if (!plan->name())
    return missing("name");
  if (!plan->values())
    return missing("values");
  if (!plan->inputs())
    return missing("inputs");
  if (!plan->outputs())
    return missing("outputs");
  if (!plan->chains() || plan->chains()->size() == 0)
    return missing("chains");
  if (!plan->delegates())
    return missing("delegates");
  if (!plan->non_const_buffer_sizes() ||
      plan->non_const_buffer_sizes()->size() == 0)
    return missing("non_const_buffer_sizes");
  return success();
}

LogicalResult
ProgramChecker::checkMethodAttributes(const fb::ExecutionPlan *plan,
                                      const Twine &where) {
  methodBuffers = readScalars(plan->non_const_buffer_sizes());
  const auto *devices = plan->non_const_buffer_device();
  if (!devices)
    return success();
  for (auto [index, device] : llvm::enumerate(*devices))
    if (!symbolizeDeviceType(static_cast<int32_t>(device->device_type())))
      return error(Check::BufferDevice, offsetOf(device),
                   where + ".non_const_buffer_device[" + Twine(index) +
                       "].device_type")
             << "device type " << static_cast<int>(device->device_type())
             << " is not valid";
  return success();
}

LogicalResult ProgramChecker::checkMethodSymbol(const fb::ExecutionPlan *plan,
                                                unsigned planIndex,
                                                StringRef name) {
  std::string where = ("execution_plan[" + Twine(planIndex) + "].name").str();
  auto [it, inserted] = methodNames.try_emplace(name, planIndex);
  if (!inserted)
    return error(Check::MethodName, offsetOf(plan), where)
               .setRuntime(RuntimeLoad::Loads)
               .invariant()
           << "method name '" << name << "' is also execution_plan["
           << it->second << "]'s; the runtime finds only the first by name";
  // The importer names the blobs of segments and inline data.
  unsigned index = 0;
  for (auto [prefix, count] :
       {std::pair<StringRef, size_t>{layout::kSegmentBlobPrefix,
                                     segmentBlobs.size()},
        {layout::kInlineBlobPrefix, inlineBlobs.size()}}) {
    StringRef rest = name;
    if (rest.consume_front(prefix) && !rest.getAsInteger(10, index) &&
        index < count && Twine(index).str() == rest)
      return error(Check::MethodName, offsetOf(plan), where)
                 .setRuntime(RuntimeLoad::Loads)
                 .invariant()
             << "method name '" << name
             << "' is the name emit gives a blob of this program; emit "
                "cannot import it";
  }
  return success();
}

/// No device plans more memory than this: a buffer larger is a corrupt size
/// the runtime fails to allocate (MemoryAllocationFailed).
constexpr int64_t kMaxPlannedBufferBytes = int64_t(1) << 40;

LogicalResult ProgramChecker::checkMethodBuffers(const fb::ExecutionPlan *plan,
                                                 const Twine &where) {
  et::Problem problem = et::getMethodBuffersProblem(methodBuffers);
  bool reserved = methodBuffers.empty() || methodBuffers.front() != 0;
  if (failed(reportInvariant(problem, MethodOp::getOperationName(),
                             reserved ? Check::ReservedBufferSize
                                      : Check::ProgramInvariant,
                             plan, where)))
    return failure();
  // What the import takes as it is but no runtime can load: a finding
  // that does not stop the import.
  for (auto [index, size] : llvm::enumerate(methodBuffers))
    if (size > kMaxPlannedBufferBytes)
      (void)(error(Check::PlannedBufferSize, offsetOf(plan),
                   where + ".non_const_buffer_sizes[" + Twine(index) + "]")
                 .importIgnores()
             << "planned buffer " << index << " is " << size
             << " bytes, more than any device has; the runtime fails to "
                "allocate it");
  return success();
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

ProgramChecker::ValueKind
ProgramChecker::getValueKind(const fb::EValue *value) {
  switch (value->val_type()) {
  case fb::KernelTypes::Null:
    return {NullOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Int:
    return {IntOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Bool:
    return {BoolOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Double:
    return {DoubleOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::String:
    return {StringOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::Tensor:
    return {TensorOp::getOperationName(),
            symbolizeScalarType(
                static_cast<int32_t>(value->val_as_Tensor()->scalar_type()))};
  case fb::KernelTypes::IntList:
    return {IntListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::DoubleList:
    return {DoubleListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::BoolList:
    return {BoolListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::TensorList:
    return {TensorListOp::getOperationName(), std::nullopt};
  case fb::KernelTypes::OptionalTensorList:
    return {OptionalTensorListOp::getOperationName(), std::nullopt};
  default:
    return {};
  }
}

LogicalResult ProgramChecker::checkValues(const fb::ExecutionPlan *plan,
                                          const Twine &where) {
  // Values first, in index order; list items may name later values, so
  // they are checked once every value is.
  valueCount = plan->values()->size();
  valueKinds.clear();
  // At once: growing it a value at a time copies and faults in far more.
  valueKinds.reserve(valueCount);
  PendingItems pending;
  bool allRead = true;
  for (auto [index, value] : llvm::enumerate(*plan->values())) {
    sink.setSite({std::nullopt, std::nullopt, uint32_t(index)});
    // A Twine: the path is spelled out only for a finding.
    bool read = succeeded(checkValue(
        value, where + ".values[" + Twine(index) + "]", index, pending));
    valueKinds.push_back(read ? getValueKind(value) : ValueKind());
    // A tensor that breaks an invariant is still a tensor to the lists and
    // jumps that name it.
    if (read && value->val_type() == fb::KernelTypes::Tensor)
      allRead &= succeeded(
          checkTensorInvariants(value->val_as_Tensor(), *valueKinds.back().type,
                                where + ".values[" + Twine(index) + "]"));
    allRead &= read;
  }
  sink.setSite({});
  return success(succeeded(checkListItems(plan, pending, where)) && allRead);
}

LogicalResult ProgramChecker::checkValue(const fb::EValue *value,
                                         const Twine &where, uint32_t index,
                                         PendingItems &pending) {
  fb::KernelTypes type = value->val_type();
  if (type != fb::KernelTypes::Null && type != fb::KernelTypes::NONE &&
      !value->val())
    return error(Check::Value, offsetOf(value), where)
           << "the value of type " << fb::EnumNameKernelTypes(type)
           << " is missing";
  switch (type) {
  case fb::KernelTypes::NONE:
    return error(Check::Value, offsetOf(value), where)
           << "the value has no type (tag NONE); None is written as Null";
  case fb::KernelTypes::Tensor:
    return checkTensor(value->val_as_Tensor(), where);
  case fb::KernelTypes::IntList:
  case fb::KernelTypes::DoubleList:
  case fb::KernelTypes::BoolList:
  case fb::KernelTypes::TensorList:
  case fb::KernelTypes::OptionalTensorList:
    addPendingList(value, index, pending);
    return success();
  case fb::KernelTypes::Null:
  case fb::KernelTypes::Int:
  case fb::KernelTypes::Bool:
  case fb::KernelTypes::Double:
  case fb::KernelTypes::String:
    return success();
  }
  return error(Check::Value, offsetOf(value), where)
         << "unknown value type " << static_cast<int>(type);
}

void ProgramChecker::addPendingList(const fb::EValue *value, uint32_t index,
                                    PendingItems &pending) {
  switch (value->val_type()) {
  case fb::KernelTypes::IntList:
    pending.intLists.push_back({IntListOp::getOperationName(),
                                value->val_as_IntList()->items(), index});
    return;
  case fb::KernelTypes::TensorList:
    pending.lists.push_back({TensorListOp::getOperationName(),
                             value->val_as_TensorList()->items(), index});
    return;
  case fb::KernelTypes::OptionalTensorList:
    pending.lists.push_back({OptionalTensorListOp::getOperationName(),
                             value->val_as_OptionalTensorList()->items(),
                             index});
    return;
  default:
    return; // Doubles and bools name no value.
  }
}

LogicalResult ProgramChecker::checkTensor(const fb::Tensor *tensor,
                                          const Twine &where) {
  if (!symbolizeScalarType(static_cast<int32_t>(tensor->scalar_type())))
    return error(Check::Tensor, offsetOf(tensor), where + ".scalar_type")
           << "scalar type " << static_cast<int32_t>(tensor->scalar_type())
           << " is not a valid ExecuTorch scalar type";
  if (!tensor->sizes() || !tensor->dim_order())
    return error(Check::Tensor, offsetOf(tensor), where)
           << "a tensor needs both sizes and dim_order";
  if (tensor->storage_offset() != 0)
    return error(Check::Tensor, offsetOf(tensor), where + ".storage_offset")
           << "storage_offset is " << tensor->storage_offset()
           << "; the runtime requires 0";
  if (!symbolizeShapeDynamism(static_cast<int32_t>(tensor->shape_dynamism())))
    return error(Check::Tensor, offsetOf(tensor), where + ".shape_dynamism")
               .setRuntime(RuntimeLoad::Loads) // It never reads the field.
           << "shape dynamism "
           << static_cast<int32_t>(tensor->shape_dynamism()) << " is not valid";
  return checkTensorPlacement(tensor, where);
}

LogicalResult ProgramChecker::checkTensorPlacement(const fb::Tensor *tensor,
                                                   const Twine &where) {
  if (const fb::AllocationDetails *allocation = tensor->allocation_info()) {
    uint64_t offset = getPlannedOffset(*allocation);
    if (allocation->memory_id() > uint32_t(INT32_MAX) ||
        offset > uint64_t(INT64_MAX))
      return error(Check::TensorPlacement, offsetOf(allocation),
                   where + ".allocation_info")
             << "memory id " << allocation->memory_id() << " or offset "
             << offset << " is out of range";
  }
  const fb::ExtraTensorInfo *extra = tensor->extra_tensor_info();
  if (extra &&
      (!symbolizeTensorDataLocation(static_cast<int32_t>(extra->location())) ||
       !symbolizeDeviceType(static_cast<int32_t>(extra->device_type()))))
    return error(Check::TensorPlacement, offsetOf(extra),
                 where + ".extra_tensor_info")
               .setRuntime(RuntimeLoad::Loads) // It reads neither as an enum.
           << "location " << static_cast<int32_t>(extra->location())
           << " or device type " << static_cast<int32_t>(extra->device_type())
           << " is not valid";
  // The runtime copies a planned tensor's initial data out of the mutable
  // data segments, which it cannot do without segment data.
  bool external =
      extra && extra->location() == fb::TensorDataLocation::EXTERNAL;
  if (tensor->allocation_info() && tensor->data_buffer_idx() && !external)
    if (std::optional<std::string> why = whyNoSegmentData())
      return error(Check::TensorPlacement, offsetOf(tensor),
                   where + ".data_buffer_idx")
             << "the tensor's initial data is in mutable_data_segments, but "
             << *why << ", so the runtime loads no segment (NotFound)";
  return success();
}

LogicalResult ProgramChecker::checkTensorInvariants(const fb::Tensor *tensor,
                                                    ScalarType type,
                                                    const Twine &where) {
  SmallVector<int32_t> sizes = readScalars(tensor->sizes());
  SmallVector<int32_t> dimOrder(tensor->dim_order()->begin(),
                                tensor->dim_order()->end());
  StringRef name = TensorOp::getOperationName();
  const Check invariant = Check::ProgramInvariant;
  if (failed(reportInvariant(et::getTensorShapeProblem(sizes, dimOrder), name,
                             invariant, tensor, where)))
    return failure();
  std::optional<uint64_t> bytes = getTensorByteSize(type, sizes);
  const fb::AllocationDetails *allocation = tensor->allocation_info();
  if (allocation &&
      failed(reportInvariant(et::getPlannedTensorProblem(
                                 static_cast<int32_t>(allocation->memory_id()),
                                 getPlannedOffset(*allocation), bytes,
                                 methodBuffers),
                             name, invariant, tensor, where)))
    return failure();
  const fb::ExtraTensorInfo *extra = tensor->extra_tensor_info();
  if (!tensor->data_buffer_idx() || !tensorData ||
      (extra && extra->location() == fb::TensorDataLocation::EXTERNAL))
    return success(); // External data is found by name at load.
  return reportInvariant(
      et::getTensorDataProblem(tensor->data_buffer_idx(), allocation,
                               extra ? extra->mutable_data_segments_idx() : 0,
                               bytes, *tensorData),
      name, invariant, tensor, where);
}

LogicalResult ProgramChecker::checkListItems(const fb::ExecutionPlan *plan,
                                             const PendingItems &pending,
                                             const Twine &where) {
  // An item of the wrong kind is a finding at the list's value.
  auto checkKind = [&](const auto &list, unsigned position, int64_t index) {
    if (valueKinds[index].op.empty())
      return success(); // A value that failed has its own finding.
    StringRef item = valueKinds[index].op;
    const fb::EValue *value = plan->values()->Get(list.valueIndex);
    return reportInvariant(et::getListItemProblem(list.listOp, position, item),
                           list.listOp, Check::ListInvariant, value,
                           where + ".values[" + Twine(list.valueIndex) + "]");
  };
  bool allFound = true;
  auto check = [&](const auto &list) {
    sink.setSite({std::nullopt, std::nullopt, list.valueIndex});
    bool optional = list.listOp == OptionalTensorListOp::getOperationName();
    for (auto [position, index] : llvm::enumerate(readScalars(list.items))) {
      if (optional && index == -1)
        continue;
      // A Twine: the path is spelled out only for an error.
      allFound &= succeeded(checkValueIndex(
                      index, list.items, Check::ListItemIndex,
                      where + ".values[" + Twine(list.valueIndex) + "].items[" +
                          Twine(position) + "]")) &&
                  succeeded(checkKind(list, position, index));
    }
  };
  for (const PendingList<int32_t> &list : pending.lists)
    check(list);
  for (const PendingList<int64_t> &list : pending.intLists)
    check(list);
  sink.setSite({});
  return success(allFound);
}

LogicalResult ProgramChecker::checkValueIndex(int64_t index, const void *table,
                                              Check check, const Twine &where) {
  if (index >= 0 && static_cast<uint64_t>(index) < valueCount)
    return success();
  FindingReport report = error(check, offsetOf(table), where);
  report << "value index " << index << " is out of range (" << valueCount
         << " values)";
  // What loading lets through, emit-verify says what running does.
  if (check == Check::MethodIOIndex)
    report.detail("; the runtime loads this, and setting or reading it "
                  "when the method runs reads value " +
                  Twine(index) + " of " + Twine(valueCount));
  else if (check == Check::ChainIOIndex)
    report.detail("; the runtime loads this and never reads it");
  return report;
}

template <typename T>
LogicalResult
ProgramChecker::checkValueIndices(const flatbuffers::Vector<T> *indices,
                                  Check check, const Twine &where) {
  if (!indices)
    return success();
  bool allFound = true;
  for (auto [position, index] : llvm::enumerate(readScalars(indices)))
    allFound &= succeeded(checkValueIndex(index, indices, check,
                                          where + "[" + Twine(position) + "]"));
  return success(allFound);
}

//===----------------------------------------------------------------------===//
// Operators and delegates
//===----------------------------------------------------------------------===//

LogicalResult ProgramChecker::checkOperators(const fb::ExecutionPlan *plan,
                                             const Twine &where) {
  const auto *table = plan->operators();
  if (!table)
    return success();
  // Loading a method keeps the result of resolving only its last kernel
  // call's operator (method.cpp, delayed_error).
  const auto *last = static_cast<const fb::KernelCall *>(lastKernelCall);
  bool allRead = true;
  for (auto [index, op] : llvm::enumerate(*table)) {
    std::string at = (where + ".operators[" + Twine(index) + "]").str();
    if (!op->name()) {
      FindingReport report =
          error(Check::OperatorName, offsetOf(op), at + ".name");
      report << "the operator has no name";
      if (last && last->op_index() == static_cast<int32_t>(index))
        report.setRuntime(RuntimeLoad::Rejects);
      allRead = false;
    } else if (failed(reportInvariant(
                   et::getOperatorProblem(op->name()->string_view()),
                   OperatorOp::getOperationName(), Check::ProgramInvariant, op,
                   at))) {
      allRead = false;
    }
  }
  return success(allRead);
}

LogicalResult ProgramChecker::checkDelegates(const fb::ExecutionPlan *plan,
                                             const Twine &where) {
  bool allRead = true;
  for (auto [index, delegate] : llvm::enumerate(*plan->delegates())) {
    // Only findings read it: spelled only for one (a program can have an
    // entry per call).
    auto at = [&, index = index] {
      return (where + ".delegates[" + Twine(index) + "]").str();
    };
    bool read = succeeded(checkDelegate(delegate, at));
    allRead &= read;
    if (read)
      allRead &= succeeded(reportInvariant(
          et::getDelegateProblem(delegate->id()->string_view()),
          DelegateOp::getOperationName(), Check::ProgramInvariant, delegate,
          where + ".delegates[" + Twine(index) + "]"));
  }
  return success(allRead);
}

LogicalResult ProgramChecker::checkDelegate(const fb::BackendDelegate *delegate,
                                            function_ref<std::string()> at) {
  if (!delegate->id())
    return error(Check::DelegateId, offsetOf(delegate), at() + ".id")
           << "the delegate has no backend id";
  if (!delegate->processed())
    return error(Check::DelegateProcessed, offsetOf(delegate),
                 at() + ".processed")
           << "the delegate has no payload reference";
  if (failed(checkDelegatePayload(delegate, at)))
    return failure();
  const auto *list = delegate->compile_specs();
  if (!list)
    return success();
  for (auto [specIndex, spec] : llvm::enumerate(*list))
    if (!spec->key() || !spec->value())
      return error(Check::CompileSpec, offsetOf(spec),
                   at() + ".compile_specs[" + Twine(specIndex) + "]")
             << "a compile spec needs both a key and a value";
  return success();
}

LogicalResult
ProgramChecker::checkDelegatePayload(const fb::BackendDelegate *delegate,
                                     function_ref<std::string()> at) {
  const fb::BackendDelegateDataReference *processed = delegate->processed();
  uint32_t dataIndex = processed->index();
  if (processed->location() == fb::DataLocation::SEGMENT) {
    if (dataIndex >= segmentBlobs.size())
      return error(Check::DelegateDataIndex, offsetOf(processed),
                   at() + ".processed.index")
             << "segment index " << dataIndex << " is out of range ("
             << segmentBlobs.size() << " segments)";
    if (std::optional<std::string> why = whyNoSegmentData())
      return error(Check::SegmentWithoutData, offsetOf(processed),
                   at() + ".processed")
             << "a segment reference, but " << *why
             << ", so the runtime loads no segment (NotFound)";
    segmentBlobs.setNamed(dataIndex);
    return success();
  }
  if (processed->location() == fb::DataLocation::INLINE) {
    if (dataIndex >= inlineBlobs.size())
      return error(program->backend_delegate_data()
                       ? Check::DelegateDataIndex
                       : Check::DelegateInlineTable,
                   offsetOf(processed), at() + ".processed.index")
             << "inline data index " << dataIndex << " is out of range ("
             << inlineBlobs.size() << " backend_delegate_data entries)";
    inlineBlobs.setNamed(dataIndex);
    return success();
  }
  return error(Check::DelegateDataLocation, offsetOf(processed),
               at() + ".processed.location")
         << "unknown data location " << static_cast<int>(processed->location());
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

LogicalResult ProgramChecker::checkChain(const fb::Chain *chain,
                                         uint32_t chainIndex,
                                         const Twine &where) {
  if (!chain->instructions())
    return error(Check::Instruction, offsetOf(chain), where + ".instructions")
           << "the chain has no instructions list";
  bool allRead = succeeded(checkValueIndices(
      chain->inputs(), Check::ChainIOIndex, where + ".inputs"));
  allRead &= succeeded(checkValueIndices(chain->outputs(), Check::ChainIOIndex,
                                         where + ".outputs"));
  const auto *instructions = chain->instructions();
  for (auto [index, instruction] : llvm::enumerate(*instructions)) {
    sink.setSite({chainIndex, uint32_t(index), std::nullopt});
    // A Twine: the path is spelled out only for an error.
    allRead &= succeeded(checkInstruction(
        instruction, where + ".instructions[" + Twine(index) + "]",
        instructions->size()));
  }
  sink.setSite({});
  return success(allRead);
}

LogicalResult
ProgramChecker::checkInstruction(const fb::Instruction *instruction,
                                 const Twine &at, uint32_t size) {
  if (!instruction->instr_args())
    return error(Check::Instruction, offsetOf(instruction), at + ".instr_args")
           << "the instruction's arguments are missing";
  const Check index = Check::InstructionValueIndex;
  switch (getInstructionKind(*instruction)) {
  case InstructionKind::Kernel: {
    const fb::KernelCall *call = instruction->instr_args_as_KernelCall();
    return checkCall(call, call->op_index(), operatorCount, /*kernel=*/true,
                     "op_index", at);
  }
  case InstructionKind::Delegate: {
    const fb::DelegateCall *call = instruction->instr_args_as_DelegateCall();
    return checkCall(call, call->delegate_index(), delegateCount,
                     /*kernel=*/false, "delegate_index", at);
  }
  case InstructionKind::Move: {
    const fb::MoveCall *move = instruction->instr_args_as_MoveCall();
    bool from = succeeded(
        checkValueIndex(move->move_from(), move, index, at + ".move_from"));
    bool to = succeeded(
        checkValueIndex(move->move_to(), move, index, at + ".move_to"));
    return success(from && to);
  }
  case InstructionKind::JumpFalse:
    return checkJump(instruction, at, size);
  case InstructionKind::Free: {
    const fb::FreeCall *free = instruction->instr_args_as_FreeCall();
    return checkValueIndex(free->value_index(), free, index,
                           at + ".value_index");
  }
  case InstructionKind::Unknown:
    break;
  }
  return error(Check::Instruction, offsetOf(instruction),
               at + ".instr_args_type")
         << "unknown instruction type "
         << static_cast<int>(instruction->instr_args_type());
}

LogicalResult ProgramChecker::checkJump(const fb::Instruction *instruction,
                                        const Twine &at, uint32_t size) {
  const fb::JumpFalseCall *jump = instruction->instr_args_as_JumpFalseCall();
  if (failed(checkValueIndex(jump->cond_value_index(), jump,
                             Check::InstructionValueIndex,
                             at + ".cond_value_index")))
    return failure();
  int32_t destination = jump->destination_instruction();
  if (destination < 0 || static_cast<uint32_t>(destination) >= size)
    return error(Check::JumpDestination, offsetOf(jump),
                 at + ".destination_instruction")
               .detail("; the runtime loads this, and a jump taken there runs "
                       "past the chain's instructions")
           << "destination " << destination << " is outside the chain (" << size
           << " instructions)";
  ValueKind kind = valueKinds[jump->cond_value_index()];
  if (kind.op.empty())
    return success();
  return reportInvariant(et::getJumpConditionProblem(kind.op, kind.type),
                         JumpFalseOp::getOperationName(),
                         Check::ProgramInvariant, instruction, at);
}

template <typename CallTy>
LogicalResult ProgramChecker::checkCall(const CallTy *call, int32_t index,
                                        uint32_t count, bool kernel,
                                        StringRef field, const Twine &at) {
  if (index < 0 || static_cast<uint32_t>(index) >= count) {
    StringRef callee = kernel ? "operator" : "delegate";
    FindingReport report =
        error(kernel ? Check::OperatorIndex : Check::DelegateIndex,
              offsetOf(call), at + "." + field);
    report << callee << " index " << index << " is out of range (" << count
           << " " << callee << "s)";
    // Loading a method resolves every kernel call's operator, but keeps
    // only the last call's result (method.cpp, delayed_error); a delegate
    // index is first followed when the call runs.
    if (kernel && static_cast<const void *>(call) == lastKernelCall)
      report.setRuntime(RuntimeLoad::Rejects);
    else
      report.detail("; the runtime loads this, and running the method reads "
                    "past its " +
                    callee + " table");
    return report;
  }
  if (!call->args())
    return error(Check::Instruction, offsetOf(call), at + ".args")
           << "the call has no args";
  return checkValueIndices(call->args(), Check::InstructionValueIndex,
                           at + ".args");
}
