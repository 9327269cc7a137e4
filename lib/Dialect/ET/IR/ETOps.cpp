//===- ETOps.cpp - ExecuTorch program dialect ops ---------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/IR/ETInvariants.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

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

/// `custom<Placement>`: an optional bare `inline` or `segment`, then `=`
/// (part of the directive, so that no placement prints no extra space).
static ParseResult parsePlacement(OpAsmParser &parser,
                                  DataPlacementAttr &attr) {
  for (DataPlacement placement :
       {DataPlacement::Inline, DataPlacement::Segment})
    if (succeeded(
            parser.parseOptionalKeyword(stringifyDataPlacement(placement)))) {
      attr = DataPlacementAttr::get(parser.getContext(), placement);
      break;
    }
  return parser.parseEqual();
}

static void printPlacement(OpAsmPrinter &printer, Operation *,
                           DataPlacementAttr attr) {
  if (attr)
    printer << stringifyDataPlacement(attr.getValue()) << ' ';
  printer << '=';
}

/// `custom<OptionalItems>`: `(%0, none, %1)`, the `none` items recorded by
/// their positions.
static ParseResult
parseOptionalItems(OpAsmParser &parser,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &items,
                   DenseI32ArrayAttr &noneItems) {
  SmallVector<int32_t> nonePositions;
  int32_t position = 0;
  auto parseItem = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword("none")))
      nonePositions.push_back(position);
    else if (parser.parseOperand(items.emplace_back()))
      return failure();
    ++position;
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseItem))
    return failure();
  noneItems = parser.getBuilder().getDenseI32ArrayAttr(nonePositions);
  return success();
}

static void printOptionalItems(OpAsmPrinter &printer, Operation *,
                               OperandRange items,
                               DenseI32ArrayAttr noneItems) {
  ArrayRef<int32_t> nones = noneItems.asArrayRef();
  printer << '(';
  size_t total = items.size() + nones.size();
  auto item = items.begin();
  for (size_t position = 0, none = 0; position < total; ++position) {
    if (position)
      printer << ", ";
    if (none < nones.size() && nones[none] == static_cast<int32_t>(position)) {
      printer << "none";
      ++none;
    } else {
      printer << *item++;
    }
  }
  printer << ')';
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
  if (std::optional<int64_t> alignment = getSegmentAlignment();
      alignment && (*alignment <= 0 || !llvm::isPowerOf2_64(*alignment)))
    return emitOpError("segment_alignment ")
           << *alignment << " is not a power of two";
  Operation *constantSegment = nullptr, *constantBuffer = nullptr;
  llvm::StringMap<Operation *> namedData;
  for (Operation &op : getBody().front()) {
    if (!isa<MethodOp, BlobOp, ConstantSegmentOp, ConstantBufferOp,
             MutableDataSegmentOp, NamedDataOp>(op))
      return op.emitOpError(
          "is not allowed in an 'et.program'; only methods, blobs and "
          "program data ops are");
    Operation **unique = isa<ConstantSegmentOp>(op)  ? &constantSegment
                         : isa<ConstantBufferOp>(op) ? &constantBuffer
                                                     : nullptr;
    if (unique && *unique)
      return (op.emitOpError("may appear once per program")
                  .attachNote((*unique)->getLoc())
              << "first one here"),
             failure();
    if (unique)
      *unique = &op;
    if (auto named = dyn_cast<NamedDataOp>(op)) {
      auto [it, inserted] = namedData.try_emplace(named.getKey(), &op);
      if (!inserted)
        return (named.emitOpError("key '")
                << named.getKey() << "' is already used"
                << "")
                       .attachNote(it->second->getLoc())
                   << "first use here",
               failure();
    }
  }
  return success();
}

/// Returns `base_N` for the smallest N >= `counter` that names no symbol in
/// `symbols`, and advances `counter` past it. Names depend only on program
/// order, never on hashes or pointers.
static StringAttr uniqueSymbolName(mlir::SymbolTable &symbols,
                                   MLIRContext *context, StringRef base,
                                   unsigned &counter) {
  while (true) {
    auto name = StringAttr::get(context, base + "_" + Twine(counter++));
    if (!symbols.lookup(name))
      return name;
  }
}

