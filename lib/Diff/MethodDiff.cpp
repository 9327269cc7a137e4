//===- MethodDiff.cpp - What changed in the methods ------------ -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Methods match by name, delegate entries by method and index, operators by
// name within a method, constants by fully qualified name (else by method
// and value). A method is the same when its tables and chains are, op by
// op, with data compared by the bytes it holds: which blob, segment or
// entry holds them is layout.
//
//===----------------------------------------------------------------------===//

#include "DiffInternal.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mlir;
using namespace emit;
using namespace emit::diff;

namespace {
/// Where the bytes a side's data refers to are.
struct SideData {
  Side &side;

  /// The initial bytes of `tensor`: its constant (segment or deprecated
  /// buffer entry, or the data file key it is external under), or its
  /// mutable data; std::nullopt when it has none or they cannot be found.
  std::optional<ArrayRef<char>> tensorBytes(et::TensorOp tensor);
  /// The bytes of an external tensor of `size` bytes, under `fqn` in the
  /// side's data files (the first that holds it, as the runtime merges).
  std::optional<ArrayRef<char>> externalBytes(StringRef fqn, uint64_t size);
  /// The payload of a delegate entry, inline or in a blob.
  std::optional<ArrayRef<char>> payloadBytes(et::DelegateOp entry);
};
} // namespace

/// Whether `tensor` finds its data in named data (a data file), under its
/// fully qualified name: its data index, if any, is then not read.
static bool isExternal(et::TensorOp tensor) {
  et::TensorInfoAttr info = tensor.getInfoAttr();
  return info && info.getLocation() == et::TensorDataLocation::External;
}

std::optional<ArrayRef<char>> SideData::externalBytes(StringRef fqn,
                                                      uint64_t size) {
  auto first = [&](std::optional<ArrayRef<char>> bytes,
                   uint64_t offset) -> std::optional<ArrayRef<char>> {
    if (!bytes || offset > bytes->size() || size > bytes->size() - offset)
      return std::nullopt;
    return bytes->slice(offset, size);
  };
  for (et::DataFileOp dataFile : side.dataFiles) {
    for (et::DataTensorOp tensor : dataFile.getDataTensors())
      if (tensor.getFqn() == fqn)
        return first(side.blobBytes(dataFile, tensor.getBlob()),
                     tensor.getOffset());
    for (et::NamedDataOp entry : dataFile.getNamedData())
      if (entry.getKey() == fqn && !dataFile.getLayout_0_6())
        return first(side.blobBytes(dataFile, entry.getBlob()), 0);
  }
  return std::nullopt;
}

std::optional<ArrayRef<char>> SideData::tensorBytes(et::TensorOp tensor) {
  std::optional<uint64_t> size =
      et::getTensorByteSize(tensor.getScalarType(), tensor.getSizes());
  if (!size)
    return std::nullopt;
  if (isExternal(tensor)) {
    et::TensorInfoAttr info = tensor.getInfoAttr();
    if (!info.getFqn())
      return std::nullopt;
    return externalBytes(info.getFqn().getValue(), *size);
  }
  std::optional<int64_t> index = tensor.getDataIndex();
  if (!index || *index <= 0)
    return std::nullopt;
  et::ProgramOp program = side.program;
  auto slice = [&](std::optional<ArrayRef<char>> bytes,
                   ArrayRef<int64_t> offsets) -> std::optional<ArrayRef<char>> {
    if (!bytes || uint64_t(*index) >= offsets.size())
      return std::nullopt;
    uint64_t offset = offsets[*index];
    if (offset > bytes->size() || *size > bytes->size() - offset)
      return std::nullopt;
    return bytes->slice(offset, *size);
  };
  if (tensor.getMemoryId()) {
    uint64_t segment = 0;
    if (et::TensorInfoAttr info = tensor.getInfoAttr())
      segment = info.getMutableSegment();
    auto segments = llvm::to_vector(program.getMutableDataSegments());
    if (segment >= segments.size())
      return std::nullopt;
    return slice(side.blobBytes(program, segments[segment].getBlob()),
                 segments[segment].getOffsets());
  }
  et::ConstantSegmentOp constants = program.getConstantSegment();
  if (constants && constants.getOffsets().size() > 1) {
    if (std::optional<StringRef> blob = constants.getBlob())
      return slice(side.blobBytes(program, *blob), constants.getOffsets());
    return std::nullopt;
  }
  if (et::ConstantBufferOp buffer = program.getConstantBuffer()) {
    ArrayAttr entries = buffer.getEntries();
    if (uint64_t(*index) >= entries.size())
      return std::nullopt;
    // The tensor reads its own size's bytes: an entry may be padded past
    // them (as ExecuTorch aligned them), which is not its data.
    std::optional<ArrayRef<char>> bytes =
        side.bytesOf(cast<ElementsAttr>(entries[*index]));
    if (bytes && *size <= bytes->size())
      return bytes->take_front(*size);
    return bytes;
  }
  return std::nullopt;
}

