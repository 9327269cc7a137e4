//===- ProgramModel.cpp - A readable program, resolved once ---------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/ProgramModel.h"

#include "emit/File/ProgramFile.h"
#include "emit/File/ReadScalars.h"
#include "emit/File/program_generated.h"

#include <cassert>

using namespace emit;
namespace fb = executorch_flatbuffer;

StringRef emit::getInstructionKindName(InstructionKind kind) {
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
  case InstructionKind::Unknown:
    break;
  }
  return "other";
}

InstructionKind emit::getInstructionKind(const fb::Instruction &instruction) {
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
    return InstructionKind::Unknown;
  }
}

StringRef emit::getValueKindName(ValueKind kind) {
  switch (kind) {
  case ValueKind::Null:
    return "null";
  case ValueKind::Int:
    return "int";
  case ValueKind::Bool:
    return "bool";
  case ValueKind::Double:
    return "double";
  case ValueKind::Tensor:
    return "tensor";
  case ValueKind::String:
    return "string";
  case ValueKind::IntList:
    return "int_list";
  case ValueKind::DoubleList:
    return "double_list";
  case ValueKind::BoolList:
    return "bool_list";
  case ValueKind::TensorList:
    return "tensor_list";
  case ValueKind::OptionalTensorList:
    return "optional_tensor_list";
  case ValueKind::Unknown:
    break;
  }
  return "invalid";
}

static ValueKind getValueKind(fb::KernelTypes type) {
  switch (type) {
  case fb::KernelTypes::Null:
    return ValueKind::Null;
  case fb::KernelTypes::Int:
    return ValueKind::Int;
  case fb::KernelTypes::Bool:
    return ValueKind::Bool;
  case fb::KernelTypes::Double:
    return ValueKind::Double;
  case fb::KernelTypes::Tensor:
    return ValueKind::Tensor;
  case fb::KernelTypes::String:
    return ValueKind::String;
  case fb::KernelTypes::IntList:
    return ValueKind::IntList;
  case fb::KernelTypes::DoubleList:
    return ValueKind::DoubleList;
  case fb::KernelTypes::BoolList:
    return ValueKind::BoolList;
  case fb::KernelTypes::TensorList:
    return ValueKind::TensorList;
  case fb::KernelTypes::OptionalTensorList:
    return ValueKind::OptionalTensorList;
  default:
    return ValueKind::Unknown;
  }
}

template <typename T>
static ArrayRef<T> arrayOf(const flatbuffers::Vector<T> *vector) {
  return vector ? ArrayRef<T>(vector->data(), vector->size()) : ArrayRef<T>();
}

static StringRef stringOf(const flatbuffers::String *string) {
  return string ? StringRef(string->c_str(), string->size()) : StringRef();
}

/// `index` if it is one of `count` entries, else kNone.
static int32_t resolve(int64_t index, size_t count) {
  return index >= 0 && static_cast<uint64_t>(index) < count
             ? static_cast<int32_t>(index)
             : kNone;
}

//===----------------------------------------------------------------------===//
// MethodModel
//===----------------------------------------------------------------------===//

static void setItems(ValueModel &model, ArrayRef<int32_t> items) {
  model.itemData = items.data();
  model.itemCount = items.size();
}

ValueModel MethodModel::getValue(uint32_t index) const {
  ValueModel model;
  model.kind = kinds[index];
  const fb::EValue *value = plan->values()->Get(index);
  if (const auto *list = value->val_as_TensorList())
    setItems(model, arrayOf(list->items()));
  else if (const auto *list = value->val_as_OptionalTensorList())
    setItems(model, arrayOf(list->items()));
  else if (const auto *list = value->val_as_IntList())
    model.itemCount = arrayOf(list->items()).size();
  else if (const auto *list = value->val_as_DoubleList())
    model.itemCount = arrayOf(list->items()).size();
  else if (const auto *list = value->val_as_BoolList())
    model.itemCount = arrayOf(list->items()).size();
  return model;
}

/// The model of `tensor`, a table of a verified flatbuffer.
static TensorModel readTensor(const fb::Tensor &tensor) {
  TensorModel model;
  model.table = &tensor;
  model.rawScalarType = static_cast<int32_t>(tensor.scalar_type());
  model.scalarType =
      et::symbolizeScalarType(static_cast<uint32_t>(model.rawScalarType));
  if (const fb::AllocationDetails *allocation = tensor.allocation_info()) {
    model.planned = true;
    model.memoryId = allocation->memory_id();
    model.offset = getPlannedOffset(*allocation);
  }
  model.dataIndex = tensor.data_buffer_idx();
  if (const fb::ExtraTensorInfo *info = tensor.extra_tensor_info())
    model.external = info->location() == fb::TensorDataLocation::EXTERNAL;
  model.dynamic = tensor.shape_dynamism() != fb::TensorShapeDynamism::STATIC;
  return model;
}

