//===- ETOps.cpp - ExecuTorch program dialect ops ---------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `custom<ScalarType>`: the element type as a bare keyword (`float`).
static ParseResult parseScalarType(OpAsmParser &parser, ScalarTypeAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ScalarType> type = symbolizeScalarType(keyword);
  if (!type)
    return parser.emitError(loc, "unknown scalar type '") << keyword << "'";
  attr = ScalarTypeAttr::get(parser.getContext(), *type);
  return success();
}

static void printScalarType(OpAsmPrinter &printer, Operation *,
                            ScalarTypeAttr attr) {
  printer << stringifyScalarType(attr.getValue());
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state,
                      StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  Region *body = state.addRegion();
  body->push_back(new Block());
}

LogicalResult ProgramOp::verify() {
  for (Operation &op : getBody().front())
    if (!isa<MethodOp, BlobOp>(op))
      return op.emitOpError("is not allowed in an 'et.program'; only "
                            "'et.method' and 'et.blob' are");
  return success();
}

/// Returns `base_N` for the smallest N >= `counter` that names no symbol in
/// `program`, and advances `counter` past it. Names depend only on program
/// order, never on hashes or pointers.
static StringAttr uniqueSymbolName(ProgramOp program, StringRef base,
                                   unsigned &counter) {
  MLIRContext *context = program.getContext();
  while (true) {
    auto name = StringAttr::get(context, base + "_" + Twine(counter++));
    if (!SymbolTable::lookupSymbolIn(program, name))
      return name;
  }
}

/// Canonical form: every delegate payload is a program-level `et.blob`.
/// Hoists inline payloads, in program order, each into its own blob placed
/// before the method that first uses it. Merging equal bytes is the job of
/// `--dedup-delegate-blobs`, which needs the whole program's bytes.
LogicalResult ProgramOp::canonicalize(ProgramOp program,
                                      PatternRewriter &rewriter) {
  SmallVector<CallDelegateOp> inlineCalls;
  for (MethodOp method : program.getMethods())
    method.walk([&](CallDelegateOp call) {
      if (call.getInlinePayload())
        inlineCalls.push_back(call);
    });
  if (inlineCalls.empty())
    return failure();

  unsigned counter = 0;
  for (CallDelegateOp call : inlineCalls) {
    BlobAttr payload = call.getInlinePayload();
    rewriter.setInsertionPoint(call->getParentOfType<MethodOp>());
    StringAttr name = uniqueSymbolName(program, "payload", counter);
    rewriter.create<BlobOp>(call.getLoc(), name,
                            rewriter.getI64IntegerAttr(payload.getAlignment()),
                            payload.getData());
    rewriter.modifyOpInPlace(
        call, [&] { call.setPayloadAttr(FlatSymbolRefAttr::get(name)); });
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MethodOp
//===----------------------------------------------------------------------===//

SignatureOp MethodOp::getSignature() {
  return cast<SignatureOp>(getBody().front().getTerminator());
}

SmallVector<Operation *> MethodOp::getValueDecls() {
  SmallVector<Operation *> decls;
  for (Operation &op : getBody().front())
    if (op.getNumResults() == 1 && isa<ValueType>(op.getResult(0).getType()))
      decls.push_back(&op);
  return decls;
}

LogicalResult MethodOp::verify() {
  if (std::optional<ArrayRef<int64_t>> buffers = getBuffers()) {
    if (buffers->empty() || buffers->front() != 0)
      return emitOpError("buffers must start with the reserved size 0");
    for (auto [index, size] : llvm::enumerate(*buffers))
      if (size < 0)
        return emitOpError("buffer ") << index << " has negative size " << size;
  }
  return success();
}

/// Byte size of a tensor's elements, or std::nullopt on overflow.
static std::optional<uint64_t> getTensorByteSize(TensorOp tensor) {
  uint64_t bytes = getScalarTypeByteSize(tensor.getScalarType());
  for (int32_t size : tensor.getSizes())
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(size), &bytes))
      return std::nullopt;
  return bytes;
}

