//===- TranslateToPTE.cpp - Write an et.program as a .pte -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds the `Program` flatbuffer, lays out the segments after it and writes
// the extended header, following the writer checklist of the format notes:
// constant segment 0 unless the program names its own, `delegates` always
// written, one `BackendDelegate` per call, zero padding, and segments in
// program order so that output never depends on hash or pointer order.
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"
#include "FlatbufferAllocator.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/program_generated.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/MappedMemory.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>
#include <vector>

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace fb = executorch_flatbuffer;

static_assert(FLATBUFFERS_MAX_ALIGNMENT == pte::kMaxInlineAlignment,
              "the writer's flatbuffers alignment limit is the format's");
using flatbuffers::Offset;

namespace {
using layout::Segment;

/// Bytes and alignment of one payload.
struct Payload {
  ArrayRef<char> bytes;
  uint64_t alignment;
};
} // namespace

/// Writes one program. Payload bytes are never copied: segments alias the
/// resources they come from and are streamed to the output.
class emit::PTEWriter {
public:
  PTEWriter(ProgramOp program, const PTEWriteOptions &options)
      : program(program), options(options), symbols(program) {}

  /// Places the data and builds the flatbuffer: the file's size and layout
  /// are then known, before a byte is written.
  LogicalResult prepare();
  /// The size of the file writeFile writes.
  uint64_t getFileSize() const;
  /// The alignment the file's start needs for every segment and aligned
  /// flatbuffer vector to keep its alignment.
  uint64_t getStartAlignment() const;
  void writeFile(raw_ostream &os);

private:
  LogicalResult placeData();
  /// Which blobs go to segments and which inline; the delegate entries with
  /// inline payloads, which are placed by their size.
  void choosePlacements(DenseSet<Operation *> &asSegment,
                        DenseSet<Operation *> &asInline,
                        SmallVectorImpl<DelegateOp> &inlinePayloadEntries);
  /// Gives each blob of `asSegment` and `asInline` its place.
  LogicalResult placeBlobs(const DenseSet<Operation *> &asSegment,
                           const DenseSet<Operation *> &asInline);
  /// Gives each inline payload of `entries` its place.
  LogicalResult placeInlinePayloads(ArrayRef<DelegateOp> entries);
  /// Aligns the data inside the flatbuffer, refusing what it cannot hold.
  LogicalResult alignInlineData();
  FailureOr<Payload> getBytes(Operation *user, ElementsAttr data,
                              uint64_t alignment);
  /// The key under which an entry's payload is placed: its blob, or the
  /// entry itself for an inline payload.
  Operation *getPayloadKey(DelegateOp entry);
  /// Whether a delegate payload of `size` bytes with no recorded placement
  /// goes inline. Empty ones always do, as ExecuTorch keeps them.
  bool keepInline(uint64_t size) const {
    return size == 0 || size <= options.inlineMaxSize;
  }
  /// The segment alignment: the program's own, raised to the option's.
  uint64_t getSegmentAlignment() {
    return layout::resolveSegmentAlignment(program.getSegmentAlignment(),
                                           options.segmentAlignment);
  }
  LogicalResult checkOptions();
  LogicalResult checkFlatbufferBudget();

  FailureOr<Offset<fb::ExecutionPlan>> buildPlan(MethodOp method);
  FailureOr<Offset<fb::EValue>> buildValue(Operation *decl);
  Offset<fb::Tensor> buildTensor(TensorOp op);
  FailureOr<Offset<fb::Instruction>> buildInstruction(Operation *op);
  Offset<fb::BackendDelegate> buildDelegate(DelegateOp entry);
  FailureOr<std::vector<Offset<fb::Buffer>>> buildConstantBuffers();
  Offset<fb::SubsegmentOffsets> buildConstantOffsets();
  Offset<flatbuffers::Vector<Offset<fb::SubsegmentOffsets>>>
  buildMutableSegments();
  Offset<flatbuffers::Vector<Offset<fb::NamedData>>> buildNamedData();
  LogicalResult buildProgram();
  /// Whether the file has segments, and so the extended header.
  bool hasSegments() const;
  Offset<flatbuffers::Vector<Offset<fb::FrameList>>>
  buildStackTrace(ArrayAttr stacktrace);
  Offset<flatbuffers::Vector<int32_t>> buildIndices(ValueRange values);
  Offset<flatbuffers::Vector<uint8_t>> buildAlignedBytes(ArrayRef<char> bytes,
                                                         uint64_t alignment);
  flatbuffers::Offset<flatbuffers::String> buildString(StringAttr string) {
    return string ? builder.CreateString(string.getValue().data(),
                                         string.getValue().size())
                  : 0;
  }