std::optional<ArrayRef<char>> SideData::payloadBytes(et::DelegateOp entry) {
  if (et::BlobAttr payload = entry.getInlinePayload())
    return side.bytesOf(payload.getData());
  return side.blobBytes(side.program, entry.getPayloadSymbol().getValue());
}

static uint64_t sizeOf(std::optional<ArrayRef<char>> bytes) {
  return bytes ? bytes->size() : 0;
}

//===----------------------------------------------------------------------===//
// A method, op by op
//===----------------------------------------------------------------------===//

namespace {
/// Compares two methods of the same name, op by op.
class MethodMatcher {
public:
  MethodMatcher(SideData oldData, SideData newData, ByteComparator &bytes)
      : oldData(oldData), newData(newData), bytes(bytes) {}

  /// The first difference between the methods, or std::nullopt.
  std::optional<std::string> firstDifference(et::MethodOp oldMethod,
                                             et::MethodOp newMethod);

private:
  /// Why `a` and `b` differ, or std::nullopt when they do not.
  std::optional<std::string> compareOps(Operation *a, Operation *b);
  std::optional<std::string> compareAttributes(Operation *a, Operation *b);
  /// Compares the ops of two lists pairwise, each named `what` and its index.
  template <typename RangeA, typename RangeB>
  std::optional<std::string> compareLists(StringRef what, RangeA a, RangeB b);

  SideData oldData, newData;
  ByteComparator &bytes;
  /// Each value's place among the method's results, per side.
  llvm::DenseMap<Value, unsigned> oldOrdinals, newOrdinals;
};
} // namespace

static void numberResults(et::MethodOp method,
                          llvm::DenseMap<Value, unsigned> &ordinals) {
  method.walk([&](Operation *op) {
    for (Value result : op->getResults())
      ordinals.try_emplace(result, ordinals.size());
  });
}

/// Whether two tensor infos say the same but for where the bytes are (the
/// mutable data segment they name, the program or a data file): that is
/// layout, and the bytes themselves are compared.
static bool sameInfo(Attribute a, Attribute b) {
  auto x = dyn_cast_or_null<et::TensorInfoAttr>(a);
  auto y = dyn_cast_or_null<et::TensorInfoAttr>(b);
  if (!x || !y)
    return a == b;
  return x.getFqn() == y.getFqn() && x.getDeviceType() == y.getDeviceType() &&
         x.getDeviceIndex() == y.getDeviceIndex();
}