bool et::hoistInlinePayloads(ProgramOp program, RewriterBase &rewriter,
                             function_ref<bool(DelegateOp)> shouldHoist) {
  SmallVector<DelegateOp> inlineEntries;
  for (MethodOp method : program.getMethods())
    for (DelegateOp entry : method.getDelegates())
      if (entry.getInlinePayload() && (!shouldHoist || shouldHoist(entry)))
        inlineEntries.push_back(entry);
  if (inlineEntries.empty())
    return false;

  mlir::SymbolTable symbols(program);
  unsigned counter = 0;
  for (DelegateOp entry : inlineEntries) {
    et::BlobAttr payload = entry.getInlinePayload();
    rewriter.setInsertionPoint(entry->getParentOfType<MethodOp>());
    StringAttr name =
        uniqueSymbolName(symbols, program.getContext(), "payload", counter);
    auto blob = compat::create<BlobOp>(
        rewriter, entry.getLoc(), name,
        rewriter.getI64IntegerAttr(payload.getAlignment()),
        /*placement=*/nullptr, payload.getData());
    symbols.insert(blob);
    rewriter.modifyOpInPlace(
        entry, [&] { entry.setPayloadAttr(FlatSymbolRefAttr::get(name)); });
  }
  return true;
}

/// Canonical form: every delegate payload is a program-level `et.blob`.
/// Hoists inline payloads, in program order, each into its own blob placed
/// before the method that first uses it. Merging equal bytes is the job of
/// `--dedup-delegate-blobs`, which needs the whole program's bytes.
LogicalResult ProgramOp::canonicalize(ProgramOp program,
                                      PatternRewriter &rewriter) {
  return success(hoistInlinePayloads(program, rewriter));
}

/// Byte size of a tensor's elements, or std::nullopt on overflow.
static std::optional<uint64_t> tensorByteSize(TensorOp tensor) {
  return getTensorByteSize(tensor.getScalarType(), tensor.getSizes());
}

/// Byte count of the blob `symbol` names, from its type (so elided data
/// still verifies), or std::nullopt if it names no blob.
static std::optional<uint64_t> getBlobSize(mlir::SymbolTable &symbols,
                                           std::optional<StringRef> symbol) {
  if (!symbol)
    return std::nullopt;
  auto blob = symbols.lookup<BlobOp>(*symbol);
  if (!blob)
    return std::nullopt;
  return cast<ShapedType>(blob.getData().getType()).getNumElements();
}

/// Tensor data references point at data that exists: the runtime rejects
/// a file where they do not.
ConstantSegmentOp ProgramOp::getConstantSegment() {
  auto segments = getBody().front().getOps<ConstantSegmentOp>();
  return segments.empty() ? ConstantSegmentOp() : *segments.begin();
}

ConstantBufferOp ProgramOp::getConstantBuffer() {
  auto buffers = getBody().front().getOps<ConstantBufferOp>();
  return buffers.empty() ? ConstantBufferOp() : *buffers.begin();
}

/// The program data that tensors' data indices name, from the ops of
/// `program`; `sizes` holds what `tables` refers to.
static TensorDataTables
getTensorDataTables(ProgramOp program, mlir::SymbolTable &symbols,
                    SmallVectorImpl<SegmentEntries> &mutableSegments,
                    SmallVectorImpl<uint64_t> &constantBufferSizes) {
  TensorDataTables tables;
  if (ConstantSegmentOp segment = program.getConstantSegment();
      segment && !segment.getOffsets().empty())
    tables.constantSegment = SegmentEntries{
        segment.getOffsets(), getBlobSize(symbols, segment.getBlob())};
  if (ConstantBufferOp buffer = program.getConstantBuffer()) {
    for (Attribute entry : buffer.getEntries())
      constantBufferSizes.push_back(cast<ElementsAttr>(entry).getNumElements());
    tables.constantBuffer = constantBufferSizes;
  }
  for (MutableDataSegmentOp segment : program.getMutableDataSegments())
    mutableSegments.push_back(
        {segment.getOffsets(), getBlobSize(symbols, segment.getBlob())});
  tables.mutableSegments = mutableSegments;
  return tables;
}