  ProgramOp program;
  const PTEWriteOptions &options;
  mlir::SymbolTable symbols;
  ReservedRangeAllocator allocator; // Before the builder that uses it.
  flatbuffers::FlatBufferBuilder builder{1024, &allocator};

  std::vector<Segment> segments;
  DenseMap<Operation *, uint32_t> segmentOf;
  std::vector<Payload> inlineData;
  DenseMap<Operation *, uint32_t> inlineOf;
  /// Whether a delegate entry or a planned tensor's initial data refers to
  /// a segment, which then needs the extended header even when the
  /// segments hold no bytes.
  bool segmentReferenced = false;
  /// Alignment of the segment base: a multiple of every segment's.
  uint64_t baseAlignment = 1;
  /// Segment index of the constant segment.
  uint32_t constantSegmentIndex = 0;
  ConstantSegmentOp constantSegment;
  ConstantBufferOp constantBuffer;
  SmallVector<MutableDataSegmentOp> mutableSegments;
  SmallVector<NamedDataOp> namedData;

  /// Index of every value, operator and delegate entry of the method being
  /// built, in its table.
  DenseMap<Value, int32_t> valueIndex;
  /// Payloads expanded from splats, alive until the file is written.
  SplatStorage splats;
  /// The extended header, and the bytes it takes with the padding after it,
  /// when the file has segments.
  pte::ExtendedHeader header;
  uint64_t headerRegion = 0;
};

//===----------------------------------------------------------------------===//
// Data placement
//===----------------------------------------------------------------------===//

FailureOr<Payload> PTEWriter::getBytes(Operation *user, ElementsAttr data,
                                       uint64_t alignment) {
  std::optional<ArrayRef<char>> bytes = getPayloadBytes(data, splats);
  if (!bytes)
    return user->emitOpError("payload data is not available (elided or "
                             "released resource); cannot write it");
  return Payload{*bytes, alignment};
}

Operation *PTEWriter::getPayloadKey(DelegateOp entry) {
  if (FlatSymbolRefAttr symbol = entry.getPayloadSymbol())
    return symbols.lookup(symbol.getAttr());
  return entry;
}

void PTEWriter::choosePlacements(
    DenseSet<Operation *> &asSegment, DenseSet<Operation *> &asInline,
    SmallVectorImpl<DelegateOp> &inlinePayloadEntries) {
  for (BlobOp blob : program.getBlobs())
    if (std::optional<DataPlacement> placement = blob.getPlacement())
      (*placement == DataPlacement::Inline ? asInline : asSegment).insert(blob);
  // Program data (constants, mutable data, named data) is read from
  // segments; delegate payloads are placed below.
  forEachBlobUser(program, [&](BlobUserOpInterface user) {
    if (FlatSymbolRefAttr blob = user.getBlobRef();
        blob && user.getDataKind() != DataKind::Delegate)
      asSegment.insert(symbols.lookup(blob.getValue()));
  });

  for (MethodOp method : program.getMethods())
    for (DelegateOp entry : method.getDelegates()) {
      if (entry.getInlinePayload()) {
        inlinePayloadEntries.push_back(entry);
        continue;
      }
      auto blob = cast<BlobOp>(getPayloadKey(entry));
      if (asSegment.contains(blob) || asInline.contains(blob))
        continue;
      uint64_t size =
          cast<ShapedType>(blob.getData().getType()).getNumElements();
      (keepInline(size) ? asInline : asSegment).insert(blob);
    }
}

LogicalResult PTEWriter::placeBlobs(const DenseSet<Operation *> &asSegment,
                                    const DenseSet<Operation *> &asInline) {
  for (BlobOp blob : program.getBlobs()) {
    bool segment = asSegment.contains(blob), inlined = asInline.contains(blob);
    if (!segment && !inlined)
      continue;
    auto payload = getBytes(blob, blob.getData(), blob.getAlignment());
    if (failed(payload))
      return failure();
    if (segment) {
      segmentOf[blob] = segments.size();
      segments.push_back({payload->bytes, payload->alignment});
    } else {
      inlineOf[blob] = inlineData.size();
      inlineData.push_back(*payload);
    }
    if (segment && constantSegment && constantSegment.getBlob() &&
        *constantSegment.getBlob() == blob.getSymName())
      segments.back().alignment =
          std::lcm(segments.back().alignment, options.constantAlignment);
  }
  return success();
}

LogicalResult PTEWriter::placeInlinePayloads(ArrayRef<DelegateOp> entries) {
  for (DelegateOp entry : entries) {
    et::BlobAttr blob = entry.getInlinePayload();
    auto payload = getBytes(entry, blob.getData(), blob.getAlignment());
    if (failed(payload))
      return failure();
    if (keepInline(payload->bytes.size())) {
      inlineOf[entry] = inlineData.size();
      inlineData.push_back(*payload);
    } else {
      segmentOf[entry] = segments.size();
      segments.push_back({payload->bytes, payload->alignment});
    }
  }

  return success();
}

