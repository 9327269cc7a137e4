//===- ProgramModel.h - A readable program, resolved once -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What every view of a program reads (memory, profile, graph), built once
// from a readable ProgramFile: per method its values, operators, delegate
// entries and instructions, with each index the runtime follows resolved
// and each absent table settled, so that a view trusts what it reads, as
// the runtime's callers trust its MethodMeta and TensorInfo. Values are
// the exception: a method may have hundreds of thousands, so the model
// keeps only their kinds and reads a value or tensor from its table when
// asked (a few loads; the memory the model adds stays small). The one
// dispatch over instruction kinds is here; what an instruction reads and
// writes is DataFlow.h's.
//
// What a readable file guarantees (the file layer refused it otherwise):
// every method has a name, values, inputs, outputs, chains, delegates and
// buffer sizes; every tensor has a known scalar type, sizes and a dim
// order; every index an instruction follows (operator, delegate entry,
// value, jump destination) is in range, and every value a list or a
// method's signature names. Views of a readable file trust those. The
// model also builds from a file whose flatbuffer verifies but which does
// not read (emit-graph draws what is wrong): there an absent table is
// empty, an operator or delegate index out of range is `kNone`, and value
// indices and jump destinations are as the file has them, which a view
// bounds-checks.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_PROGRAMMODEL_H
#define EMIT_FILE_PROGRAMMODEL_H

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace executorch_flatbuffer {
struct ExecutionPlan;
struct Instruction;
struct Program;
struct Tensor;
} // namespace executorch_flatbuffer

namespace emit {
class ProgramFile;

/// What an instruction does (the schema's InstructionArguments).
enum class InstructionKind : uint8_t {
  Kernel,
  Delegate,
  Move,
  JumpFalse,
  Free,
  /// A kind this schema does not know.
  Unknown,
};

/// `kernel`, `delegate`, `move`, `jump_false`, `free` or `other`, as
/// reports name it.
StringRef getInstructionKindName(InstructionKind kind);
/// The kind of `instruction` in the file: the one dispatch over
/// `instr_args_type`.
InstructionKind
getInstructionKind(const executorch_flatbuffer::Instruction &instruction);

/// What a value is (the schema's KernelTypes).
enum class ValueKind : uint8_t {
  Null,
  Int,
  Bool,
  Double,
  Tensor,
  String,
  IntList,
  DoubleList,
  BoolList,
  TensorList,
  OptionalTensorList,
  /// A kind this schema does not know.
  Unknown,
};

/// `null`, `int`, `bool`, `double`, `tensor`, `string`, `int_list`,
/// `double_list`, `bool_list`, `tensor_list`, `optional_tensor_list`, or
/// `invalid`, as reports name it.
StringRef getValueKindName(ValueKind kind);

/// A planned tensor's offset in its buffer: its allocation_info's high and
/// low words (an executorch_flatbuffer::AllocationDetails), read here only.
template <typename AllocationDetails>
uint64_t getPlannedOffset(const AllocationDetails &allocation) {
  return uint64_t(allocation.memory_offset_high()) << 32 |
         allocation.memory_offset_low();
}

/// An index the model could not resolve (out of range, or absent).
constexpr int32_t kNone = -1;
/// The schema's DeviceType::CPU.
constexpr int32_t kCpuDevice = 0;

/// A tensor value, read from its table when asked (a method may have
/// hundreds of thousands: the model holds none of them).
struct TensorModel {
  /// Its table in the verified flatbuffer.
  const executorch_flatbuffer::Tensor *table = nullptr;
  /// Its offset in the planned buffer: allocation_info's high and low
  /// words, read here once.
  uint64_t offset = 0;
  /// Its planned buffer (memory id; 0 is reserved), when planned.
  uint32_t memoryId = 0;
  /// Its data index (constant data, or a mutable buffer's initial state
  /// when planned); 0 for none.
  uint32_t dataIndex = 0;
  /// The raw scalar type, and the type when emit knows it.
  int32_t rawScalarType = 0;
  std::optional<et::ScalarType> scalarType;
  /// Whether its data is planned (it has allocation_info).
  bool planned = false;
  /// Its data is external (a named key, resolved from a data file).
  bool external = false;
  /// Its shape may change (shape_dynamism is not STATIC).
  bool dynamic = false;

  /// Its data's bytes from its type and sizes; none when the type is
  /// unknown or the count overflows.
  std::optional<uint64_t> getBytes() const;
  ArrayRef<int32_t> getSizes() const;
  ArrayRef<uint8_t> getDimOrder() const;
  /// Its fully qualified name, where the file has one.
  StringRef getName() const;
  /// The DeviceType its extra_tensor_info places it on, as the file holds
  /// it (kCpuDevice where it says nothing).
  int32_t getDeviceType() const;

  /// A mutable buffer: planned, with initial data.
  bool isMutableBuffer() const { return planned && dataIndex > 0; }
  /// A constant: data in the program or a data file, not planned.
  bool isConstant() const { return !planned && (dataIndex || external); }
};

/// One value of a method.
struct ValueModel {
  /// A tensor list's items, value indices (an optional tensor list's -1
  /// is None); null for another kind.
  const int32_t *itemData = nullptr;
  /// How many items a list of any kind has.
  uint32_t itemCount = 0;
  ValueKind kind = ValueKind::Null;