LogicalResult ProgramOp::verifyRegions() {
  mlir::SymbolTable symbols(*this);
  SmallVector<SegmentEntries> mutableSegments;
  SmallVector<uint64_t> constantBufferSizes;
  TensorDataTables tables =
      getTensorDataTables(*this, symbols, mutableSegments, constantBufferSizes);
  for (MethodOp method : getMethods()) {
    for (TensorOp tensor : method.getBody().front().getOps<TensorOp>()) {
      std::optional<int64_t> index = tensor.getDataIndex();
      if (!index || *index == 0)
        continue;
      TensorInfoAttr info = tensor.getInfoAttr();
      if (info && info.getLocation() == TensorDataLocation::External)
        continue; // Found by name in a named data map at load time.
      if (Problem problem =
              getTensorDataProblem(*index, tensor.getMemoryId().has_value(),
                                   info ? info.getMutableSegment() : 0,
                                   tensorByteSize(tensor), tables))
        return tensor.emitOpError() << *problem;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Program data ops
//===----------------------------------------------------------------------===//

/// A data op names a blob that is stored as a segment.
static LogicalResult verifyDataBlob(Operation *op, FlatSymbolRefAttr symbol,
                                    SymbolTableCollection &symbolTable) {
  if (!symbol)
    return success();
  Operation *target = symbolTable.lookupNearestSymbolFrom(op, symbol);
  if (!target)
    return op->emitOpError("references undefined blob ") << symbol;
  auto blob = dyn_cast<BlobOp>(target);
  if (!blob)
    return op->emitOpError("names ")
           << symbol << ", a '" << target->getName() << "', not an 'et.blob'";
  if (blob.isInline())
    return op->emitOpError("names ")
           << symbol << ", which is marked inline; only delegate payloads "
           << "can be inline";
  return success();
}

static LogicalResult verifyOffsets(Operation *op, ArrayRef<int64_t> offsets) {
  for (auto [index, offset] : llvm::enumerate(offsets))
    if (offset < 0)
      return op->emitOpError("offset ")
             << index << " is negative (" << offset << ")";
  return success();
}

LogicalResult ConstantBufferOp::verify() {
  if (std::optional<int64_t> alignment = getAlignment();
      alignment && (*alignment <= 0 || !llvm::isPowerOf2_64(*alignment)))
    return emitOpError("alignment ") << *alignment << " is not a power of two";
  return success();
}

LogicalResult ConstantSegmentOp::verify() {
  if (getBlob() && getSegmentIndex())
    return emitOpError("names a blob and a segment_index: the blob's segment "
                       "is its index");
  if (getBlob() || !getSegmentIndex())
    return verifyOffsets(*this, getOffsets());
  if (getOffsets().size() > 1)
    return emitOpError("has entries besides the reserved one but names no "
                       "blob for them");
  return verifyOffsets(*this, getOffsets());
}

LogicalResult
ConstantSegmentOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyDataBlob(*this, getBlobAttr(), symbolTable);
}

LogicalResult MutableDataSegmentOp::verify() {
  return verifyOffsets(*this, getOffsets());
}

LogicalResult
MutableDataSegmentOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyDataBlob(*this, getBlobAttr(), symbolTable);
}

LogicalResult
NamedDataOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyDataBlob(*this, getBlobAttr(), symbolTable);
}

//===----------------------------------------------------------------------===//
// BlobUserOpInterface
//===----------------------------------------------------------------------===//

DataKind ConstantSegmentOp::getDataKind() { return DataKind::Constant; }
FlatSymbolRefAttr ConstantSegmentOp::getBlobRef() { return getBlobAttr(); }
void ConstantSegmentOp::setBlobRef(FlatSymbolRefAttr blob) {
  setBlobAttr(blob);
}

DataKind MutableDataSegmentOp::getDataKind() { return DataKind::Mutable; }
FlatSymbolRefAttr MutableDataSegmentOp::getBlobRef() { return getBlobAttr(); }
void MutableDataSegmentOp::setBlobRef(FlatSymbolRefAttr blob) {
  setBlobAttr(blob);
}

DataKind NamedDataOp::getDataKind() { return DataKind::NamedData; }
FlatSymbolRefAttr NamedDataOp::getBlobRef() { return getBlobAttr(); }
void NamedDataOp::setBlobRef(FlatSymbolRefAttr blob) { setBlobAttr(blob); }

DataKind DelegateOp::getDataKind() { return DataKind::Delegate; }
FlatSymbolRefAttr DelegateOp::getBlobRef() { return getPayloadSymbol(); }
void DelegateOp::setBlobRef(FlatSymbolRefAttr blob) { setPayloadAttr(blob); }