LogicalResult PTEWriter::alignInlineData() {
  for (auto [key, index] : inlineOf) {
    Payload &payload = inlineData[index];
    payload.alignment = std::lcm(payload.alignment, options.inlineAlignment);
    if (payload.alignment > pte::kMaxInlineAlignment)
      return key->emitOpError("keeps a payload inline that asks for "
                              "alignment ")
             << payload.alignment << "; data inside the flatbuffer can be "
             << "aligned to at most " << pte::kMaxInlineAlignment
             << " (put it in a segment instead)";
  }

  return success();
}

/// Where each blob goes: a placed blob where its placement says, whether or
/// not anything names it; an unplaced one as a segment when program data
/// names it, and otherwise, for delegate payloads, by the layout options.
LogicalResult PTEWriter::placeData() {
  constantSegment = program.getConstantSegment();
  constantBuffer = program.getConstantBuffer();
  mutableSegments = llvm::to_vector(program.getMutableDataSegments());
  namedData = llvm::to_vector(program.getNamedData());
  DenseSet<Operation *> asSegment, asInline;
  SmallVector<DelegateOp> inlinePayloadEntries;
  choosePlacements(asSegment, asInline, inlinePayloadEntries);

  // A program without constant data of its own gets an empty constant
  // segment at index 0, which keeps the file off the runtime's deprecated
  // path; one with only the deprecated constant buffer keeps that path.
  if (!constantSegment && !constantBuffer)
    segments.push_back({});
  if (failed(placeBlobs(asSegment, asInline)) ||
      failed(placeInlinePayloads(inlinePayloadEntries)) ||
      failed(alignInlineData()))
    return failure();

  if (constantSegment)
    if (std::optional<StringRef> blob = constantSegment.getBlob())
      constantSegmentIndex = segmentOf.lookup(symbols.lookup(*blob));

  // Segment offsets are relative to the base, so the base is aligned to
  // every segment's alignment: a blob's alignment holds in the file.
  baseAlignment = layout::placeSegments(segments, getSegmentAlignment());
  return success();
}

LogicalResult PTEWriter::checkOptions() {
  for (auto [value, flag] :
       {std::make_pair(options.segmentAlignment.value_or(1),
                       "--pte-segment-alignment"),
        std::make_pair(options.constantAlignment, "--pte-constant-alignment"),
        std::make_pair(options.inlineAlignment, "--pte-inline-alignment")})
    if (!llvm::isPowerOf2_64(value))
      return mlir::emitError(program.getLoc(), "invalid option ")
             << flag << "=" << value << ": the value must be a power of two";
  for (auto [value, flag] :
       {std::make_pair(options.constantAlignment, "--pte-constant-alignment"),
        std::make_pair(options.inlineAlignment, "--pte-inline-alignment")})
    if (value > pte::kMaxInlineAlignment)
      return mlir::emitError(program.getLoc(), "invalid option ")
             << flag << "=" << value << ": data inside the flatbuffer can be "
             << "aligned to at most " << pte::kMaxInlineAlignment;
  return success();
}

/// Payloads inside the flatbuffer count against its 2 GiB ceiling. This
/// adds them up before anything is built, so an impossible layout stops
/// with advice instead of overflowing the builder.
LogicalResult PTEWriter::checkFlatbufferBudget() {
  struct Item {
    uint64_t size;
    std::string what;
    Location loc;
  };
  SmallVector<Item> items;
  uint64_t total = 0;
  for (auto [key, index] : inlineOf) {
    const Payload &payload = inlineData[index];
    std::string what;
    if (auto blob = dyn_cast<BlobOp>(key))
      what = ("inline payload @" + blob.getSymName()).str();
    else
      what = "inline payload of a delegate entry for " +
             cast<DelegateOp>(key).getBackendId().str();
    items.push_back({payload.bytes.size(), what, key->getLoc()});
    total += payload.bytes.size() + payload.alignment;
  }
  if (constantBuffer)
    for (auto [index, entry] : llvm::enumerate(
             constantBuffer.getEntries().getAsRange<ElementsAttr>())) {
      uint64_t size = cast<ShapedType>(entry.getType()).getNumElements();
      items.push_back({size, "constant_buffer entry " + std::to_string(index),
                       constantBuffer.getLoc()});
      total += size + options.constantAlignment;
    }
  if (total <= options.maxFlatbufferSize)
    return success();

  // Largest first; ties in program order, so the message is deterministic.
  llvm::stable_sort(
      items, [](const Item &a, const Item &b) { return a.size > b.size; });
  auto diag = mlir::emitError(program.getLoc(), "the flatbuffer would hold ")
              << total << " bytes of inline data, over the limit of "
              << options.maxFlatbufferSize
              << " bytes; nothing was written. Move payloads to segments: "
              << "lower --pte-inline-max-size (now " << options.inlineMaxSize
              << ") or drop `inline` from the largest blobs";
  for (const Item &item : ArrayRef(items).take_front(3))
    diag.attachNote(item.loc) << item.what << ": " << item.size << " bytes";
  return failure();
}