LogicalResult MethodOp::verifyRegions() {
  // The terminator is an 'et.signature': it is the dialect's only
  // terminator allowed in a method, and the generic verifier requires one.
  Block &body = getBody().front();
  if (getChains().empty())
    return emitOpError("needs at least one 'et.chain'");

  ArrayRef<int64_t> buffers = getBuffers().value_or(ArrayRef<int64_t>{});
  for (Operation &op : body) {
    if (isa<ChainOp, SignatureOp>(op))
      continue;
    if (op.getNumResults() != 1 || !isa<ValueType>(op.getResult(0).getType()))
      return op.emitOpError("is not allowed in a method body; only value "
                            "declarations, 'et.chain' and 'et.signature' are");
    auto tensor = dyn_cast<TensorOp>(op);
    if (!tensor || !tensor.getMemoryId())
      continue;
    // Memory-planned tensors must fit their buffer, as the runtime checks.
    int32_t id = *tensor.getMemoryId();
    if (id < 1 || static_cast<size_t>(id) >= buffers.size())
      return tensor.emitOpError("memory id ")
             << id << " names no planned buffer; the method has "
             << (buffers.empty() ? 0 : buffers.size() - 1) << " (ids from 1)";
    std::optional<uint64_t> bytes = getTensorByteSize(tensor);
    uint64_t offset = tensor.getMemoryOffset().value_or(0);
    uint64_t capacity = buffers[id];
    if (!bytes || offset > capacity || *bytes > capacity - offset)
      return tensor.emitOpError("needs ")
             << (bytes ? Twine(*bytes).str() : std::string("too many"))
             << " bytes at offset " << offset << " of buffer " << id
             << ", which holds " << capacity;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TensorOp
//===----------------------------------------------------------------------===//

LogicalResult TensorOp::verify() {
  ArrayRef<int32_t> sizes = getSizes(), dimOrder = getDimOrder();
  if (sizes.size() != dimOrder.size())
    return emitOpError("has ") << sizes.size() << " sizes but "
                               << dimOrder.size() << " dim_order entries";
  llvm::SmallBitVector seen(dimOrder.size());
  for (int32_t dim : dimOrder) {
    if (dim < 0 || static_cast<size_t>(dim) >= dimOrder.size() || seen[dim])
      return emitOpError("dim_order must be a permutation of [0, ")
             << dimOrder.size() << ")";
    seen.set(dim);
  }
  for (int32_t size : sizes)
    if (size < 0)
      return emitOpError("has negative size ") << size;
  if (getMemoryId().has_value() != getMemoryOffset().has_value())
    return emitOpError("needs both a memory id and an offset");
  if (std::optional<int64_t> offset = getMemoryOffset(); offset && *offset < 0)
    return emitOpError("has negative memory offset ") << *offset;
  if (std::optional<int32_t> constant = getConstant();
      constant && *constant < 0)
    return emitOpError("has negative constant index ") << *constant;
  return success();
}

//===----------------------------------------------------------------------===//
// KernelCallOp
//===----------------------------------------------------------------------===//

LogicalResult KernelCallOp::verify() {
  if (getOpName().empty())
    return emitOpError("needs an operator name");
  return success();
}

//===----------------------------------------------------------------------===//
// CallDelegateOp
//===----------------------------------------------------------------------===//

LogicalResult CallDelegateOp::verify() {
  if (getBackendId().empty())
    return emitOpError("needs a backend id");
  return success();
}

LogicalResult
CallDelegateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FlatSymbolRefAttr symbol = getPayloadSymbol();
  if (!symbol)
    return success();
  Operation *target = symbolTable.lookupNearestSymbolFrom(*this, symbol);
  if (!target)
    return emitOpError("references undefined blob ") << symbol;
  if (!isa<BlobOp>(target))
    return emitOpError("payload ")
           << symbol << " is a '" << target->getName() << "', not an 'et.blob'";
  return success();
}

//===----------------------------------------------------------------------===//
// JumpFalseOp
//===----------------------------------------------------------------------===//

LogicalResult JumpFalseOp::verify() {
  Block &chain = (*this)->getParentOp()->getRegion(0).front();
  size_t count = chain.getOperations().size();
  if (static_cast<size_t>(getDestination()) >= count)
    return emitOpError("destination ")
           << getDestination() << " is past the end of its chain of " << count
           << " instructions";
  Operation *def = getCondition().getDefiningOp();
  auto tensor = dyn_cast_or_null<TensorOp>(def);
  if (!isa_and_nonnull<BoolOp>(def) &&
      !(tensor && tensor.getScalarType() == ScalarType::Bool))
    return emitOpError("condition must be an 'et.bool' or a bool tensor");
  return success();
}

#define GET_OP_CLASSES
#include "emit/Dialect/ET/IR/ETOps.cpp.inc"
