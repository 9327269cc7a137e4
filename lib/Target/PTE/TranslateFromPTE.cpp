//===- TranslateFromPTE.cpp - Import a .pte as an et.program ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds the IR of a program file the file layer has opened and checked
// (emit/File/ProgramFile.h): every index is in range and every table the
// import needs is there, so building checks nothing. Payloads are never
// copied: blobs refer to the file, or alias it. ImportFile.cpp reports the
// file's findings as an import does, and verifies the module only when the
// file breaks one of the dialect's invariants.
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"
#include "ImportLocations.h"
#include "ImportReport.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/File/ReadScalars.h"
#include "emit/File/program_generated.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace fb = executorch_flatbuffer;

namespace {
/// Builds the module of one readable program file.
class ProgramImporter {
public:
  ProgramImporter(const ProgramFile &file, MLIRContext *context,
                  const PTEReadOptions &options, bool entryLocations)
      : file(file), program(*file.getProgram()), context(context),
        builder(context),
        fileBytes(context, file.getBuffer(), options.payloadFile),
        locations(file, context, entryLocations),
        valueType(ValueType::get(context)) {}

  OwningOpRef<ModuleOp> build(const layout::InferredSegments &segments);
  /// Verifies `module`, each error naming its entry.
  LogicalResult verify(ModuleOp module) { return locations.verify(module); }

private:
  Location locFor(const Twine &where, const void *table = nullptr) {
    return locations.locFor(where, table);
  }
  Location entryLocFor(const void *table, TablePath path) {
    return locations.entryLocFor(table, path);
  }

  //===--------------------------------------------------------------------===//
  // Program data
  //===--------------------------------------------------------------------===//

  BlobOp createBlob(StringRef name, ArrayRef<char> bytes, uint64_t alignment,
                    DataPlacement placement, Location loc);
  void buildSegments(const layout::InferredSegments &inferred);
  void buildInlineData();
  FlatSymbolRefAttr getSegmentRef(uint32_t index) {
    return FlatSymbolRefAttr::get(segmentBlobs[index].getSymNameAttr());
  }
  DenseI64ArrayAttr getOffsets(const flatbuffers::Vector<uint64_t> *offsets);
  void buildConstantSegment();
  void buildConstantBuffer();
  void buildMutableDataSegments();
  void buildNamedData();

  //===--------------------------------------------------------------------===//
  // Methods
  //===--------------------------------------------------------------------===//

  /// A list value whose items are connected once every value exists.
  struct PendingList {
    Operation *op;
    const fb::EValue *value;
  };
  /// The tables the instructions of a method refer to by index.
  struct MethodTables {
    SmallVector<Value> values, operators, delegates;
  };
  void buildMethod(const fb::ExecutionPlan *plan, unsigned planIndex);
  void setMethodAttributes(const fb::ExecutionPlan *plan, MethodOp method);
  void buildValues(const fb::ExecutionPlan *plan, unsigned planIndex,
                   SmallVectorImpl<Value> &values);
  Operation *buildValue(const fb::EValue *value, TablePath path,
                        SmallVectorImpl<PendingList> &pending);
  Operation *buildTensor(const fb::Tensor *tensor, TablePath path);
  /// Where `tensor`'s data lives: its memory plan, data index and extra
  /// information, on `op`.
  void setTensorPlacement(const fb::Tensor *tensor, TensorOp op);
  /// An `et.null`, `et.int`, `et.bool`, `et.double` or `et.string`.
  Operation *buildScalarValue(const fb::EValue *value, Location loc);
  /// A list value, whose items may come later (`pending`).
  Operation *buildListValue(const fb::EValue *value, Location loc,
                            SmallVectorImpl<PendingList> &pending);
  /// Connects the lists of `pending` to their items in `values`.
  void connectListItems(ArrayRef<PendingList> pending, ArrayRef<Value> values);
  void buildOperators(const fb::ExecutionPlan *plan, const Twine &where,
                      SmallVectorImpl<Value> &operators);
  void buildDelegates(const fb::ExecutionPlan *plan, unsigned planIndex,
                      SmallVectorImpl<Value> &delegates);
  ArrayAttr buildCompileSpecs(const fb::BackendDelegate *delegate);
  void buildChain(const fb::Chain *chain, unsigned planIndex,
                  unsigned chainIndex, const Twine &where,
                  const MethodTables &tables);
  ArrayAttr buildStacktrace(const fb::Chain *chain);
  void buildInstruction(const fb::Instruction *instruction, Location loc,
                        const MethodTables &tables);
  /// The values `indices` name.
  template <typename T>
  static SmallVector<Value> getValues(const flatbuffers::Vector<T> *indices,
                                      ArrayRef<Value> values);