LogicalResult NamedDataOp::verify() {
  // A .pte's named data has no layout field; a .ptd's has, from 0.7 on.
  auto dataFile = dyn_cast<DataFileOp>((*this)->getParentOp());
  if (getLayoutAttr() && !dataFile)
    return emitOpError("has a tensor layout, which only named data of an "
                       "'et.data_file' can have");
  if (getLayoutAttr() && dataFile.getLayout_0_6())
    return emitOpError("has a tensor layout, which named data of a data file "
                       "in 0.6's layout cannot have (its tensors are "
                       "'et.data_tensor' ops)");
  return success();
}

//===----------------------------------------------------------------------===//
// DataTensorOp
//===----------------------------------------------------------------------===//

DataKind DataTensorOp::getDataKind() { return DataKind::NamedData; }
FlatSymbolRefAttr DataTensorOp::getBlobRef() { return getBlobAttr(); }
void DataTensorOp::setBlobRef(FlatSymbolRefAttr blob) { setBlobAttr(blob); }

LogicalResult
DataTensorOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (failed(verifyDataBlob(*this, getBlobAttr(), symbolTable)))
    return failure();
  auto blob =
      cast<BlobOp>(symbolTable.lookupNearestSymbolFrom(*this, getBlobAttr()));
  uint64_t held = cast<ShapedType>(blob.getData().getType()).getNumElements();
  std::optional<uint64_t> needed = getLayout().getByteSize();
  uint64_t offset = getOffset();
  if (needed && offset <= held && *needed <= held - offset)
    return success();
  return emitOpError("needs ")
         << (needed ? Twine(*needed).str() : std::string("too many"))
         << " bytes at offset " << offset << " of " << getBlobAttr()
         << ", which holds " << held;
}

//===----------------------------------------------------------------------===//
// DataFileOp
//===----------------------------------------------------------------------===//

void DataFileOp::build(OpBuilder &builder, OperationState &state,
                       StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addRegion()->push_back(new Block());
}

static LogicalResult verifyAlignment(Operation *op, StringRef name,
                                     std::optional<int64_t> alignment) {
  if (alignment && (*alignment <= 0 || !llvm::isPowerOf2_64(*alignment)))
    return op->emitOpError(name)
           << " " << *alignment << " is not a power of two";
  return success();
}

/// Records `key` of `op` in `keys`: an error when it is there already.
static LogicalResult addUniqueKey(llvm::StringMap<Operation *> &keys,
                                  StringRef key, Operation *op) {
  auto [it, inserted] = keys.try_emplace(key, op);
  if (inserted)
    return success();
  return (op->emitOpError("key '") << key << "' is already used")
             .attachNote(it->second->getLoc())
         << "first use here";
}

