//===- TranslateToPTE.cpp - Write an et.program as a .pte -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds the `Program` flatbuffer, lays out the segments after it and writes
// the extended header, following the writer checklist of the format notes:
// constant segment 0 always present, `delegates` always written, one
// `BackendDelegate` per call, payloads in first-use order and zero padding.
//
//===----------------------------------------------------------------------===//

#include "PTEFormat.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Target/PTE/program_generated.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>
#include <vector>

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace fb = executorch_flatbuffer;
using flatbuffers::Offset;

namespace {
/// One data segment: where its bytes come from and where they go.
struct Segment {
  ArrayRef<char> bytes;
  uint64_t alignment = 1;
  uint64_t offset = 0; // Relative to the segment base.
};

/// Writes one program. Payload bytes are never copied: segments alias the
/// resources they come from and are streamed to the output.
class PTEWriter {
public:
  PTEWriter(ProgramOp program, const PTEWriteOptions &options)
      : program(program), options(options), symbols(program) {}

  LogicalResult write(raw_ostream &os);

private:
  LogicalResult assignSegments();
  FailureOr<Offset<fb::ExecutionPlan>> buildPlan(MethodOp method);
  FailureOr<Offset<fb::EValue>> buildValue(Operation *decl);
  FailureOr<Offset<fb::Instruction>>
  buildInstruction(Operation *op, MethodOp method,
                   std::vector<Offset<fb::Operator>> &operators,
                   DenseMap<std::pair<StringRef, StringRef>, int32_t> &opIndex,
                   std::vector<Offset<fb::BackendDelegate>> &delegates);
  /// Payload bytes of `call` (inline or through its symbol) with alignment.
  FailureOr<std::pair<ArrayRef<char>, uint64_t>>
  getPayload(CallDelegateOp call);
  FailureOr<Offset<flatbuffers::Vector<int32_t>>>
  buildIndices(ValueRange values, Operation *user);

  ProgramOp program;
  const PTEWriteOptions &options;
  SymbolTable symbols;
  flatbuffers::FlatBufferBuilder builder;

  /// Segment 0 is the (empty) constant segment; payloads follow.
  std::vector<Segment> segments;
  /// Segment of each payload: keyed by `et.blob` op or, for inline payloads,
  /// by the call that holds it.
  DenseMap<Operation *, uint32_t> segmentOf;
  /// Whether an empty payload needs the one empty inline data entry.
  bool needsEmptyInlineData = false;
  /// Value index of every value of the method being built.
  DenseMap<Value, int32_t> valueIndex;
  /// Storage for expanded splat payloads; std::vector buffers stay in place.
  std::vector<std::vector<char>> splatStorage;
};
} // namespace

FailureOr<std::pair<ArrayRef<char>, uint64_t>>
PTEWriter::getPayload(CallDelegateOp call) {
  ElementsAttr data;
  uint64_t alignment;
  if (BlobAttr inlinePayload = call.getInlinePayload()) {
    data = inlinePayload.getData();
    alignment = inlinePayload.getAlignment();
  } else {
    auto blob = symbols.lookup<BlobOp>(call.getPayloadSymbol().getAttr());
    if (!blob)
      return call.emitOpError("references undefined blob ")
             << call.getPayloadSymbol();
    data = blob.getData();
    alignment = blob.getAlignment();
  }
  SmallVector<char> storage;
  std::optional<ArrayRef<char>> bytes = getPayloadBytes(data, storage);
  if (!bytes)
    return call.emitOpError("payload data is not available (elided or "
                            "released resource); cannot write it");
  if (!storage.empty()) {
    splatStorage.emplace_back(storage.begin(), storage.end());
    bytes = ArrayRef<char>(splatStorage.back());
  }
  return std::make_pair(*bytes, alignment);
}