  /// A tensor list's items.
  ArrayRef<int32_t> getItems() const {
    return itemData ? ArrayRef<int32_t>(itemData, itemCount)
                    : ArrayRef<int32_t>();
  }
};

/// An operator of a method's table.
struct OperatorModel {
  StringRef name;
  StringRef overload;
  /// Whether the entry has a name at all.
  bool hasName = false;
  /// `aten::add.out`: the name, and the overload after a dot.
  std::string qualifiedName;
  /// `add.out`: the name after its namespace, with the overload, as the
  /// runtime's kernels name their profiling events.
  std::string kernelName;
};

/// One compile spec of a delegate entry, as the file holds it.
struct CompileSpecModel {
  StringRef key;
  /// Its value's bytes.
  StringRef value;
};

/// A delegate entry of a method's table.
struct DelegateModel {
  StringRef backend;
  /// Whether the entry has an id at all.
  bool hasId = false;
  /// Where its payload is: a segment (`segment`), the program's inline
  /// data (`inline`); its index there, and its bytes (0 when the index is
  /// past the table).
  bool inSegment = false;
  uint32_t dataIndex = 0;
  uint64_t payloadBytes = 0;
  /// Its compile specs, in order; whether it has the table at all (the
  /// runtime allocates for an empty one).
  std::vector<CompileSpecModel> compileSpecs;
  bool hasCompileSpecs = false;
};

/// One instruction, numbered across its method's chains in order.
struct InstructionModel {
  InstructionKind kind = InstructionKind::Unknown;
  uint32_t chain = 0;
  uint32_t index = 0;
  /// A kernel call's operator, a delegate call's entry: its index in the
  /// method's table, or kNone.
  int32_t callee = kNone;
  /// A kernel or delegate call's arguments.
  ArrayRef<int32_t> args;
  /// A move's source and destination; a jump's condition and destination
  /// (within its chain); a free's value.
  int64_t first = kNone;
  int64_t second = kNone;
};

/// Where a planned buffer lives, where the method says (its
/// non_const_buffer_device entries).
struct BufferDeviceModel {
  int32_t buffer = 0;
  /// The DeviceType as the file holds it (CPU is 0).
  int32_t deviceType = 0;
  int32_t deviceIndex = 0;
};

/// A table of offsets into one segment: the constant segment, or a
/// mutable data segment.
struct SubsegmentModel {
  /// Its segment's index; that segment's bytes, when the index names one.
  uint32_t segmentIndex = 0;
  std::optional<uint64_t> segmentBytes;
  /// Its offsets, the reserved entry first; empty when it has none.
  ArrayRef<uint64_t> offsets;
};

/// Where a program keeps constant data besides named data: the constant
/// segment, the deprecated constant_buffer, the mutable data segments.
struct ConstantStoresModel {
  std::optional<SubsegmentModel> constantSegment;
  /// Per constant_buffer entry its storage's bytes (none for an entry
  /// without storage); whether the program has the table at all.
  std::vector<std::optional<uint64_t>> constantBuffer;
  bool hasConstantBuffer = false;
  /// The mutable data segments, in order.
  std::vector<SubsegmentModel> mutableSegments;
  /// Where a finding about constants points: the constant segment's table,
  /// else the program's (a byte offset in the file).
  uint64_t findingOffset = 0;
};

/// One method, resolved.
class MethodModel {
public:
  StringRef getName() const { return name; }
  /// Its index in the program's execution plans.
  unsigned getIndex() const { return index; }
  /// Where its table, value `value`'s table and planned buffer
  /// `memoryId`'s size are in the file's bytes (for CheckedFile::offsetOf),
  /// as findings point at them.
  const void *getPlanLocation() const { return plan; }
  const void *getValueLocation(uint32_t value) const;
  const void *getBufferSizeLocation(uint32_t memoryId) const;
  const void *getInstructionLocation(const InstructionModel &instruction) const;

  /// Its values: each read from its table when asked, but for its kind.
  uint32_t getValueCount() const { return kinds.size(); }
  ValueKind getValueKind(uint32_t value) const { return kinds[value]; }
  ValueModel getValue(uint32_t value) const;
  /// The tensor value `value` is; none for another kind or index.
  std::optional<TensorModel> getTensor(uint32_t value) const;
  /// How many of its tensors are planned, and how many are external
  /// constants.
  unsigned getPlannedTensorCount() const { return plannedTensors; }
  /// Whether value `value` is a planned tensor, without reading its table.
  bool isPlannedTensor(uint32_t value) const {
    return value < planned.size() && planned.test(value);
  }
  unsigned getExternalConstantCount() const { return externalConstants; }
  /// Its mutable buffers (planned tensors with initial data), in order.
  ArrayRef<uint32_t> getMutableBuffers() const { return mutableBuffers; }
  ArrayRef<OperatorModel> getOperators() const { return operators; }
  ArrayRef<DelegateModel> getDelegates() const { return delegates; }
  ArrayRef<InstructionModel> getInstructions() const { return instructions; }
  ArrayRef<int32_t> getInputs() const { return inputs; }
  ArrayRef<int32_t> getOutputs() const { return outputs; }
  /// Per planned buffer id (0 first, reserved), its bytes.
  ArrayRef<int64_t> getBufferSizes() const { return bufferSizes; }
  /// The devices the method places planned buffers on, in its order.
  ArrayRef<BufferDeviceModel> getBufferDevices() const { return bufferDevices; }
  /// The device planned buffer `memoryId` lives on, as the dialect names
  /// it (`cpu` where the method says nothing or names no known device).
  StringRef getBufferDeviceName(uint32_t memoryId) const;