StringRef MethodModel::getBufferDeviceName(uint32_t memoryId) const {
  for (const BufferDeviceModel &device : bufferDevices)
    if (device.buffer == static_cast<int64_t>(memoryId))
      if (auto type =
              et::symbolizeDeviceType(static_cast<uint32_t>(device.deviceType)))
        return et::stringifyDeviceType(*type);
  return "cpu";
}

std::optional<TensorModel> MethodModel::getTensor(uint32_t value) const {
  if (value >= kinds.size() || kinds[value] != ValueKind::Tensor)
    return std::nullopt;
  return readTensor(*plan->values()->Get(value)->val_as_Tensor());
}

std::optional<uint32_t> MethodModel::getSlot(int64_t chain,
                                             int64_t instruction) const {
  if (chain < 0 || chain >= getChainCount() || instruction < 0 ||
      instruction >= getInstructionCount(chain))
    return std::nullopt;
  return chainStarts[chain] + instruction;
}

const OperatorModel *
MethodModel::getOperator(const InstructionModel &instruction) const {
  if (instruction.kind != InstructionKind::Kernel || instruction.callee < 0)
    return nullptr;
  return &operators[instruction.callee];
}

const DelegateModel *
MethodModel::getDelegate(const InstructionModel &instruction) const {
  if (instruction.kind != InstructionKind::Delegate || instruction.callee < 0)
    return nullptr;
  return &delegates[instruction.callee];
}

StringRef MethodModel::getCallee(const InstructionModel &instruction) const {
  if (const OperatorModel *op = getOperator(instruction))
    return op->qualifiedName;
  if (const DelegateModel *delegate = getDelegate(instruction))
    return delegate->backend;
  return "";
}

std::optional<uint64_t> TensorModel::getBytes() const {
  if (!scalarType)
    return std::nullopt;
  return et::getTensorByteSize(*scalarType, getSizes());
}

ArrayRef<int32_t> TensorModel::getSizes() const {
  return arrayOf(table->sizes());
}

ArrayRef<uint8_t> TensorModel::getDimOrder() const {
  return arrayOf(table->dim_order());
}

StringRef TensorModel::getName() const {
  const fb::ExtraTensorInfo *info = table->extra_tensor_info();
  return info ? stringOf(info->fully_qualified_name()) : StringRef();
}

int32_t TensorModel::getDeviceType() const {
  const fb::ExtraTensorInfo *info = table->extra_tensor_info();
  return info ? static_cast<int32_t>(info->device_type()) : kCpuDevice;
}

const void *MethodModel::getValueLocation(uint32_t value) const {
  return plan->values()->Get(value);
}

const void *
MethodModel::getInstructionLocation(const InstructionModel &instruction) const {
  return plan->chains()
      ->Get(instruction.chain)
      ->instructions()
      ->Get(instruction.index);
}

const void *MethodModel::getBufferSizeLocation(uint32_t memoryId) const {
  return plan->non_const_buffer_sizes()->Data() + sizeof(int64_t) * memoryId;
}

//===----------------------------------------------------------------------===//
// Building a method's model
//===----------------------------------------------------------------------===//

namespace emit {
/// Reads one execution plan of a readable program into its model.
class MethodModelBuilder {
public:
  MethodModelBuilder(const fb::Program &program, const fb::ExecutionPlan &plan,
                     MethodModel &method)
      : program(program), plan(plan), method(method) {}
  void run();

private:
  void readValues();
  void readOperators();
  void readDelegates();
  uint64_t getPayloadBytes(const fb::BackendDelegateDataReference &data) const;
  void readInstructions();
  InstructionModel readInstruction(const fb::Instruction &instruction) const;

  const fb::Program &program;
  const fb::ExecutionPlan &plan;
  MethodModel &method;
};
} // namespace emit

void MethodModelBuilder::run() {
  method.plan = &plan;
  method.name = stringOf(plan.name());
  readValues();
  readOperators();
  readDelegates();
  readInstructions();
  method.inputs = arrayOf(plan.inputs());
  method.outputs = arrayOf(plan.outputs());
  // Copied out: a file may leave its 8-byte sizes unaligned.
  method.bufferSizes = readScalars(plan.non_const_buffer_sizes());
  if (const auto *devices = plan.non_const_buffer_device())
    for (const fb::NonConstBufferDevice *device : *devices)
      method.bufferDevices.push_back(
          {device->buffer_idx(), static_cast<int32_t>(device->device_type()),
           device->device_index()});
}