LogicalResult PTEWriter::assignSegments() {
  segments.push_back({}); // The constant segment.
  for (MethodOp method : program.getMethods()) {
    WalkResult result = method.walk([&](CallDelegateOp call) {
      Operation *key = call;
      if (FlatSymbolRefAttr symbol = call.getPayloadSymbol())
        key = symbols.lookup(symbol.getAttr());
      if (key && segmentOf.count(key))
        return WalkResult::advance();
      auto payload = getPayload(call);
      if (failed(payload))
        return WalkResult::interrupt();
      auto [bytes, alignment] = *payload;
      if (bytes.empty()) {
        // A segment reference needs segment data; keep empty payloads inline
        // as ExecuTorch does.
        needsEmptyInlineData = true;
        return WalkResult::advance();
      }
      segmentOf[key] = segments.size();
      segments.push_back({bytes, alignment});
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }

  uint64_t end = 0;
  for (Segment &segment : segments) {
    uint64_t align = std::lcm(options.segmentAlignment, segment.alignment);
    segment.offset = llvm::alignTo(end, align);
    end = segment.offset + segment.bytes.size();
  }
  return success();
}

FailureOr<Offset<flatbuffers::Vector<int32_t>>>
PTEWriter::buildIndices(ValueRange values, Operation *user) {
  std::vector<int32_t> indices;
  indices.reserve(values.size());
  for (Value value : values) {
    auto it = valueIndex.find(value);
    if (it == valueIndex.end())
      return user->emitOpError("uses a value that is not declared in its "
                               "method's value table");
    indices.push_back(it->second);
  }
  return builder.CreateVector(indices);
}

FailureOr<Offset<fb::EValue>> PTEWriter::buildValue(Operation *decl) {
  auto makeValue = [&](fb::KernelTypes type, Offset<void> value) {
    return fb::CreateEValue(builder, type, value);
  };
  if (isa<NullOp>(decl))
    return makeValue(fb::KernelTypes::Null, fb::CreateNull(builder).Union());
  if (auto op = dyn_cast<IntOp>(decl))
    return makeValue(fb::KernelTypes::Int,
                     fb::CreateInt(builder, op.getValue()).Union());
  if (auto op = dyn_cast<BoolOp>(decl))
    return makeValue(fb::KernelTypes::Bool,
                     fb::CreateBool(builder, op.getValue()).Union());
  if (auto op = dyn_cast<DoubleOp>(decl))
    return makeValue(
        fb::KernelTypes::Double,
        fb::CreateDouble(builder, op.getValue().convertToDouble()).Union());
  if (auto op = dyn_cast<StringOp>(decl))
    return makeValue(
        fb::KernelTypes::String,
        fb::CreateString(builder, builder.CreateString(op.getValue().str()))
            .Union());
  if (auto op = dyn_cast<TensorOp>(decl)) {
    if (std::optional<int32_t> constant = op.getConstant();
        constant && *constant)
      return op.emitOpError("references constant entry ")
             << *constant << ", but constant tensor data cannot be written yet";
    auto sizes =
        builder.CreateVector(op.getSizes().data(), op.getSizes().size());
    std::vector<uint8_t> dimOrder(op.getDimOrder().begin(),
                                  op.getDimOrder().end());
    auto dims = builder.CreateVector(dimOrder);
    Offset<fb::AllocationDetails> allocation;
    if (std::optional<int32_t> id = op.getMemoryId()) {
      uint64_t offset = op.getMemoryOffset().value_or(0);
      allocation = fb::CreateAllocationDetails(
          builder, *id, static_cast<uint32_t>(offset),
          static_cast<uint32_t>(offset >> 32));
    }
    fb::TensorBuilder tensor(builder);
    tensor.add_scalar_type(
        static_cast<fb::ScalarType>(static_cast<int32_t>(op.getScalarType())));
    tensor.add_sizes(sizes);
    tensor.add_dim_order(dims);
    if (!allocation.IsNull())
      tensor.add_allocation_info(allocation);
    return makeValue(fb::KernelTypes::Tensor, tensor.Finish().Union());
  }
  return decl->emitOpError("cannot be written as a .pte value");
}

FailureOr<Offset<fb::Instruction>> PTEWriter::buildInstruction(
    Operation *op, MethodOp method,
    std::vector<Offset<fb::Operator>> &operators,
    DenseMap<std::pair<StringRef, StringRef>, int32_t> &opIndex,
    std::vector<Offset<fb::BackendDelegate>> &delegates) {
  auto index = [&](Value value) { return valueIndex.lookup(value); };
  auto make = [&](fb::InstructionArguments type, Offset<void> args) {
    return fb::CreateInstruction(builder, type, args);
  };

  if (auto call = dyn_cast<KernelCallOp>(op)) {
    auto key = std::make_pair(call.getOpName(), call.getOverload());
    auto [it, inserted] = opIndex.try_emplace(key, operators.size());
    if (inserted)
      operators.push_back(
          fb::CreateOperator(builder, builder.CreateString(key.first.str()),
                             builder.CreateString(key.second.str())));
    auto args = buildIndices(call.getArgs(), op);
    if (failed(args))
      return failure();
    return make(fb::InstructionArguments::KernelCall,
                fb::CreateKernelCall(builder, it->second, *args).Union());
  }
  if (auto call = dyn_cast<CallDelegateOp>(op)) {
    // Each call gets its own entry: shared bytes never share id or specs.
    Operation *key = call;
    if (FlatSymbolRefAttr symbol = call.getPayloadSymbol())
      key = symbols.lookup(symbol.getAttr());
    Offset<fb::BackendDelegateDataReference> processed;
    auto segment = segmentOf.find(key);
    if (segment != segmentOf.end())
      processed = fb::CreateBackendDelegateDataReference(
          builder, fb::DataLocation::SEGMENT, segment->second);
    else // Empty payload: the shared empty inline entry 0.
      processed = fb::CreateBackendDelegateDataReference(
          builder, fb::DataLocation::INLINE, 0);

    std::vector<Offset<fb::CompileSpec>> specs;
    if (ArrayAttr specAttrs = call.getCompileSpecsAttr()) {
      for (auto spec : specAttrs.getAsRange<CompileSpecAttr>()) {
        StringRef value = spec.getValue();
        specs.push_back(fb::CreateCompileSpec(
            builder, builder.CreateString(spec.getKey().str()),
            builder.CreateVector(
                reinterpret_cast<const uint8_t *>(value.data()),
                value.size())));
      }
    }
    int32_t delegateIndex = delegates.size();
    delegates.push_back(fb::CreateBackendDelegate(
        builder, builder.CreateString(call.getBackendId().str()), processed,
        builder.CreateVector(specs)));
    auto args = buildIndices(call.getArgs(), op);
    if (failed(args))
      return failure();
    return make(fb::InstructionArguments::DelegateCall,
                fb::CreateDelegateCall(builder, delegateIndex, *args).Union());
  }
  if (auto move = dyn_cast<MoveOp>(op))
    return make(
        fb::InstructionArguments::MoveCall,
        fb::CreateMoveCall(builder, index(move.getFrom()), index(move.getTo()))
            .Union());
  if (auto jump = dyn_cast<JumpFalseOp>(op))
    return make(fb::InstructionArguments::JumpFalseCall,
                fb::CreateJumpFalseCall(builder, index(jump.getCondition()),
                                        jump.getDestination())
                    .Union());
  if (auto free = dyn_cast<FreeOp>(op))
    return make(fb::InstructionArguments::FreeCall,
                fb::CreateFreeCall(builder, index(free.getValue())).Union());
  return op->emitOpError("cannot be written as a .pte instruction");
}

FailureOr<Offset<fb::ExecutionPlan>> PTEWriter::buildPlan(MethodOp method) {
  valueIndex.clear();
  std::vector<Offset<fb::EValue>> values;
  for (Operation *decl : method.getValueDecls()) {
    valueIndex[decl->getResult(0)] = values.size();
    auto value = buildValue(decl);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }

  std::vector<Offset<fb::Operator>> operators;
  DenseMap<std::pair<StringRef, StringRef>, int32_t> opIndex;
  std::vector<Offset<fb::BackendDelegate>> delegates;
  std::vector<Offset<fb::Chain>> chains;
  for (ChainOp chain : method.getChains()) {
    std::vector<Offset<fb::Instruction>> instructions;
    for (Operation &op : chain.getBody().front()) {
      auto instruction =
          buildInstruction(&op, method, operators, opIndex, delegates);
      if (failed(instruction))
        return failure();
      instructions.push_back(*instruction);
    }
    auto inputs = buildIndices(chain.getInputs(), chain);
    auto outputs = buildIndices(chain.getOutputs(), chain);
    if (failed(inputs) || failed(outputs))
      return failure();
    chains.push_back(fb::CreateChain(builder, *inputs, *outputs,
                                     builder.CreateVector(instructions)));
  }

  SignatureOp signature = method.getSignature();
  auto inputs = buildIndices(signature.getInputs(), signature);
  auto outputs = buildIndices(signature.getOutputs(), signature);
  if (failed(inputs) || failed(outputs))
    return failure();
  std::vector<int64_t> bufferSizes{0};
  if (std::optional<ArrayRef<int64_t>> buffers = method.getBuffers())
    bufferSizes.assign(buffers->begin(), buffers->end());

  return fb::CreateExecutionPlan(
      builder, builder.CreateString(method.getSymName().str()),
      /*container_meta_type=*/0, builder.CreateVector(values), *inputs,
      *outputs, builder.CreateVector(chains), builder.CreateVector(operators),
      builder.CreateVector(delegates), builder.CreateVector(bufferSizes));
}

LogicalResult PTEWriter::write(raw_ostream &os) {
  if (!llvm::isPowerOf2_64(options.segmentAlignment))
    return program.emitError("segment alignment ")
           << options.segmentAlignment << " is not a power of two";
  if (failed(assignSegments()))
    return failure();

  std::vector<Offset<fb::ExecutionPlan>> plans;
  for (MethodOp method : program.getMethods()) {
    auto plan = buildPlan(method);
    if (failed(plan))
      return failure();
    plans.push_back(*plan);
  }

  std::vector<Offset<fb::BackendDelegateInlineData>> inlineData;
  if (needsEmptyInlineData) {
    builder.ForceVectorAlignment(0, sizeof(uint8_t), pte::kInlineDataAlignment);
    inlineData.push_back(fb::CreateBackendDelegateInlineData(
        builder,
        builder.CreateVector(static_cast<const uint8_t *>(nullptr), 0)));
  }
  std::vector<Offset<fb::DataSegment>> segmentTable;
  for (const Segment &segment : segments)
    segmentTable.push_back(
        fb::CreateDataSegment(builder, segment.offset, segment.bytes.size()));
  auto constantSegment = fb::CreateSubsegmentOffsets(
      builder, /*segment_index=*/0, builder.CreateVector<uint64_t>({0}));

  auto root =
      fb::CreateProgram(builder, /*version=*/0, builder.CreateVector(plans),
                        builder.CreateVector<Offset<fb::Buffer>>({}),
                        builder.CreateVector(inlineData),
                        builder.CreateVector(segmentTable), constantSegment);
  builder.Finish(root, fb::ProgramIdentifier());

  ArrayRef<char> flatbuffer(
      reinterpret_cast<const char *>(builder.GetBufferPointer()),
      builder.GetSize());
  if (flatbuffer.size() >= pte::kMaxFlatbufferSize)
    return program.emitError("the program's flatbuffer would be ")
           << flatbuffer.size() << " bytes, over the 2 GiB flatbuffer limit";

  uint64_t segmentDataSize =
      segments.empty() ? 0
                       : segments.back().offset + segments.back().bytes.size();
  if (segmentDataSize == 0) {
    // No segment data: the bare flatbuffer is the file, as ExecuTorch does.
    os.write(flatbuffer.data(), flatbuffer.size());
    return success();
  }

  pte::ExtendedHeader header;
  header.programSize = pte::kHeaderRegionSize + flatbuffer.size();
  header.segmentBaseOffset =
      llvm::alignTo(header.programSize, options.segmentAlignment);
  header.segmentDataSize = segmentDataSize;
  uint32_t rootOffset = llvm::support::endian::read32le(flatbuffer.data()) +
                        pte::kHeaderRegionSize;

  pte::writeLE32(os, rootOffset);
  os.write(flatbuffer.data() + 4, 4); // File identifier.
  pte::writeHeader(os, header);
  os.write(flatbuffer.data() + 8, flatbuffer.size() - 8);
  uint64_t position = header.programSize;
  auto pad = [&](uint64_t to) {
    os.write_zeros(to - position);
    position = to;
  };
  for (const Segment &segment : segments) {
    pad(header.segmentBaseOffset + segment.offset);
    os.write(segment.bytes.data(), segment.bytes.size());
    position += segment.bytes.size();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

LogicalResult emit::translateToPTE(Operation *op, raw_ostream &os,
                                   const PTEWriteOptions &options) {
  ProgramOp program = dyn_cast<ProgramOp>(op);
  if (!program) {
    SmallVector<ProgramOp> programs;
    if (auto module = dyn_cast<ModuleOp>(op))
      programs = llvm::to_vector(module.getOps<ProgramOp>());
    if (programs.size() != 1)
      return op->emitError("expected exactly one 'et.program' to write as a "
                           ".pte, found ")
             << programs.size();
    program = programs.front();
  }
  return PTEWriter(program, options).write(os);
}