  const ProgramFile &file;
  const fb::Program &program;
  MLIRContext *context;
  OpBuilder builder;
  /// Payload attributes: references to the file, or views of it.
  layout::FileBytes fileBytes;
  ImportLocations locations;
  Type valueType;
  ProgramOp programOp;
  /// The blob of each entry of `segments` and `backend_delegate_data`.
  std::vector<BlobOp> segmentBlobs, inlineBlobs;
};
} // namespace

//===----------------------------------------------------------------------===//
// Program data
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp>
ProgramImporter::build(const layout::InferredSegments &segments) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(locations.getFileLoc());
  builder.setInsertionPointToEnd(module->getBody());
  // Named after the file; "program" when reading stdin.
  std::string name = llvm::sys::path::stem(file.getName()).str();
  if (name.empty() || name.front() == '<')
    name = "program";
  programOp = compat::create<ProgramOp>(builder, locations.getFileLoc(), name);
  builder.setInsertionPointToEnd(&programOp.getBody().front());
  if (program.version() != 0)
    programOp.setVersionAttr(builder.getI32IntegerAttr(program.version()));
  // The blob tables first: the tables after them name their blobs.
  buildSegments(segments);
  buildInlineData();
  buildConstantSegment();
  buildConstantBuffer();
  buildMutableDataSegments();
  buildNamedData();
  for (auto [index, plan] : llvm::enumerate(*program.execution_plan()))
    buildMethod(plan, index);
  return module;
}

BlobOp ProgramImporter::createBlob(StringRef name, ArrayRef<char> bytes,
                                   uint64_t alignment, DataPlacement placement,
                                   Location loc) {
  return compat::create<BlobOp>(builder, loc, builder.getStringAttr(name),
                                builder.getI64IntegerAttr(alignment),
                                DataPlacementAttr::get(context, placement),
                                fileBytes.get(name, bytes));
}

void ProgramImporter::buildSegments(const layout::InferredSegments &inferred) {
  const auto *segments = program.segments();
  if (!segments)
    return;
  if (inferred.segmentAlignment)
    programOp.setSegmentAlignmentAttr(
        builder.getI64IntegerAttr(*inferred.segmentAlignment));
  for (auto [index, segment] : llvm::enumerate(*segments)) {
    std::optional<uint64_t> alignment = inferred.alignments[index];
    segmentBlobs.push_back(
        createBlob(layout::blobName(layout::kSegmentBlobPrefix, index),
                   file.getSegmentBytes(index),
                   alignment.value_or(inferred.segmentAlignment.value_or(1)),
                   DataPlacement::Segment,
                   entryLocFor(segment, {TablePath::Segment, 0, 0,
                                         static_cast<uint32_t>(index)})));
  }
}

void ProgramImporter::buildInlineData() {
  const auto *entries = program.backend_delegate_data();
  if (!entries)
    return;
  // Every inline payload is written with the file's one delegate
  // alignment, as ExecuTorch writes them.
  for (auto [index, entry] : llvm::enumerate(*entries)) {
    ArrayRef<char> bytes;
    if (const auto *data = entry->data())
      bytes = ArrayRef<char>(reinterpret_cast<const char *>(data->data()),
                             data->size());
    inlineBlobs.push_back(
        createBlob(layout::blobName(layout::kInlineBlobPrefix, index), bytes,
                   file.getInlineDataAlignment(), DataPlacement::Inline,
                   entryLocFor(entry, {TablePath::InlineData, 0, 0,
                                       static_cast<uint32_t>(index)})));
  }
}