//===----------------------------------------------------------------------===//
// Methods
//===----------------------------------------------------------------------===//

Offset<flatbuffers::Vector<int32_t>>
PTEWriter::buildIndices(ValueRange values) {
  std::vector<int32_t> indices;
  indices.reserve(values.size());
  for (Value value : values)
    indices.push_back(valueIndex.lookup(value));
  return builder.CreateVector(indices);
}

Offset<flatbuffers::Vector<uint8_t>>
PTEWriter::buildAlignedBytes(ArrayRef<char> bytes, uint64_t alignment) {
  builder.ForceVectorAlignment(bytes.size(), sizeof(uint8_t),
                               std::max(alignment, pte::kInlineDataAlignment));
  return builder.CreateVector(reinterpret_cast<const uint8_t *>(bytes.data()),
                              bytes.size());
}

Offset<fb::Tensor> PTEWriter::buildTensor(TensorOp op) {
  auto sizes = builder.CreateVector(op.getSizes().data(), op.getSizes().size());
  std::vector<uint8_t> dimOrder(op.getDimOrder().begin(),
                                op.getDimOrder().end());
  auto dims = builder.CreateVector(dimOrder);
  Offset<fb::AllocationDetails> allocation;
  if (std::optional<int32_t> id = op.getMemoryId()) {
    uint64_t offset = op.getMemoryOffset().value_or(0);
    allocation =
        fb::CreateAllocationDetails(builder, *id, static_cast<uint32_t>(offset),
                                    static_cast<uint32_t>(offset >> 32));
  }
  Offset<fb::ExtraTensorInfo> extra;
  if (TensorInfoAttr info = op.getInfoAttr())
    extra = fb::CreateExtraTensorInfo(
        builder, info.getMutableSegment(), buildString(info.getFqn()),
        static_cast<fb::TensorDataLocation>(info.getLocation()),
        static_cast<fb::DeviceType>(info.getDeviceType()),
        static_cast<int8_t>(info.getDeviceIndex()));

  fb::TensorBuilder tensor(builder);
  tensor.add_scalar_type(static_cast<fb::ScalarType>(op.getScalarType()));
  tensor.add_sizes(sizes);
  tensor.add_dim_order(dims);
  tensor.add_requires_grad(op.getRequiresGrad());
  if (std::optional<int64_t> index = op.getDataIndex())
    tensor.add_data_buffer_idx(static_cast<uint32_t>(*index));
  // The runtime copies a planned tensor's initial data out of a mutable
  // data segment, even none of it: the file needs its segment base.
  bool external = op.getInfoAttr() && op.getInfoAttr().getLocation() ==
                                          TensorDataLocation::External;
  if (!allocation.IsNull() && op.getDataIndex() && !external)
    segmentReferenced = true;
  if (!allocation.IsNull())
    tensor.add_allocation_info(allocation);
  if (std::optional<int32_t> layout = op.getLayout())
    tensor.add_layout(static_cast<int8_t>(*layout));
  if (std::optional<ShapeDynamism> dynamism = op.getShapeDynamism())
    tensor.add_shape_dynamism(static_cast<fb::TensorShapeDynamism>(*dynamism));
  if (!extra.IsNull())
    tensor.add_extra_tensor_info(extra);
  return tensor.Finish();
}