  uint32_t getChainCount() const { return chainStarts.size() - 1; }
  uint32_t getInstructionCount(uint32_t chain) const {
    return chainStarts[chain + 1] - chainStarts[chain];
  }
  /// The instruction `instruction` of chain `chain`, if it is one.
  std::optional<uint32_t> getSlot(int64_t chain, int64_t instruction) const;
  unsigned getKernelCallCount() const { return kernelCalls; }
  unsigned getDelegateCallCount() const { return delegateCalls; }

  /// What `instruction` calls: its operator (`aten::add.out`) or its
  /// delegate's backend; empty for another kind or an index out of range.
  StringRef getCallee(const InstructionModel &instruction) const;
  /// The delegate entry a delegate call calls, if its index is in range.
  const DelegateModel *getDelegate(const InstructionModel &instruction) const;
  /// The operator a kernel call calls, if its index is in range.
  const OperatorModel *getOperator(const InstructionModel &instruction) const;

private:
  friend class ProgramModel;
  friend class MethodModelBuilder;

  StringRef name;
  unsigned index = 0;
  const executorch_flatbuffer::ExecutionPlan *plan = nullptr;
  std::vector<ValueKind> kinds;
  llvm::BitVector planned;
  unsigned plannedTensors = 0;
  unsigned externalConstants = 0;
  std::vector<uint32_t> mutableBuffers;
  std::vector<OperatorModel> operators;
  std::vector<DelegateModel> delegates;
  std::vector<InstructionModel> instructions;
  std::vector<uint32_t> chainStarts;
  ArrayRef<int32_t> inputs, outputs;
  SmallVector<int64_t> bufferSizes;
  std::vector<BufferDeviceModel> bufferDevices;
  unsigned kernelCalls = 0;
  unsigned delegateCalls = 0;
};

/// A readable program's methods, resolved. It points into the file's
/// bytes: the file outlives it.
class ProgramModel {
public:
  /// Builds the model of `file`, whose flatbuffer verifies (getProgram).
  explicit ProgramModel(const ProgramFile &file);
  /// The same, of only the methods `wanted` accepts by name.
  ProgramModel(const ProgramFile &file,
               llvm::function_ref<bool(StringRef)> wanted);
  /// The methods of `all` that `wanted` accepts by name, taken from it (no
  /// table is read again): a view of some methods of a model already
  /// built.
  ProgramModel(const ProgramModel &all,
               llvm::function_ref<bool(StringRef)> wanted);

  const ProgramFile &getFile() const { return file; }
  ArrayRef<MethodModel> getMethods() const { return methods; }
  /// The method named `name`, if the program has one.
  const MethodModel *getMethod(StringRef name) const;
  /// How many methods the file has (the model may hold only some).
  unsigned getFileMethodCount() const { return fileMethods; }
  /// The bytes of `entry`'s payload, a view of the file (only what a
  /// reader touches is read); empty when it lies outside the file.
  StringRef getPayload(const DelegateModel &entry) const;
  /// Where the program keeps constant data.
  const ConstantStoresModel &getConstantStores() const { return stores; }
  /// How many keys the program's named_data lists; none when it has no
  /// such table (present and empty counts: 0.7 builds a data map then).
  std::optional<size_t> getNamedDataKeyCount() const { return namedDataKeys; }
  /// Whether the runtime reads constants from the constant segment: the
  /// program has one with entries (else from the deprecated constant
  /// buffer; runtime/executor/program.cpp).
  bool readsConstantSegment() const {
    return stores.constantSegment && !stores.constantSegment->offsets.empty();
  }

private:
  void readConstantStores(const executorch_flatbuffer::Program &program);

  const ProgramFile &file;
  std::vector<MethodModel> methods;
  unsigned fileMethods = 0;
  ConstantStoresModel stores;
  std::optional<size_t> namedDataKeys;
};

/// Fails when `model` has no method of one of `names`, saying which in
/// `error` ("'FILE' has no method 'NAME'"): how a job refuses a method it
/// is asked for.
LogicalResult checkMethodsExist(const ProgramModel &model,
                                ArrayRef<std::string> names,
                                std::string &error);

} // namespace emit

#endif // EMIT_FILE_PROGRAMMODEL_H