std::optional<std::string> MethodMatcher::compareAttributes(Operation *a,
                                                            Operation *b) {
  // Data is compared by its bytes, wherever they are.
  if (auto oldEntry = dyn_cast<et::DelegateOp>(a)) {
    auto newEntry = cast<et::DelegateOp>(b);
    std::optional<ArrayRef<char>> oldBytes = oldData.payloadBytes(oldEntry),
                                  newBytes = newData.payloadBytes(newEntry);
    if (!oldBytes || !newBytes || !bytes.equal(*oldBytes, *newBytes))
      return std::string("its payload differs");
  }
  if (auto oldTensor = dyn_cast<et::TensorOp>(a)) {
    auto newTensor = cast<et::TensorOp>(b);
    std::optional<ArrayRef<char>> oldBytes = oldData.tensorBytes(oldTensor),
                                  newBytes = newData.tensorBytes(newTensor);
    if (bool(oldBytes) != bool(newBytes) ||
        (oldBytes && !bytes.equal(*oldBytes, *newBytes)))
      return std::string("its data differs");
  }
  auto isData = [](Operation *op, StringRef name) {
    return (isa<et::DelegateOp>(op) && name == "payload") ||
           (isa<et::TensorOp>(op) && name == "data_index");
  };
  // Both lists are sorted by name.
  ArrayRef<NamedAttribute> oldAttrs = a->getAttrs(), newAttrs = b->getAttrs();
  auto skipData = [&](ArrayRef<NamedAttribute> &attrs, Operation *op) {
    while (!attrs.empty() && isData(op, attrs.front().getName().getValue()))
      attrs = attrs.drop_front();
  };
  for (skipData(oldAttrs, a), skipData(newAttrs, b);
       !oldAttrs.empty() || !newAttrs.empty();
       skipData(oldAttrs, a), skipData(newAttrs, b)) {
    if (oldAttrs.empty() || newAttrs.empty() ||
        oldAttrs.front().getName() != newAttrs.front().getName()) {
      NamedAttribute extra =
          oldAttrs.empty() ||
                  (!newAttrs.empty() && newAttrs.front().getName().strref() <
                                            oldAttrs.front().getName().strref())
              ? newAttrs.front()
              : oldAttrs.front();
      return ("its '" + extra.getName().strref() + "' differs").str();
    }
    NamedAttribute x = oldAttrs.front(), y = newAttrs.front();
    if (x.getName() == "info" ? !sameInfo(x.getValue(), y.getValue())
                              : x.getValue() != y.getValue())
      return ("its '" + x.getName().strref() + "' differs").str();
    oldAttrs = oldAttrs.drop_front();
    newAttrs = newAttrs.drop_front();
  }
  return std::nullopt;
}

std::optional<std::string> MethodMatcher::compareOps(Operation *a,
                                                     Operation *b) {
  if (a->getName() != b->getName())
    return (a->getName().getStringRef() + " is now " +
            b->getName().getStringRef())
        .str();
  if (a->getResultTypes() != b->getResultTypes())
    return std::string("its type differs");
  auto ordinals = [](Operation *op, llvm::DenseMap<Value, unsigned> &numbers) {
    SmallVector<unsigned> result;
    for (Value operand : op->getOperands())
      result.push_back(numbers.lookup(operand));
    return result;
  };
  if (ordinals(a, oldOrdinals) != ordinals(b, newOrdinals))
    return std::string("its operands differ");
  return compareAttributes(a, b);
}

template <typename RangeA, typename RangeB>
std::optional<std::string> MethodMatcher::compareLists(StringRef what, RangeA a,
                                                       RangeB b) {
  auto oldOps = llvm::to_vector(a), newOps = llvm::to_vector(b);
  for (auto [index, pair] : llvm::enumerate(llvm::zip(oldOps, newOps))) {
    Operation *oldOp = std::get<0>(pair), *newOp = std::get<1>(pair);
    if (std::optional<std::string> why = compareOps(oldOp, newOp))
      return (what + " " + Twine(index) + " (" +
              oldOp->getName().getStringRef() + "): " + *why)
          .str();
  }
  if (oldOps.size() != newOps.size())
    return ("it has " + Twine(newOps.size()) + " " + what + "s, was " +
            Twine(oldOps.size()))
        .str();
  return std::nullopt;
}