DenseI64ArrayAttr
ProgramImporter::getOffsets(const flatbuffers::Vector<uint64_t> *offsets) {
  SmallVector<int64_t> result;
  for (uint64_t offset : readScalars(offsets))
    result.push_back(static_cast<int64_t>(offset));
  return builder.getDenseI64ArrayAttr(result);
}

void ProgramImporter::buildConstantSegment() {
  const fb::SubsegmentOffsets *constants = program.constant_segment();
  if (!constants)
    return;
  // Without an entry besides the reserved one the runtime never looks at
  // the segment index: it may lie past the segment table, kept as it is.
  FlatSymbolRefAttr blob;
  IntegerAttr unusedIndex;
  uint32_t index = constants->segment_index();
  bool hasEntries = constants->offsets() && constants->offsets()->size() > 1;
  if (hasEntries || index < segmentBlobs.size())
    blob = getSegmentRef(index);
  else if (index != 0)
    unusedIndex = builder.getUI32IntegerAttr(index);
  compat::create<ConstantSegmentOp>(
      builder, locFor("constant_segment", constants), blob,
      getOffsets(constants->offsets()), unusedIndex);
}

void ProgramImporter::buildConstantBuffer() {
  // The deprecated constant buffer, and also an empty one in a file without
  // a constant segment, so that the export does not add a segment either.
  const auto *buffers = program.constant_buffer();
  if (!(buffers && buffers->size()) && program.constant_segment())
    return;
  SmallVector<Attribute> entries;
  if (buffers)
    for (auto [index, buffer] : llvm::enumerate(*buffers)) {
      ArrayRef<char> bytes;
      if (const auto *storage = buffer->storage())
        bytes = ArrayRef<char>(reinterpret_cast<const char *>(storage->data()),
                               storage->size());
      entries.push_back(
          fileBytes.get(("constant_buffer_" + Twine(index)).str(), bytes));
    }
  IntegerAttr alignment;
  if (std::optional<uint64_t> common = file.getConstantBufferAlignment())
    alignment = builder.getI64IntegerAttr(*common);
  compat::create<ConstantBufferOp>(
      builder,
      locFor("constant_buffer", buffers ? buffers : (const void *)&program),
      builder.getArrayAttr(entries), alignment);
}

void ProgramImporter::buildMutableDataSegments() {
  const auto *mutables = program.mutable_data_segments();
  if (!mutables)
    return;
  for (auto [index, entry] : llvm::enumerate(*mutables))
    compat::create<MutableDataSegmentOp>(
        builder, locFor("mutable_data_segments[" + Twine(index) + "]", entry),
        getSegmentRef(entry->segment_index()), getOffsets(entry->offsets()));
}