void MethodModelBuilder::readValues() {
  if (!plan.values())
    return;
  method.kinds.reserve(plan.values()->size());
  method.planned.resize(plan.values()->size());
  for (const fb::EValue *value : *plan.values()) {
    // A value whose table is missing (the file does not read) is of no
    // kind a view can read.
    method.kinds.push_back(value->val() ||
                                   value->val_type() == fb::KernelTypes::Null
                               ? getValueKind(value->val_type())
                               : ValueKind::Unknown);
    if (method.kinds.back() != ValueKind::Tensor)
      continue;
    // Counted off the table: the model reads the tensor when asked.
    const fb::Tensor &tensor = *value->val_as_Tensor();
    const fb::ExtraTensorInfo *info = tensor.extra_tensor_info();
    bool external =
        info && info->location() == fb::TensorDataLocation::EXTERNAL;
    if (!tensor.allocation_info()) {
      method.externalConstants += external;
      continue;
    }
    ++method.plannedTensors;
    method.planned.set(method.kinds.size() - 1);
    if (tensor.data_buffer_idx() > 0)
      method.mutableBuffers.push_back(method.kinds.size() - 1);
  }
}

void MethodModelBuilder::readOperators() {
  if (!plan.operators())
    return;
  for (const fb::Operator *op : *plan.operators()) {
    OperatorModel model;
    model.name = stringOf(op->name());
    model.overload = stringOf(op->overload());
    model.hasName = op->name() != nullptr;
    model.qualifiedName = model.name.str();
    StringRef kernel = model.name;
    size_t separator = kernel.rfind("::");
    if (separator != StringRef::npos)
      kernel = kernel.drop_front(separator + 2);
    model.kernelName = kernel.str();
    if (!model.overload.empty()) {
      model.qualifiedName += "." + model.overload.str();
      model.kernelName += "." + model.overload.str();
    }
    method.operators.push_back(std::move(model));
  }
}

uint64_t MethodModelBuilder::getPayloadBytes(
    const fb::BackendDelegateDataReference &data) const {
  if (data.location() == fb::DataLocation::SEGMENT) {
    const auto *segments = program.segments();
    return segments && data.index() < segments->size()
               ? segments->Get(data.index())->size()
               : 0;
  }
  const auto *inlined = program.backend_delegate_data();
  if (!inlined || data.index() >= inlined->size())
    return 0;
  const auto *bytes = inlined->Get(data.index())->data();
  return bytes ? bytes->size() : 0;
}

void MethodModelBuilder::readDelegates() {
  if (!plan.delegates())
    return;
  for (const fb::BackendDelegate *delegate : *plan.delegates()) {
    DelegateModel model;
    model.backend = stringOf(delegate->id());
    model.hasId = delegate->id() != nullptr;
    if (const fb::BackendDelegateDataReference *data = delegate->processed()) {
      model.inSegment = data->location() == fb::DataLocation::SEGMENT;
      model.dataIndex = data->index();
      model.payloadBytes = getPayloadBytes(*data);
    }
    if (const auto *specs = delegate->compile_specs()) {
      model.hasCompileSpecs = true;
      for (const fb::CompileSpec *spec : *specs) {
        const auto *value = spec->value();
        model.compileSpecs.push_back(
            {stringOf(spec->key()),
             value ? StringRef(reinterpret_cast<const char *>(value->data()),
                               value->size())
                   : StringRef()});
      }
    }
    method.delegates.push_back(std::move(model));
  }
}

InstructionModel
MethodModelBuilder::readInstruction(const fb::Instruction &instruction) const {
  InstructionModel model;
  model.kind = instruction.instr_args() ? getInstructionKind(instruction)
                                        : InstructionKind::Unknown;
  switch (model.kind) {
  case InstructionKind::Kernel: {
    const fb::KernelCall *call = instruction.instr_args_as_KernelCall();
    model.callee = resolve(call->op_index(), method.operators.size());
    model.args = arrayOf(call->args());
    break;
  }
  case InstructionKind::Delegate: {
    const fb::DelegateCall *call = instruction.instr_args_as_DelegateCall();
    model.callee = resolve(call->delegate_index(), method.delegates.size());
    model.args = arrayOf(call->args());
    break;
  }
  case InstructionKind::Move: {
    const fb::MoveCall *move = instruction.instr_args_as_MoveCall();
    model.first = move->move_from();
    model.second = move->move_to();
    break;
  }
  case InstructionKind::JumpFalse: {
    const fb::JumpFalseCall *jump = instruction.instr_args_as_JumpFalseCall();
    model.first = jump->cond_value_index();
    model.second = jump->destination_instruction();
    break;
  }
  case InstructionKind::Free:
    model.first = instruction.instr_args_as_FreeCall()->value_index();
    break;
  case InstructionKind::Unknown:
    break;
  }
  return model;
}