LogicalResult DataFileOp::verify() {
  if (failed(
          verifyAlignment(*this, "segment_alignment", getSegmentAlignment())) ||
      failed(verifyAlignment(*this, "tensor_alignment", getTensorAlignment())))
    return failure();
  if (getTensorAlignment() && !getLayout_0_6())
    return emitOpError("has a tensor_alignment, which only a data file in "
                       "0.6's layout has");
  // The runtime refuses a data file with a repeated key; 0.6's finds a
  // tensor by the first of its name.
  llvm::StringMap<Operation *> keys, tensorNames;
  for (Operation &op : getBody().front()) {
    if (auto blob = dyn_cast<BlobOp>(op)) {
      if (blob.isInline())
        return blob.emitOpError("is marked inline; a data file stores every "
                                "blob as a segment");
      continue;
    }
    if (auto tensor = dyn_cast<DataTensorOp>(op)) {
      if (!getLayout_0_6())
        return tensor.emitOpError("is in a data file that is not in 0.6's "
                                  "layout (add 'layout_0_6', or name the "
                                  "tensor with 'et.named_data')");
      if (failed(addUniqueKey(tensorNames, tensor.getFqn(), &op)))
        return failure();
      continue;
    }
    auto named = dyn_cast<NamedDataOp>(op);
    if (!named)
      return op.emitOpError("is not allowed in an 'et.data_file'; only blobs, "
                            "named data and data tensors are");
    if (failed(addUniqueKey(keys, named.getKey(), &op)))
      return failure();
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
  if (std::optional<ArrayRef<int64_t>> buffers = getBuffers())
    if (Problem problem = getMethodBuffersProblem(*buffers))
      return emitOpError() << *problem;
  return success();
}

LogicalResult MethodOp::verifyRegions() {
  // The terminator is an 'et.signature': it is the dialect's only
  // terminator allowed in a method, and the generic verifier requires one.
  Block &body = getBody().front();
  if (getChains().empty())
    return emitOpError("needs at least one 'et.chain'");

  ArrayRef<int64_t> buffers = getBuffers().value_or(ArrayRef<int64_t>{});
  for (Operation &op : body) {
    if (isa<ChainOp, SignatureOp, OperatorOp, DelegateOp>(op))
      continue;
    if (op.getNumResults() != 1 || !isa<ValueType>(op.getResult(0).getType()))
      return op.emitOpError(
          "is not allowed in a method body; only value, operator and "
          "delegate declarations, 'et.chain' and 'et.signature' are");
    auto tensor = dyn_cast<TensorOp>(op);
    if (!tensor || !tensor.getMemoryId())
      continue;
    // Memory-planned tensors must fit their buffer, as the runtime checks.
    if (Problem problem = getPlannedTensorProblem(
            *tensor.getMemoryId(), tensor.getMemoryOffset().value_or(0),
            tensorByteSize(tensor), buffers))
      return tensor.emitOpError() << *problem;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TensorOp
//===----------------------------------------------------------------------===//

LogicalResult TensorOp::verify() {
  if (failed(verifyTensorShape([&] { return emitOpError(); }, getSizes(),
                               getDimOrder())))
    return failure();
  if (getMemoryId().has_value() != getMemoryOffset().has_value())
    return emitOpError("needs both a memory id and an offset");
  if (std::optional<int64_t> offset = getMemoryOffset(); offset && *offset < 0)
    return emitOpError("has negative memory offset ") << *offset;
  if (std::optional<int64_t> index = getDataIndex(); index && *index < 0)
    return emitOpError("has negative data index ") << *index;
  return success();
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

/// Items must be declared by ops of the kinds the list holds, since the
/// runtime reads them as such.
static LogicalResult verifyListItems(Operation *list, ValueRange items) {
  for (auto [index, item] : llvm::enumerate(items)) {
    Operation *def = item.getDefiningOp();
    if (Problem problem = getListItemProblem(
            list->getName().getStringRef(), index,
            def ? def->getName().getStringRef() : StringRef()))
      return list->emitOpError() << *problem;
  }
  return success();
}

LogicalResult IntListOp::verify() { return verifyListItems(*this, getItems()); }

LogicalResult TensorListOp::verify() {
  return verifyListItems(*this, getItems());
}

LogicalResult OptionalTensorListOp::verify() {
  ArrayRef<int32_t> nones = getNoneItems();
  int64_t total = getItems().size() + nones.size();
  for (auto [index, position] : llvm::enumerate(nones))
    if (position < 0 || position >= total ||
        (index && position <= nones[index - 1]))
      return emitOpError("none_items must be increasing positions in [0, ")
             << total << ")";
  return verifyListItems(*this, getItems());
}

//===----------------------------------------------------------------------===//
// ChainOp
//===----------------------------------------------------------------------===//

LogicalResult ChainOp::verifyRegions() {
  Block &body = getBody().front();
  size_t count = body.getOperations().size();
  for (JumpFalseOp jump : body.getOps<JumpFalseOp>())
    if (static_cast<size_t>(jump.getDestination()) >= count)
      return jump.emitOpError("destination ")
             << jump.getDestination() << " is past the end of its chain of "
             << count << " instructions";
  return success();
}

//===----------------------------------------------------------------------===//
// Operator and delegate tables
//===----------------------------------------------------------------------===//

/// Appends `text` to `name`, each run of characters an SSA name cannot hold
/// as one `_`, so that result names read like what they declare.
static void appendNamePart(SmallString<32> &name, StringRef text) {
  bool gap = false;
  for (char c : text) {
    if (llvm::isAlnum(c) || c == '_' || c == '.' || c == '-') {
      if (gap && !name.empty() && name.back() != '.')
        name.push_back('_');
      name.push_back(c);
      gap = false;
    } else {
      gap = true;
    }
  }
}

LogicalResult OperatorOp::verify() {
  if (Problem problem = getOperatorProblem(getOpName()))
    return emitOpError() << *problem;
  return success();
}

void OperatorOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  // `aten::add` with overload `out` reads `%aten.add.out`.
  SmallString<32> name;
  for (StringRef part : llvm::split(getOpName(), "::")) {
    if (!name.empty())
      name.push_back('.');
    appendNamePart(name, part);
  }
  if (std::optional<StringRef> overload = getOverload();
      overload && !overload->empty()) {
    name.push_back('.');
    appendNamePart(name, *overload);
  }
  setNameFn(getResult(), name.empty() ? StringRef("op") : StringRef(name));
}

LogicalResult DelegateOp::verify() {
  if (Problem problem = getDelegateProblem(getBackendId()))
    return emitOpError() << *problem;
  return success();
}

void DelegateOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  SmallString<32> name;
  appendNamePart(name, getBackendId());
  setNameFn(getResult(),
            name.empty() ? StringRef("delegate") : StringRef(name));
}

OperatorOp KernelCallOp::getOperator() {
  return getCallee().getDefiningOp<OperatorOp>();
}

DelegateOp CallDelegateOp::getEntry() {
  return getDelegate().getDefiningOp<DelegateOp>();
}

LogicalResult DelegateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
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
// Bundled programs
//===----------------------------------------------------------------------===//

void BundleOp::build(OpBuilder &builder, OperationState &state,
                     StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addRegion()->push_back(new Block());
}

ProgramOp BundleOp::getProgram() {
  Block &body = getBody().front();
  return body.empty() ? ProgramOp() : dyn_cast<ProgramOp>(body.front());
}

SmallVector<ProgramOp> et::getPrograms(ModuleOp module) {
  SmallVector<ProgramOp> programs;
  for (Operation &op : *module.getBody()) {
    if (auto program = dyn_cast<ProgramOp>(op))
      programs.push_back(program);
    else if (auto bundle = dyn_cast<BundleOp>(op))
      if (ProgramOp program = bundle.getProgram())
        programs.push_back(program);
  }
  return programs;
}

LogicalResult BundleOp::verify() {
  if (std::optional<int64_t> version = getVersion();
      version && (*version < 0 || *version > UINT32_MAX))
    return emitOpError("version ")
           << *version << " does not fit BundledProgram.version (uint32)";
  if (!getProgram())
    return emitOpError("must begin with the 'et.program' it bundles");
  for (Operation &op : llvm::drop_begin(getBody().front()))
    if (!isa<TestSuiteOp>(op))
      return op.emitOpError("is not allowed in an 'et.bundle' after its "
                            "program; only test suites are");
  return success();
}

void TestSuiteOp::build(OpBuilder &builder, OperationState &state,
                        StringRef method) {
  state.addAttribute(getMethodAttrName(state.name),
                     builder.getStringAttr(method));
  state.addRegion()->push_back(new Block());
}

LogicalResult TestSuiteOp::verify() {
  for (Operation &op : getBody().front())
    if (!isa<TestCaseOp>(op))
      return op.emitOpError("is not allowed in an 'et.test_suite'; only "
                            "test cases are");
  return success();
}

/// Whether `value` is one a bundle can hold: a tensor, an int, a bool, a
/// double, or `unit` for none.
static bool isTestValue(Attribute value) {
  if (isa<TestTensorAttr, BoolAttr, UnitAttr>(value))
    return true;
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return integer.getType().isSignlessInteger(64);
  if (auto real = dyn_cast<FloatAttr>(value))
    return real.getType().isF64();
  return false;
}

LogicalResult TestCaseOp::verify() {
  for (auto [name, values] : {std::pair(StringRef("inputs"), getInputs()),
                              std::pair(StringRef("expected"), getExpected())})
    for (auto [index, value] : llvm::enumerate(values))
      if (!isTestValue(value))
        return emitOpError()
               << name << "[" << index << "] is " << value
               << "; a test value is an '#et.test_tensor', an i64 or f64 "
                  "number, true, false, or unit";
  return success();
}

//===----------------------------------------------------------------------===//
// JumpFalseOp
//===----------------------------------------------------------------------===//

LogicalResult JumpFalseOp::verify() {
  // The destination is checked by the enclosing chain, which counts its
  // instructions once rather than once per jump.
  Operation *def = getCondition().getDefiningOp();
  auto tensor = dyn_cast_or_null<TensorOp>(def);
  if (Problem problem = getJumpConditionProblem(
          def ? def->getName().getStringRef() : StringRef(),
          tensor ? std::optional(tensor.getScalarType()) : std::nullopt))
    return emitOpError() << *problem;
  return success();
}

#include "emit/Dialect/ET/IR/ETInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "emit/Dialect/ET/IR/ETOps.cpp.inc"