void ProgramImporter::buildNamedData() {
  const auto *named = program.named_data();
  if (!named)
    return;
  if (named->size() == 0)
    programOp.setEmptyNamedData(true);
  for (auto [index, entry] : llvm::enumerate(*named))
    compat::create<NamedDataOp>(
        builder, locFor("named_data[" + Twine(index) + "]", entry),
        builder.getStringAttr(entry->key()->string_view()),
        getSegmentRef(entry->segment_index()), TensorLayoutAttr());
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

template <typename T>
SmallVector<Value>
ProgramImporter::getValues(const flatbuffers::Vector<T> *indices,
                           ArrayRef<Value> values) {
  SmallVector<Value> result;
  if (!indices)
    return result;
  result.reserve(indices->size());
  for (T index : readScalars(indices))
    result.push_back(values[index]);
  return result;
}

void ProgramImporter::setTensorPlacement(const fb::Tensor *tensor,
                                         TensorOp op) {
  if (const fb::AllocationDetails *allocation = tensor->allocation_info()) {
    uint64_t offset = getPlannedOffset(*allocation);
    op.setMemoryIdAttr(builder.getI32IntegerAttr(allocation->memory_id()));
    op.setMemoryOffsetAttr(builder.getI64IntegerAttr(offset));
  }
  if (tensor->data_buffer_idx())
    op.setDataIndexAttr(builder.getI64IntegerAttr(tensor->data_buffer_idx()));
  if (tensor->requires_grad())
    op.setRequiresGrad(true);
  if (tensor->layout())
    op.setLayoutAttr(builder.getI32IntegerAttr(tensor->layout()));
  const fb::ExtraTensorInfo *extra = tensor->extra_tensor_info();
  if (!extra)
    return;
  StringAttr fqn;
  if (const auto *name = extra->fully_qualified_name())
    fqn = builder.getStringAttr(name->string_view());
  op.setInfoAttr(TensorInfoAttr::get(
      context, extra->mutable_data_segments_idx(), fqn,
      *symbolizeTensorDataLocation(static_cast<int32_t>(extra->location())),
      *symbolizeDeviceType(static_cast<int32_t>(extra->device_type())),
      extra->device_index()));
}

Operation *ProgramImporter::buildTensor(const fb::Tensor *tensor,
                                        TablePath path) {
  SmallVector<int32_t> sizes = readScalars(tensor->sizes());
  SmallVector<int32_t> dimOrder(tensor->dim_order()->begin(),
                                tensor->dim_order()->end());
  auto op = compat::create<TensorOp>(
      builder, entryLocFor(tensor, path), valueType,
      ScalarTypeAttr::get(context, *symbolizeScalarType(static_cast<int32_t>(
                                       tensor->scalar_type()))),
      builder.getDenseI32ArrayAttr(sizes),
      builder.getDenseI32ArrayAttr(dimOrder), IntegerAttr(), IntegerAttr(),
      IntegerAttr(), UnitAttr(), IntegerAttr(), ShapeDynamismAttr(),
      TensorInfoAttr());
  auto dynamism =
      *symbolizeShapeDynamism(static_cast<int32_t>(tensor->shape_dynamism()));
  if (dynamism != ShapeDynamism::Static)
    op.setShapeDynamismAttr(ShapeDynamismAttr::get(context, dynamism));
  setTensorPlacement(tensor, op);
  return op;
}

Operation *
ProgramImporter::buildListValue(const fb::EValue *value, Location loc,
                                SmallVectorImpl<PendingList> &pending) {
  Operation *op;
  switch (value->val_type()) {
  case fb::KernelTypes::IntList:
    op = compat::create<IntListOp>(builder, loc, valueType, ValueRange());
    break;
  case fb::KernelTypes::DoubleList: {
    SmallVector<double> items =
        readScalars(value->val_as_DoubleList()->items());
    return compat::create<DoubleListOp>(builder, loc, valueType,
                                        builder.getDenseF64ArrayAttr(items));
  }
  case fb::KernelTypes::BoolList: {
    SmallVector<bool> items;
    if (const auto *list = value->val_as_BoolList()->items())
      for (uint8_t item : *list)
        items.push_back(item != 0);
    return compat::create<BoolListOp>(builder, loc, valueType,
                                      builder.getDenseBoolArrayAttr(items));
  }
  case fb::KernelTypes::TensorList:
    op = compat::create<TensorListOp>(builder, loc, valueType, ValueRange());
    break;
  case fb::KernelTypes::OptionalTensorList: {
    // Index -1 is an absent item (None), as the runtime reads it.
    SmallVector<int32_t> nones;
    for (auto [position, index] : llvm::enumerate(
             readScalars(value->val_as_OptionalTensorList()->items())))
      if (index == -1)
        nones.push_back(position);
    op = compat::create<OptionalTensorListOp>(
        builder, loc, valueType, ValueRange(),
        builder.getDenseI32ArrayAttr(nones));
    break;
  }
  default:
    llvm_unreachable("not a list value");
  }
  pending.push_back({op, value});
  return op;
}

Operation *ProgramImporter::buildValue(const fb::EValue *value, TablePath path,
                                       SmallVectorImpl<PendingList> &pending) {
  switch (value->val_type()) {
  case fb::KernelTypes::Tensor:
    // A tensor is located at its own table, so its value needs none.
    return buildTensor(value->val_as_Tensor(), path);
  case fb::KernelTypes::IntList:
  case fb::KernelTypes::DoubleList:
  case fb::KernelTypes::BoolList:
  case fb::KernelTypes::TensorList:
  case fb::KernelTypes::OptionalTensorList:
    return buildListValue(value, entryLocFor(value, path), pending);
  default:
    return buildScalarValue(value, entryLocFor(value, path));
  }
}

Operation *ProgramImporter::buildScalarValue(const fb::EValue *value,
                                             Location loc) {
  switch (value->val_type()) {
  case fb::KernelTypes::Null:
    return compat::create<NullOp>(builder, loc, valueType);
  case fb::KernelTypes::Int:
    return compat::create<IntOp>(
        builder, loc, valueType,
        builder.getI64IntegerAttr(value->val_as_Int()->int_val()));
  case fb::KernelTypes::Bool:
    return compat::create<BoolOp>(
        builder, loc, valueType,
        builder.getBoolAttr(value->val_as_Bool()->bool_val()));
  case fb::KernelTypes::Double:
    return compat::create<DoubleOp>(
        builder, loc, valueType,
        builder.getF64FloatAttr(value->val_as_Double()->double_val()));
  case fb::KernelTypes::String: {
    const auto *string = value->val_as_String()->string_val();
    return compat::create<StringOp>(
        builder, loc, valueType,
        builder.getStringAttr(string ? string->string_view() : ""));
  }
  default:
    llvm_unreachable("not a scalar value");
  }
}

void ProgramImporter::connectListItems(ArrayRef<PendingList> pending,
                                       ArrayRef<Value> values) {
  for (const PendingList &list : pending) {
    SmallVector<Value> operands;
    if (const fb::IntList *ints = list.value->val_as_IntList()) {
      operands = getValues(ints->items(), values);
    } else {
      bool optional =
          list.value->val_type() == fb::KernelTypes::OptionalTensorList;
      const auto *items = optional
                              ? list.value->val_as_OptionalTensorList()->items()
                              : list.value->val_as_TensorList()->items();
      for (int32_t index : readScalars(items))
        if (!optional || index != -1)
          operands.push_back(values[index]);
    }
    list.op->setOperands(operands);
  }
}

void ProgramImporter::buildValues(const fb::ExecutionPlan *plan,
                                  unsigned planIndex,
                                  SmallVectorImpl<Value> &values) {
  // Values first, in index order; list items may name later values, so
  // they are connected once every value exists.
  values.reserve(plan->values()->size());
  SmallVector<PendingList> pending;
  for (auto [index, value] : llvm::enumerate(*plan->values()))
    values.push_back(buildValue(value,
                                {TablePath::Value, planIndex, 0,
                                 static_cast<uint32_t>(index)},
                                pending)
                         ->getResult(0));
  connectListItems(pending, values);
}

//===----------------------------------------------------------------------===//
// Operators, delegates and instructions
//===----------------------------------------------------------------------===//

void ProgramImporter::buildOperators(const fb::ExecutionPlan *plan,
                                     const Twine &where,
                                     SmallVectorImpl<Value> &operators) {
  const auto *table = plan->operators();
  if (!table)
    return;
  for (auto [index, op] : llvm::enumerate(*table)) {
    StringAttr overload;
    if (op->overload())
      overload = builder.getStringAttr(op->overload()->string_view());
    operators.push_back(compat::create<OperatorOp>(
        builder, locFor(where + ".operators[" + Twine(index) + "]", op),
        OperatorType::get(context),
        builder.getStringAttr(op->name()->string_view()), overload));
  }
}

ArrayAttr
ProgramImporter::buildCompileSpecs(const fb::BackendDelegate *delegate) {
  const auto *list = delegate->compile_specs();
  if (!list)
    return ArrayAttr();
  SmallVector<Attribute> entries;
  for (const fb::CompileSpec *spec : *list)
    entries.push_back(CompileSpecAttr::get(
        context, spec->key()->string_view(),
        StringRef(reinterpret_cast<const char *>(spec->value()->data()),
                  spec->value()->size())));
  return builder.getArrayAttr(entries);
}

void ProgramImporter::buildDelegates(const fb::ExecutionPlan *plan,
                                     unsigned planIndex,
                                     SmallVectorImpl<Value> &delegates) {
  Type delegateType = DelegateType::get(context);
  for (auto [index, delegate] : llvm::enumerate(*plan->delegates())) {
    const fb::BackendDelegateDataReference *processed = delegate->processed();
    BlobOp blob = processed->location() == fb::DataLocation::SEGMENT
                      ? segmentBlobs[processed->index()]
                      : inlineBlobs[processed->index()];
    Location loc = entryLocFor(delegate, {TablePath::Delegate, planIndex, 0,
                                          static_cast<uint32_t>(index)});
    delegates.push_back(compat::create<DelegateOp>(
        builder, loc, delegateType, delegate->id()->string_view(),
        FlatSymbolRefAttr::get(blob.getSymNameAttr()),
        buildCompileSpecs(delegate)));
  }
}

ArrayAttr ProgramImporter::buildStacktrace(const fb::Chain *chain) {
  const auto *lists = chain->stacktrace();
  if (!lists)
    return ArrayAttr();
  auto str = [&](const flatbuffers::String *s) {
    return s ? builder.getStringAttr(s->string_view()) : StringAttr();
  };
  SmallVector<Attribute> frameLists;
  for (const fb::FrameList *list : *lists) {
    SmallVector<Attribute> frames;
    if (list->items())
      for (const fb::Frame *frame : *list->items())
        frames.push_back(FrameAttr::get(context, str(frame->filename()),
                                        frame->lineno(), str(frame->name()),
                                        str(frame->context())));
    frameLists.push_back(builder.getArrayAttr(frames));
  }
  return builder.getArrayAttr(frameLists);
}

void ProgramImporter::buildInstruction(const fb::Instruction *instruction,
                                       Location loc,
                                       const MethodTables &tables) {
  ArrayRef<Value> values = tables.values;
  switch (instruction->instr_args_type()) {
  case fb::InstructionArguments::KernelCall: {
    const fb::KernelCall *call = instruction->instr_args_as_KernelCall();
    compat::create<KernelCallOp>(builder, loc,
                                 tables.operators[call->op_index()],
                                 getValues(call->args(), values));
    return;
  }
  case fb::InstructionArguments::DelegateCall: {
    const fb::DelegateCall *call = instruction->instr_args_as_DelegateCall();
    compat::create<CallDelegateOp>(builder, loc,
                                   tables.delegates[call->delegate_index()],
                                   getValues(call->args(), values));
    return;
  }
  case fb::InstructionArguments::MoveCall: {
    const fb::MoveCall *move = instruction->instr_args_as_MoveCall();
    compat::create<MoveOp>(builder, loc, values[move->move_from()],
                           values[move->move_to()]);
    return;
  }
  case fb::InstructionArguments::JumpFalseCall: {
    const fb::JumpFalseCall *jump = instruction->instr_args_as_JumpFalseCall();
    compat::create<JumpFalseOp>(builder, loc, values[jump->cond_value_index()],
                                jump->destination_instruction());
    return;
  }
  case fb::InstructionArguments::FreeCall:
    compat::create<FreeOp>(
        builder, loc,
        values[instruction->instr_args_as_FreeCall()->value_index()]);
    return;
  default:
    llvm_unreachable("an instruction type the file layer refuses");
  }
}

void ProgramImporter::buildChain(const fb::Chain *chain, unsigned planIndex,
                                 unsigned chainIndex, const Twine &where,
                                 const MethodTables &tables) {
  OpBuilder::InsertionGuard guard(builder);
  auto chainOp = compat::create<ChainOp>(
      builder, locFor(where, chain), getValues(chain->inputs(), tables.values),
      getValues(chain->outputs(), tables.values), buildStacktrace(chain));
  chainOp.getBody().push_back(new Block());
  builder.setInsertionPointToStart(&chainOp.getBody().front());
  for (auto [index, instruction] : llvm::enumerate(*chain->instructions()))
    buildInstruction(
        instruction,
        entryLocFor(instruction, {TablePath::Instruction, planIndex, chainIndex,
                                  static_cast<uint32_t>(index)}),
        tables);
}

//===----------------------------------------------------------------------===//
// Methods
//===----------------------------------------------------------------------===//

void ProgramImporter::setMethodAttributes(const fb::ExecutionPlan *plan,
                                          MethodOp method) {
  method.setBuffersAttr(builder.getDenseI64ArrayAttr(
      readScalars(plan->non_const_buffer_sizes())));
  if (const fb::ContainerMetadata *meta = plan->container_meta_type()) {
    auto str = [&](const flatbuffers::String *s) {
      return s ? builder.getStringAttr(s->string_view()) : StringAttr();
    };
    method.setContainerMetaAttr(ContainerMetaAttr::get(
        context, str(meta->encoded_inp_str()), str(meta->encoded_out_str())));
  }
  const auto *devices = plan->non_const_buffer_device();
  if (!devices)
    return;
  SmallVector<Attribute> entries;
  for (const fb::NonConstBufferDevice *device : *devices)
    entries.push_back(BufferDeviceAttr::get(
        context, device->buffer_idx(),
        *symbolizeDeviceType(static_cast<int32_t>(device->device_type())),
        device->device_index()));
  method.setBufferDevicesAttr(builder.getArrayAttr(entries));
}

void ProgramImporter::buildMethod(const fb::ExecutionPlan *plan,
                                  unsigned planIndex) {
  StringRef name = plan->name()->string_view();
  std::string where =
      ("execution_plan[" + Twine(planIndex) + "] '" + name + "'").str();
  locations.setPlanPath(planIndex, where);
  auto method = compat::create<MethodOp>(
      builder, locFor(where, plan), builder.getStringAttr(name),
      DenseI64ArrayAttr(), ContainerMetaAttr(), ArrayAttr());
  setMethodAttributes(plan, method);

  OpBuilder::InsertionGuard guard(builder);
  method.getBody().push_back(new Block());
  builder.setInsertionPointToStart(&method.getBody().front());
  MethodTables tables;
  buildValues(plan, planIndex, tables.values);
  // The operator and delegate tables as they are, entries no instruction
  // uses included: the runtime resolves and initializes every one.
  buildOperators(plan, where, tables.operators);
  buildDelegates(plan, planIndex, tables.delegates);
  for (auto [index, chain] : llvm::enumerate(*plan->chains()))
    buildChain(chain, planIndex, index, where + ".chains[" + Twine(index) + "]",
               tables);
  compat::create<SignatureOp>(builder, locFor(where + ".signature"),
                              getValues(plan->inputs(), tables.values),
                              getValues(plan->outputs(), tables.values));
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

/// The alignments the segments of `file` have, once its tables verified.
static std::optional<layout::InferredSegments>
inferSegments(const ProgramFile &file) {
  if (!file.getProgram())
    return std::nullopt;
  return layout::inferSegmentAlignments(file.getSegmentBase(),
                                        file.getSegmentPlacements());
}

OwningOpRef<ModuleOp> emit::buildProgram(const ProgramFile &file,
                                         MLIRContext *context,
                                         const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  return ProgramImporter(file, context, options, options.entryLocations)
      .build(*inferSegments(file));
}

OwningOpRef<ModuleOp> emit::importProgram(const ProgramFile &file,
                                          MLIRContext *context,
                                          const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  std::optional<layout::InferredSegments> segments = inferSegments(file);
  if (failed(reportImportFindings(file, context, segments)))
    return nullptr;
  // A file that breaks an invariant builds, and its verifier says which
  // entry is wrong: each is then located at its own offset.
  bool invariants = file.breaksInvariants();
  ProgramImporter importer(file, context, options,
                           options.entryLocations || invariants);
  OwningOpRef<ModuleOp> module = importer.build(*segments);
  if (invariants && failed(importer.verify(*module)))
    return nullptr;
  return module;
}