std::optional<std::string>
MethodMatcher::firstDifference(et::MethodOp oldMethod, et::MethodOp newMethod) {
  numberResults(oldMethod, oldOrdinals);
  numberResults(newMethod, newOrdinals);
  auto ops = [](auto range) {
    return llvm::map_range(range, [](auto op) { return op.getOperation(); });
  };
  if (auto why = compareLists("value", oldMethod.getValueDecls(),
                              newMethod.getValueDecls()))
    return why;
  if (auto why = compareLists("operator", ops(oldMethod.getOperators()),
                              ops(newMethod.getOperators())))
    return why;
  if (auto why = compareLists("delegate entry", ops(oldMethod.getDelegates()),
                              ops(newMethod.getDelegates())))
    return why;
  if (auto why = compareLists("chain", ops(oldMethod.getChains()),
                              ops(newMethod.getChains())))
    return why;
  for (auto [index, chains] : llvm::enumerate(
           llvm::zip(oldMethod.getChains(), newMethod.getChains()))) {
    auto [oldChain, newChain] = chains;
    auto instructions = [](et::ChainOp chain) {
      return llvm::map_range(chain.getBody().front(),
                             [](Operation &op) { return &op; });
    };
    if (auto why = compareLists("instruction", instructions(oldChain),
                                instructions(newChain)))
      return ("chain " + Twine(index) + ", " + *why).str();
  }
  if (auto why = compareOps(oldMethod.getSignature(), newMethod.getSignature()))
    return "the signature: " + *why;
  for (StringRef name : {"buffers", "container_meta", "buffer_devices"})
    if (oldMethod->getAttr(name) != newMethod->getAttr(name))
      return ("its '" + name + "' differs").str();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Methods, entries, operators and constants
//===----------------------------------------------------------------------===//

static MethodCounts countsOf(et::MethodOp method) {
  MethodCounts counts;
  counts.values = method.getValueDecls().size();
  for (et::ChainOp chain : method.getChains())
    for (Operation &op : chain.getBody().front()) {
      ++counts.instructions;
      if (isa<et::CallDelegateOp>(op))
        ++counts.delegateCalls;
      else if (isa<et::KernelCallOp>(op))
        ++counts.kernelCalls;
    }
  return counts;
}

static std::string operatorName(et::OperatorOp op) {
  std::string name = op.getOpName().str();
  if (std::optional<StringRef> overload = op.getOverload();
      overload && !overload->empty())
    name += ("." + *overload).str();
  return name;
}

/// Entries by index: backend, specs, payload size and bytes.
static void compareDelegates(StringRef method, SideData oldData,
                             et::MethodOp oldMethod, SideData newData,
                             et::MethodOp newMethod, ByteComparator &bytes,
                             std::vector<DelegateDiff> &diffs) {
  auto oldEntries = llvm::to_vector(oldMethod.getDelegates());
  auto newEntries = llvm::to_vector(newMethod.getDelegates());
  for (size_t i = 0; i < std::max(oldEntries.size(), newEntries.size()); ++i) {
    DelegateDiff diff{DiffChange::Changed, method.str(), unsigned(i)};
    if (i >= newEntries.size()) {
      diff.change = DiffChange::Removed;
      diff.backend = oldEntries[i].getBackendId().str();
      diff.oldBytes = sizeOf(oldData.payloadBytes(oldEntries[i]));
    } else if (i >= oldEntries.size()) {
      diff.change = DiffChange::Added;
      diff.backend = newEntries[i].getBackendId().str();
      diff.newBytes = sizeOf(newData.payloadBytes(newEntries[i]));
    } else {
      et::DelegateOp oldEntry = oldEntries[i], newEntry = newEntries[i];
      std::optional<ArrayRef<char>> oldBytes = oldData.payloadBytes(oldEntry),
                                    newBytes = newData.payloadBytes(newEntry);
      diff.backend = newEntry.getBackendId().str();
      if (oldEntry.getBackendId() != newEntry.getBackendId())
        diff.oldBackend = oldEntry.getBackendId().str();
      diff.oldBytes = sizeOf(oldBytes);
      diff.newBytes = sizeOf(newBytes);
      diff.specsChanged =
          oldEntry.getCompileSpecsAttr() != newEntry.getCompileSpecsAttr();
      diff.payloadChanged =
          !oldBytes || !newBytes || !bytes.equal(*oldBytes, *newBytes);
      if (diff.oldBackend.empty() && !diff.specsChanged && !diff.payloadChanged)
        continue;
    }
    diffs.push_back(std::move(diff));
  }
}

/// Operator names of one method on one side and not the other.
static void compareOperators(StringRef method, et::MethodOp oldMethod,
                             et::MethodOp newMethod,
                             std::vector<OperatorDiff> &diffs) {
  auto names = [](et::MethodOp m) {
    SmallVector<std::string> result;
    if (m)
      for (et::OperatorOp op : m.getOperators())
        if (!llvm::is_contained(result, operatorName(op)))
          result.push_back(operatorName(op));
    return result;
  };
  SmallVector<std::string> oldNames = names(oldMethod),
                           newNames = names(newMethod);
  for (const std::string &name : oldNames)
    if (!llvm::is_contained(newNames, name))
      diffs.push_back({DiffChange::Removed, method.str(), name});
  for (const std::string &name : newNames)
    if (!llvm::is_contained(oldNames, name))
      diffs.push_back({DiffChange::Added, method.str(), name});
}

namespace {
/// A constant tensor of one side, found by its name.
struct Constant {
  et::TensorOp tensor;
  std::string method;
  unsigned value;
  std::optional<ArrayRef<char>> bytes;
};
} // namespace

/// The key of a constant: its fully qualified name, else method and value.
static std::string constantKey(et::TensorOp tensor, StringRef method,
                               unsigned value) {
  if (et::TensorInfoAttr info = tensor.getInfoAttr())
    if (StringAttr fqn = info.getFqn(); fqn && !fqn.getValue().empty())
      return ("fqn:" + fqn.getValue()).str();
  return ("value:" + method + "#" + Twine(value)).str();
}

/// Every constant (a tensor with data in the program and no memory plan)
/// of `data`'s program, by key, in program order; the first of a name used
/// twice. External constants are named data, compared by key.
static llvm::StringMap<Constant>
collectConstants(SideData data, SmallVector<std::string> &keys) {
  llvm::StringMap<Constant> constants;
  for (et::MethodOp method : data.side.program.getMethods())
    for (auto [index, op] : llvm::enumerate(method.getValueDecls())) {
      auto tensor = dyn_cast<et::TensorOp>(op);
      if (!tensor || tensor.getMemoryId() || !tensor.getDataIndex() ||
          *tensor.getDataIndex() <= 0 || isExternal(tensor))
        continue;
      std::string key = constantKey(tensor, method.getSymName(), index);
      Constant constant{tensor, method.getSymName().str(), unsigned(index),
                        data.tensorBytes(tensor)};
      if (constants.try_emplace(key, std::move(constant)).second)
        keys.push_back(key);
    }
  return constants;
}

static ConstantDiff constantDiff(DiffChange change, StringRef key,
                                 const Constant &constant) {
  ConstantDiff diff{change};
  if (key.consume_front("fqn:"))
    diff.name = key.str();
  diff.method = constant.method;
  diff.value = constant.value;
  return diff;
}

static void compareConstants(SideData oldData, SideData newData,
                             ByteComparator &bytes,
                             std::vector<ConstantDiff> &diffs) {
  SmallVector<std::string> oldKeys, newKeys;
  llvm::StringMap<Constant> oldConstants = collectConstants(oldData, oldKeys);
  llvm::StringMap<Constant> newConstants = collectConstants(newData, newKeys);
  for (const std::string &key : oldKeys) {
    const Constant &old = oldConstants.find(key)->second;
    auto it = newConstants.find(key);
    if (it == newConstants.end()) {
      ConstantDiff diff = constantDiff(DiffChange::Removed, key, old);
      diff.oldBytes = sizeOf(old.bytes);
      diffs.push_back(std::move(diff));
      continue;
    }
    const Constant &now = it->second;
    ConstantDiff diff = constantDiff(DiffChange::Changed, key, now);
    diff.oldBytes = sizeOf(old.bytes);
    diff.newBytes = sizeOf(now.bytes);
    et::TensorOp oldTensor = old.tensor, newTensor = now.tensor;
    diff.typeChanged = oldTensor.getScalarType() != newTensor.getScalarType() ||
                       oldTensor.getSizes() != newTensor.getSizes();
    diff.bytesChanged =
        !old.bytes || !now.bytes || !bytes.equal(*old.bytes, *now.bytes);
    if (diff.typeChanged || diff.bytesChanged)
      diffs.push_back(std::move(diff));
  }
  for (const std::string &key : newKeys)
    if (!oldConstants.count(key)) {
      const Constant &now = newConstants.find(key)->second;
      ConstantDiff diff = constantDiff(DiffChange::Added, key, now);
      diff.newBytes = sizeOf(now.bytes);
      diffs.push_back(std::move(diff));
    }
}

/// Largest first, by the larger side; the order found among equals.
template <typename T>
static void sortLargestFirst(std::vector<T> &items) {
  std::stable_sort(items.begin(), items.end(), [](const T &a, const T &b) {
    return std::max(a.oldBytes, a.newBytes) > std::max(b.oldBytes, b.newBytes);
  });
}

void diff::compareMethods(Side &oldSide, Side &newSide, ByteComparator &bytes,
                          DiffReport &report) {
  SideData oldData{oldSide}, newData{newSide};
  llvm::StringMap<et::MethodOp> newMethods;
  for (et::MethodOp method : newSide.program.getMethods())
    newMethods[method.getSymName()] = method;
  llvm::StringSet<> oldNames;
  for (et::MethodOp oldMethod : oldSide.program.getMethods()) {
    StringRef name = oldMethod.getSymName();
    oldNames.insert(name);
    et::MethodOp newMethod = newMethods.lookup(name);
    compareOperators(name, oldMethod, newMethod, report.operators);
    if (!newMethod) {
      report.methods.push_back(
          {DiffChange::Removed, name.str(), countsOf(oldMethod), {}, ""});
      continue;
    }
    compareDelegates(name, oldData, oldMethod, newData, newMethod, bytes,
                     report.delegates);
    MethodMatcher matcher(oldData, newData, bytes);
    if (std::optional<std::string> why =
            matcher.firstDifference(oldMethod, newMethod))
      report.methods.push_back({DiffChange::Changed, name.str(),
                                countsOf(oldMethod), countsOf(newMethod),
                                *why});
  }
  for (et::MethodOp newMethod : newSide.program.getMethods())
    if (!oldNames.contains(newMethod.getSymName())) {
      compareOperators(newMethod.getSymName(), nullptr, newMethod,
                       report.operators);
      report.methods.push_back({DiffChange::Added,
                                newMethod.getSymName().str(),
                                {},
                                countsOf(newMethod),
                                ""});
    }
  compareConstants(oldData, newData, bytes, report.constants);
  sortLargestFirst(report.delegates);
  sortLargestFirst(report.constants);
  std::stable_sort(report.methods.begin(), report.methods.end(),
                   [](const MethodDiff &a, const MethodDiff &b) {
                     auto size = [](const MethodDiff &m) {
                       return std::max(m.oldCounts.instructions,
                                       m.newCounts.instructions);
                     };
                     return size(a) > size(b);
                   });
}