FailureOr<Offset<fb::EValue>> PTEWriter::buildValue(Operation *decl) {
  auto make = [&](fb::KernelTypes type,
                  Offset<void> value) -> FailureOr<Offset<fb::EValue>> {
    return fb::CreateEValue(builder, type, value);
  };
  return TypeSwitch<Operation *, FailureOr<Offset<fb::EValue>>>(decl)
      .Case([&](NullOp) {
        return make(fb::KernelTypes::Null, fb::CreateNull(builder).Union());
      })
      .Case([&](IntOp op) {
        return make(fb::KernelTypes::Int,
                    fb::CreateInt(builder, op.getValue()).Union());
      })
      .Case([&](BoolOp op) {
        return make(fb::KernelTypes::Bool,
                    fb::CreateBool(builder, op.getValue()).Union());
      })
      .Case([&](DoubleOp op) {
        return make(
            fb::KernelTypes::Double,
            fb::CreateDouble(builder, op.getValue().convertToDouble()).Union());
      })
      .Case([&](StringOp op) {
        return make(
            fb::KernelTypes::String,
            fb::CreateString(builder, buildString(op.getValueAttr())).Union());
      })
      .Case([&](IntListOp op) {
        std::vector<int64_t> items;
        for (Value item : op.getItems())
          items.push_back(valueIndex.lookup(item));
        return make(
            fb::KernelTypes::IntList,
            fb::CreateIntList(builder, builder.CreateVector(items)).Union());
      })
      .Case([&](DoubleListOp op) {
        return make(fb::KernelTypes::DoubleList,
                    fb::CreateDoubleList(
                        builder, builder.CreateVector(op.getItems().data(),
                                                      op.getItems().size()))
                        .Union());
      })
      .Case([&](BoolListOp op) {
        std::vector<uint8_t> items(op.getItems().begin(), op.getItems().end());
        return make(
            fb::KernelTypes::BoolList,
            fb::CreateBoolList(builder, builder.CreateVector(items)).Union());
      })
      .Case([&](TensorListOp op) {
        return make(
            fb::KernelTypes::TensorList,
            fb::CreateTensorList(builder, buildIndices(op.getItems())).Union());
      })
      .Case([&](OptionalTensorListOp op) {
        // `none` items are index -1.
        std::vector<int32_t> items;
        ArrayRef<int32_t> nones = op.getNoneItems();
        auto item = op.getItems().begin();
        size_t total = op.getItems().size() + nones.size();
        for (size_t position = 0, none = 0; position < total; ++position) {
          if (none < nones.size() &&
              nones[none] == static_cast<int32_t>(position)) {
            items.push_back(-1);
            ++none;
          } else {
            items.push_back(valueIndex.lookup(*item++));
          }
        }
        return make(
            fb::KernelTypes::OptionalTensorList,
            fb::CreateOptionalTensorList(builder, builder.CreateVector(items))
                .Union());
      })
      .Case([&](TensorOp op) {
        return make(fb::KernelTypes::Tensor, buildTensor(op).Union());
      })
      .Default([](Operation *op) {
        return op->emitOpError("cannot be written as a .pte value");
      });
}

Offset<fb::BackendDelegate> PTEWriter::buildDelegate(DelegateOp entry) {
  Operation *key = getPayloadKey(entry);
  Offset<fb::BackendDelegateDataReference> processed;
  if (auto inlined = inlineOf.find(key); inlined != inlineOf.end()) {
    processed = fb::CreateBackendDelegateDataReference(
        builder, fb::DataLocation::INLINE, inlined->second);
  } else {
    segmentReferenced = true;
    processed = fb::CreateBackendDelegateDataReference(
        builder, fb::DataLocation::SEGMENT, segmentOf.lookup(key));
  }
  Offset<flatbuffers::Vector<Offset<fb::CompileSpec>>> specVector;
  if (ArrayAttr specAttrs = entry.getCompileSpecsAttr()) {
    SmallVector<Offset<fb::CompileSpec>, 8> specs; // No heap for a few.
    for (auto spec : specAttrs.getAsRange<CompileSpecAttr>()) {
      StringRef value = spec.getValue();
      specs.push_back(fb::CreateCompileSpec(
          builder,
          builder.CreateString(spec.getKey().data(), spec.getKey().size()),
          builder.CreateVector(reinterpret_cast<const uint8_t *>(value.data()),
                               value.size())));
    }
    specVector = builder.CreateVector(specs.data(), specs.size());
  }
  return fb::CreateBackendDelegate(
      builder, buildString(entry.getBackendIdAttr()), processed, specVector);
}