void MethodModelBuilder::readInstructions() {
  method.chainStarts.push_back(0);
  if (!plan.chains())
    return;
  size_t count = 0;
  for (const fb::Chain *chain : *plan.chains())
    count += chain->instructions() ? chain->instructions()->size() : 0;
  method.instructions.reserve(count);
  for (auto [chainIndex, chain] : llvm::enumerate(*plan.chains())) {
    if (const auto *instructions = chain->instructions())
      for (auto [index, instruction] : llvm::enumerate(*instructions)) {
        InstructionModel model = readInstruction(*instruction);
        model.chain = chainIndex;
        model.index = index;
        method.kernelCalls += model.kind == InstructionKind::Kernel;
        method.delegateCalls += model.kind == InstructionKind::Delegate;
        method.instructions.push_back(model);
      }
    method.chainStarts.push_back(method.instructions.size());
  }
}

//===----------------------------------------------------------------------===//
// ProgramModel
//===----------------------------------------------------------------------===//

ProgramModel::ProgramModel(const ProgramFile &file)
    : ProgramModel(file, [](StringRef) { return true; }) {}

ProgramModel::ProgramModel(const ProgramFile &file,
                           llvm::function_ref<bool(StringRef)> wanted)
    : file(file) {
  const fb::Program *program = file.getProgram();
  assert(program && "modelling a file whose flatbuffer does not verify");
  readConstantStores(*program);
  if (const auto *named = program->named_data())
    namedDataKeys = named->size();
  if (!program->execution_plan())
    return;
  fileMethods = program->execution_plan()->size();
  for (auto [index, plan] : llvm::enumerate(*program->execution_plan())) {
    if (!wanted(stringOf(plan->name())))
      continue;
    MethodModel &method = methods.emplace_back();
    method.index = index;
    MethodModelBuilder(*program, *plan, method).run();
  }
}

ProgramModel::ProgramModel(const ProgramModel &all,
                           llvm::function_ref<bool(StringRef)> wanted)
    : file(all.file), fileMethods(all.fileMethods), stores(all.stores),
      namedDataKeys(all.namedDataKeys) {
  for (const MethodModel &method : all.methods)
    if (wanted(method.getName()))
      methods.push_back(method);
}

/// `table`, a table of offsets into one of `segments`.
template <typename Segments>
static SubsegmentModel readSubsegment(const fb::SubsegmentOffsets &table,
                                      const Segments *segments) {
  SubsegmentModel model;
  model.segmentIndex = table.segment_index();
  if (segments && model.segmentIndex < segments->size())
    model.segmentBytes = segments->Get(model.segmentIndex)->size();
  model.offsets = arrayOf(table.offsets());
  return model;
}

void ProgramModel::readConstantStores(const fb::Program &program) {
  const auto *segments = program.segments();
  const fb::SubsegmentOffsets *segment = program.constant_segment();
  if (segment)
    stores.constantSegment = readSubsegment(*segment, segments);
  stores.findingOffset =
      segment ? file.offsetOf(segment) : file.offsetOf(&program);
  if (const auto *buffers = program.constant_buffer()) {
    stores.hasConstantBuffer = true;
    stores.constantBuffer.reserve(buffers->size());
    for (const fb::Buffer *buffer : *buffers)
      stores.constantBuffer.push_back(
          buffer->storage() ? std::optional<uint64_t>(buffer->storage()->size())
                            : std::nullopt);
  }
  if (const auto *mutables = program.mutable_data_segments())
    for (const fb::SubsegmentOffsets *table : *mutables)
      stores.mutableSegments.push_back(readSubsegment(*table, segments));
}

StringRef ProgramModel::getPayload(const DelegateModel &entry) const {
  if (!entry.inSegment) {
    const auto *inlined = file.getProgram()->backend_delegate_data();
    if (!inlined || entry.dataIndex >= inlined->size() ||
        !inlined->Get(entry.dataIndex)->data())
      return "";
    const auto *data = inlined->Get(entry.dataIndex)->data();
    return StringRef(reinterpret_cast<const char *>(data->data()),
                     data->size());
  }
  if (entry.dataIndex >= file.getSegmentCount() || file.getSegmentBase() == 0)
    return "";
  SegmentPlacement segment = file.getSegmentPlacement(entry.dataIndex);
  StringRef bytes = file.getBytes();
  uint64_t start = file.getSegmentBase() + segment.offset;
  if (start < file.getSegmentBase() || start > bytes.size())
    return "";
  return bytes.substr(start,
                      std::min<uint64_t>(segment.size, bytes.size() - start));
}

const MethodModel *ProgramModel::getMethod(StringRef name) const {
  for (const MethodModel &method : methods)
    if (method.getName() == name)
      return &method;
  return nullptr;
}

LogicalResult emit::checkMethodsExist(const ProgramModel &model,
                                      ArrayRef<std::string> names,
                                      std::string &error) {
  for (const std::string &name : names)
    if (!model.getMethod(name)) {
      error =
          ("'" + model.getFile().getName() + "' has no method '" + name + "'")
              .str();
      return failure();
    }
  return success();
}