FailureOr<Offset<fb::Instruction>> PTEWriter::buildInstruction(Operation *op) {
  auto index = [&](Value value) { return valueIndex.lookup(value); };
  auto make = [&](fb::InstructionArguments type, Offset<void> args) {
    return fb::CreateInstruction(builder, type, args);
  };

  if (auto call = dyn_cast<KernelCallOp>(op)) {
    auto args = buildIndices(call.getArgs());
    return make(
        fb::InstructionArguments::KernelCall,
        fb::CreateKernelCall(builder, index(call.getCallee()), args).Union());
  }
  if (auto call = dyn_cast<CallDelegateOp>(op)) {
    auto args = buildIndices(call.getArgs());
    return make(fb::InstructionArguments::DelegateCall,
                fb::CreateDelegateCall(builder, index(call.getDelegate()), args)
                    .Union());
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

Offset<flatbuffers::Vector<Offset<fb::FrameList>>>
PTEWriter::buildStackTrace(ArrayAttr stacktrace) {
  std::vector<Offset<fb::FrameList>> lists;
  for (auto frames : stacktrace.getAsRange<ArrayAttr>()) {
    std::vector<Offset<fb::Frame>> items;
    for (auto frame : frames.getAsRange<FrameAttr>())
      items.push_back(fb::CreateFrame(
          builder, buildString(frame.getFile()), frame.getLine(),
          buildString(frame.getName()), buildString(frame.getSourceContext())));
    lists.push_back(fb::CreateFrameList(builder, builder.CreateVector(items)));
  }
  return builder.CreateVector(lists);
}

FailureOr<Offset<fb::ExecutionPlan>> PTEWriter::buildPlan(MethodOp method) {
  // Indices first: list values may name values declared after them.
  valueIndex.clear();
  SmallVector<Operation *> decls = method.getValueDecls();
  for (auto [index, decl] : llvm::enumerate(decls))
    valueIndex[decl->getResult(0)] = index;
  std::vector<Offset<fb::EValue>> values;
  values.reserve(decls.size());
  for (Operation *decl : decls) {
    auto value = buildValue(decl);
    if (failed(value))
      return failure();
    values.push_back(*value);
  }

  // The operator and delegate tables, in declaration order.
  std::vector<Offset<fb::Operator>> operators;
  for (OperatorOp op : method.getOperators()) {
    valueIndex[op.getResult()] = operators.size();
    operators.push_back(fb::CreateOperator(builder,
                                           buildString(op.getOpNameAttr()),
                                           buildString(op.getOverloadAttr())));
  }
  std::vector<Offset<fb::BackendDelegate>> delegates;
  for (DelegateOp entry : method.getDelegates()) {
    valueIndex[entry.getResult()] = delegates.size();
    delegates.push_back(buildDelegate(entry));
  }

  std::vector<Offset<fb::Chain>> chains;
  for (ChainOp chain : method.getChains()) {
    std::vector<Offset<fb::Instruction>> instructions;
    for (Operation &op : chain.getBody().front()) {
      auto instruction = buildInstruction(&op);
      if (failed(instruction))
        return failure();
      instructions.push_back(*instruction);
    }
    auto inputs = buildIndices(chain.getInputs());
    auto outputs = buildIndices(chain.getOutputs());
    auto body = builder.CreateVector(instructions);
    Offset<flatbuffers::Vector<Offset<fb::FrameList>>> stacktrace;
    if (ArrayAttr frames = chain.getStacktraceAttr())
      stacktrace = buildStackTrace(frames);
    chains.push_back(
        fb::CreateChain(builder, inputs, outputs, body, stacktrace));
  }

  SignatureOp signature = method.getSignature();
  auto inputs = buildIndices(signature.getInputs());
  auto outputs = buildIndices(signature.getOutputs());
  std::vector<int64_t> bufferSizes{0};
  if (std::optional<ArrayRef<int64_t>> buffers = method.getBuffers())
    bufferSizes.assign(buffers->begin(), buffers->end());

  Offset<fb::ContainerMetadata> containerMeta;
  if (ContainerMetaAttr meta = method.getContainerMetaAttr())
    containerMeta = fb::CreateContainerMetadata(
        builder, buildString(meta.getInputs()), buildString(meta.getOutputs()));
  Offset<flatbuffers::Vector<Offset<fb::NonConstBufferDevice>>> bufferDevices;
  if (ArrayAttr devices = method.getBufferDevicesAttr()) {
    std::vector<Offset<fb::NonConstBufferDevice>> entries;
    for (auto device : devices.getAsRange<BufferDeviceAttr>())
      entries.push_back(fb::CreateNonConstBufferDevice(
          builder, device.getBuffer(),
          static_cast<fb::DeviceType>(device.getDeviceType()),
          static_cast<int8_t>(device.getDeviceIndex())));
    bufferDevices = builder.CreateVector(entries);
  }

  auto name = buildString(method.getSymNameAttr());
  auto valueVector = builder.CreateVector(values);
  auto chainVector = builder.CreateVector(chains);
  auto operatorVector = builder.CreateVector(operators);
  auto delegateVector = builder.CreateVector(delegates);
  auto bufferVector = builder.CreateVector(bufferSizes);
  return fb::CreateExecutionPlan(builder, name, containerMeta, valueVector,
                                 inputs, outputs, chainVector, operatorVector,
                                 delegateVector, bufferVector, bufferDevices);
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

/// The deprecated constant buffer's entries, with a warning.
FailureOr<std::vector<Offset<fb::Buffer>>> PTEWriter::buildConstantBuffers() {
  std::vector<Offset<fb::Buffer>> buffers;
  if (!constantBuffer || constantBuffer.getEntries().empty())
    return buffers;
  uint64_t alignment =
      std::lcm(static_cast<uint64_t>(constantBuffer.getAlignment().value_or(1)),
               options.constantAlignment);
  constantBuffer.emitWarning("writing the deprecated constant_buffer (")
      << constantBuffer.getEntries().size()
      << " entries); runtimes built without deprecated constant buffer "
         "support reject this file";
  for (auto entry : constantBuffer.getEntries().getAsRange<ElementsAttr>()) {
    auto bytes = getBytes(constantBuffer, entry, 1);
    if (failed(bytes))
      return failure();
    buffers.push_back(
        fb::CreateBuffer(builder, buildAlignedBytes(bytes->bytes, alignment)));
  }
  return buffers;
}

Offset<fb::SubsegmentOffsets> PTEWriter::buildConstantOffsets() {
  if (constantSegment) {
    std::vector<uint64_t> offsets(constantSegment.getOffsets().begin(),
                                  constantSegment.getOffsets().end());
    uint32_t index = constantSegment.getBlob()
                         ? constantSegmentIndex
                         : constantSegment.getSegmentIndex().value_or(0);
    return fb::CreateSubsegmentOffsets(builder, index,
                                       builder.CreateVector(offsets));
  }
  if (constantBuffer)
    return {}; // Only the deprecated buffer, as the file it came from.
  // The empty constant segment placeData added at index 0.
  return fb::CreateSubsegmentOffsets(builder, /*segment_index=*/0,
                                     builder.CreateVector<uint64_t>({0}));
}

Offset<flatbuffers::Vector<Offset<fb::SubsegmentOffsets>>>
PTEWriter::buildMutableSegments() {
  if (mutableSegments.empty())
    return {};
  std::vector<Offset<fb::SubsegmentOffsets>> entries;
  for (MutableDataSegmentOp segment : mutableSegments) {
    std::vector<uint64_t> offsets(segment.getOffsets().begin(),
                                  segment.getOffsets().end());
    entries.push_back(fb::CreateSubsegmentOffsets(
        builder, segmentOf.lookup(symbols.lookup(segment.getBlob())),
        builder.CreateVector(offsets)));
  }
  return builder.CreateVector(entries);
}

Offset<flatbuffers::Vector<Offset<fb::NamedData>>> PTEWriter::buildNamedData() {
  if (namedData.empty() && !program.getEmptyNamedData())
    return {};
  std::vector<Offset<fb::NamedData>> entries;
  for (NamedDataOp named : namedData)
    entries.push_back(
        fb::CreateNamedData(builder, buildString(named.getKeyAttr()),
                            segmentOf.lookup(symbols.lookup(named.getBlob()))));
  return builder.CreateVector(entries);
}

/// Builds the whole flatbuffer, tables in the order ExecuTorch's builder
/// creates them, and finishes it.
LogicalResult PTEWriter::buildProgram() {
  std::vector<Offset<fb::ExecutionPlan>> plans;
  for (MethodOp method : program.getMethods()) {
    auto plan = buildPlan(method);
    if (failed(plan))
      return failure();
    plans.push_back(*plan);
  }
  auto constantBuffers = buildConstantBuffers();
  if (failed(constantBuffers))
    return failure();
  std::vector<Offset<fb::BackendDelegateInlineData>> inlineEntries;
  for (const Payload &payload : inlineData)
    inlineEntries.push_back(fb::CreateBackendDelegateInlineData(
        builder, buildAlignedBytes(payload.bytes, payload.alignment)));
  std::vector<Offset<fb::DataSegment>> segmentTable;
  for (const Segment &segment : segments)
    segmentTable.push_back(
        fb::CreateDataSegment(builder, segment.offset, segment.bytes.size()));
  auto constantOffsets = buildConstantOffsets();
  auto mutableVector = buildMutableSegments();
  auto namedVector = buildNamedData();

  auto planVector = builder.CreateVector(plans);
  auto bufferVector = builder.CreateVector(*constantBuffers);
  auto inlineVector = builder.CreateVector(inlineEntries);
  auto segmentVector = builder.CreateVector(segmentTable);
  auto root = fb::CreateProgram(builder, /*version=*/0, planVector,
                                bufferVector, inlineVector, segmentVector,
                                constantOffsets, mutableVector, namedVector);
  builder.Finish(root, fb::ProgramIdentifier());
  if (builder.GetSize() > options.maxFlatbufferSize)
    return mlir::emitError(program.getLoc(), "the program's flatbuffer is ")
           << builder.GetSize() << " bytes, over the limit of "
           << options.maxFlatbufferSize
           << " bytes; nothing was written (its inline payloads and "
           << "constant buffers are within the limit, so the rest of the "
           << "program is too large for one flatbuffer)";
  return success();
}

bool PTEWriter::hasSegments() const {
  return layout::segmentDataSize(segments) != 0 || segmentReferenced;
}

LogicalResult PTEWriter::prepare() {
  if (failed(checkOptions()) || failed(placeData()) ||
      failed(checkFlatbufferBudget()) || failed(buildProgram()))
    return failure();
  if (!hasSegments())
    return success();
  // The header region keeps every aligned vector aligned: its length is a
  // multiple of the largest alignment the builder forced.
  headerRegion =
      llvm::alignTo(pte::kHeaderLength, builder.GetBufferMinAlignment());
  header.programSize = headerRegion + builder.GetSize();
  header.segmentBaseOffset = llvm::alignTo(header.programSize, baseAlignment);
  header.segmentDataSize = layout::segmentDataSize(segments);
  return success();
}

uint64_t PTEWriter::getFileSize() const {
  return hasSegments() ? header.segmentBaseOffset + header.segmentDataSize
                       : builder.GetSize();
}

uint64_t PTEWriter::getStartAlignment() const {
  uint64_t flatbuffer = builder.GetBufferMinAlignment();
  return hasSegments() ? std::lcm(flatbuffer, baseAlignment) : flatbuffer;
}

/// Writes the finished flatbuffer with the extended header inserted at byte
/// 8, then the segments; or the bare flatbuffer when nothing needs them.
void PTEWriter::writeFile(raw_ostream &os) {
  ArrayRef<char> flatbuffer(
      reinterpret_cast<const char *>(builder.GetBufferPointer()),
      builder.GetSize());
  if (!hasSegments()) {
    // No segment data: the bare flatbuffer is the file, as ExecuTorch does.
    os.write(flatbuffer.data(), flatbuffer.size());
    return;
  }
  uint32_t rootOffset =
      llvm::support::endian::read32le(flatbuffer.data()) + headerRegion;
  writeLE32(os, rootOffset);
  os.write(flatbuffer.data() + 4, 4); // File identifier.
  pte::writeHeader(os, header);
  os.write_zeros(headerRegion - pte::kHeaderLength);
  os.write(flatbuffer.data() + 8, flatbuffer.size() - 8);
  layout::writeSegments(os, segments, header.programSize,
                        header.segmentBaseOffset);
}

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

/// The program `op` is or holds, or an error.
static FailureOr<ProgramOp> getProgramToWrite(Operation *op) {
  if (auto program = dyn_cast<ProgramOp>(op))
    return program;
  SmallVector<ProgramOp> programs;
  if (auto module = dyn_cast<ModuleOp>(op))
    programs = llvm::to_vector(module.getOps<ProgramOp>());
  if (programs.size() != 1)
    return mlir::emitError(op->getLoc(),
                           "expected exactly one 'et.program' to write as "
                           "a .pte, found ")
           << programs.size();
  return programs.front();
}

PreparedPTE::PreparedPTE(std::unique_ptr<PTEWriter> writer)
    : writer(std::move(writer)) {}
PreparedPTE::PreparedPTE(PreparedPTE &&) = default;
PreparedPTE::~PreparedPTE() = default;
uint64_t PreparedPTE::getSize() const { return writer->getFileSize(); }
uint64_t PreparedPTE::getStartAlignment() const {
  return writer->getStartAlignment();
}
void PreparedPTE::write(raw_ostream &os) { writer->writeFile(os); }

FailureOr<PreparedPTE> emit::preparePTE(ProgramOp program,
                                        const PTEWriteOptions &options) {
  // Callers of the API may hand over IR that no parser verified; the writer
  // relies on every invariant the verifiers check.
  if (options.verify && failed(verify(program)))
    return failure();
  // Every payload written must be there as the IR recorded it.
  if (failed(et::checkPayloadFiles(program)))
    return failure();
  auto writer = std::make_unique<PTEWriter>(program, options);
  if (failed(writer->prepare()))
    return failure();
  return PreparedPTE(std::move(writer));
}

LogicalResult emit::translateToPTE(Operation *op, raw_ostream &os,
                                   const PTEWriteOptions &options) {
  if (auto module = dyn_cast<ModuleOp>(op)) {
    auto bundles = llvm::to_vector(module.getOps<BundleOp>());
    if (bundles.size() == 1 && module.getOps<ProgramOp>().empty())
      return translateToBundle(bundles.front(), os, options);
  }
  FailureOr<ProgramOp> program = getProgramToWrite(op);
  if (failed(program))
    return failure();
  FailureOr<PreparedPTE> prepared = preparePTE(*program, options);
  if (failed(prepared))
    return failure();
  prepared->write(os);
  return success();
}
