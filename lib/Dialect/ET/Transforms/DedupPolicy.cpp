//===- DedupPolicy.cpp - What --dedup-delegate-blobs may share --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Gathers the data of a program or data file, asks the content grouping
// which of it is identical, and splits each group by the policy: what may
// be stored once, and what stays apart and why.
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

#include "emit/Support/Layout.h"
#include "emit/Support/MappedMemory.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>
#include <xxhash.h>

using namespace mlir;
using namespace emit;
using namespace emit::et;
using namespace emit::et::dedup;

/// A digest of an entry's compile specs (keys, values and order), so that a
/// report shows which entries share specs without printing them.
static uint64_t digestSpecs(DelegateOp entry) {
  XXH3_state_t *state = XXH3_createState();
  XXH3_64bits_reset(state);
  if (ArrayAttr specs = entry.getCompileSpecsAttr())
    for (auto spec : specs.getAsRange<CompileSpecAttr>())
      for (StringRef part : {spec.getKey(), spec.getValue()}) {
        uint64_t size = part.size();
        XXH3_64bits_update(state, &size, sizeof(size));
        XXH3_64bits_update(state, part.data(), part.size());
      }
  uint64_t digest = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return digest;
}

/// The delegate entries that name each blob, in program order.
static void collectUsers(ProgramOp program,
                         DenseMap<StringAttr, SmallVector<User, 1>> &users) {
  for (MethodOp method : program.getMethods())
    for (auto [index, entry] : llvm::enumerate(method.getDelegates()))
      if (FlatSymbolRefAttr symbol = entry.getPayloadSymbol())
        users[symbol.getAttr()].push_back(
            {method.getSymName(), static_cast<unsigned>(index),
             static_cast<unsigned>(
                 std::distance(entry->use_begin(), entry->use_end())),
             entry.getBackendId(), digestSpecs(entry)});
}

namespace {
/// Numbers the keys of the policy's partition: equal strings get one
/// number, and a key of its own one no other candidate gets.
class PartKeys {
public:
  /// The number of the string every value is, or one of its own where
  /// they differ; 0 for no values or the empty string.
  unsigned sameOrOwn(ArrayRef<StringRef> values) {
    if (!llvm::all_equal(values))
      return next++;
    if (values.empty() || values.front().empty())
      return 0;
    auto [it, inserted] = numbers.try_emplace(values.front(), next);
    next += inserted;
    return it->second;
  }

private:
  llvm::StringMap<unsigned> numbers;
  unsigned next = 1;
};
} // namespace

/// Which parts of the policy keep `candidate` apart from `other`.
static std::string reasonApart(const Candidate &candidate,
                               const Candidate &other) {
  if (candidate.belowMinSize || other.belowMinSize)
    return "below min-size";
  SmallVector<StringRef, 3> reasons;
  if (candidate.scopeKey != other.scopeKey)
    reasons.push_back("scope=method");
  if (candidate.backendKey != other.backendKey)
    reasons.push_back("same-backend");
  if (candidate.placementKey != other.placementKey)
    reasons.push_back("placement");
  return llvm::join(reasons, " and ");
}

/// Splits each group of equal bytes into the parts the policy allows to
/// merge; the first candidate of each part survives.
static void planMerges(Plan &plan, const ContentGroups &groups) {
  for (ArrayRef<unsigned> group : groups.groups) {
    // Parts in order of their first member; a group has few.
    SmallVector<std::pair<std::tuple<bool, unsigned, unsigned, unsigned>,
                          SmallVector<unsigned>>,
                1>
        parts;
    for (unsigned index : group) {
      const Candidate &candidate = plan.candidates[index];
      // A candidate under min-size is its own part: keyed by its index.
      auto key =
          candidate.belowMinSize
              ? std::make_tuple(true, index, 0u, 0u)
              : std::make_tuple(false, candidate.scopeKey, candidate.backendKey,
                                candidate.placementKey);
      auto part = llvm::find_if(parts, [&](auto &p) { return p.first == key; });
      if (part == parts.end())
        parts.push_back({key, {index}});
      else
        part->second.push_back(index);
    }
    // Each part is told apart from the first, and the first from the second.
    for (auto [index, part] : llvm::enumerate(parts))
      if (parts.size() > 1)
        plan.keptApart.push_back(
            {part.second.front(),
             reasonApart(
                 plan.candidates[part.second.front()],
                 plan.candidates[parts[index ? 0 : 1].second.front()])});
    for (auto &[key, members] : parts) {
      Merge merge{members.front(), {}, 1};
      for (unsigned index : members) {
        merge.alignment = std::lcm(
            merge.alignment,
            static_cast<uint64_t>(plan.candidates[index].blob.getAlignment()));
        if (index != merge.survivor)
          merge.merged.push_back(index);
      }
      plan.merges.push_back(std::move(merge));
    }
  }
  plan.nearMisses = groups.nearMisses;
  plan.hashes = groups.hashes;
}

/// The blobs of `container` that may merge with equal ones: every blob
/// with bytes, except the constant and mutable segments, whose entries are
/// shared instead.
static void collectCandidates(Plan &plan, const Policy &policy) {
  DenseMap<StringAttr, DataKind> kinds = classifyBlobs(plan.container);
  PartKeys scopes, backends;
  Region &body = plan.container->getRegion(0);
  // Reserved: doubling would hold up to three times the candidates at the
  // pass's peak.
  plan.candidates.reserve(llvm::range_size(body.front().getOps<BlobOp>()));
  for (BlobOp blob : body.front().getOps<BlobOp>()) {
    auto named = kinds.find(blob.getSymNameAttr());
    DataKind kind = named == kinds.end() ? DataKind::Unnamed : named->second;
    if (kind == DataKind::Constant || kind == DataKind::Mutable)
      continue;
    std::optional<ArrayRef<char>> bytes =
        getPayloadBytes(blob.getData(), plan.splats);
    // Elided or released data cannot be compared: keep it. Empty blobs
    // have nothing to share.
    if (!bytes || bytes->empty())
      continue;
    Candidate candidate{blob, *bytes, kind};
    candidate.belowMinSize = bytes->size() < policy.minSize;
    auto it = plan.users.find(blob.getSymNameAttr());
    ArrayRef<User> users =
        it == plan.users.end() ? ArrayRef<User>() : ArrayRef(it->second);
    SmallVector<StringRef> methods, userBackends;
    for (const User &user : users) {
      methods.push_back(user.method);
      userBackends.push_back(user.backend);
    }
    if (policy.methodScope)
      candidate.scopeKey = scopes.sameOrOwn(methods);
    if (policy.sameBackend)
      candidate.backendKey = backends.sameOrOwn(userBackends);
    // A placed blob stays where the file had it: an inline payload is
    // never merged into a segment, nor the other way around.
    if (std::optional<DataPlacement> placement = blob.getPlacement())
      candidate.placementKey = 1 + static_cast<unsigned>(*placement);
    plan.candidates.push_back(std::move(candidate));
  }
}

namespace {
/// What tensors read of one segment's entries.
struct EntryReads {
  SmallVector<uint64_t> sizes;                    // The most any tensor reads.
  SmallVector<SmallVector<StringRef, 1>> methods; // Who reads it.
};
} // namespace

/// What the tensors of `program` read of its constant segment and of each
/// mutable data segment, by segment op.
static DenseMap<Operation *, EntryReads> measureEntries(ProgramOp program) {
  DenseMap<Operation *, EntryReads> reads;
  ConstantSegmentOp constants = program.getConstantSegment();
  SmallVector<MutableDataSegmentOp> mutables =
      llvm::to_vector(program.getMutableDataSegments());
  for (MethodOp method : program.getMethods())
    for (TensorOp tensor : method.getBody().front().getOps<TensorOp>()) {
      std::optional<int64_t> index = tensor.getDataIndex();
      TensorInfoAttr info = tensor.getInfoAttr();
      if (!index || *index <= 0 ||
          (info && info.getLocation() == TensorDataLocation::External))
        continue;
      Operation *segment = nullptr;
      if (tensor.getMemoryId()) {
        uint64_t which = info ? info.getMutableSegment() : 0;
        if (which < mutables.size())
          segment = mutables[which];
      } else {
        segment = constants;
      }
      std::optional<uint64_t> size =
          getTensorByteSize(tensor.getScalarType(), tensor.getSizes());
      if (!segment || !size)
        continue;
      EntryReads &entry = reads[segment];
      if (entry.sizes.size() <= static_cast<uint64_t>(*index)) {
        entry.sizes.resize(*index + 1, 0);
        entry.methods.resize(*index + 1);
      }
      entry.sizes[*index] = std::max(entry.sizes[*index], *size);
      if (!llvm::is_contained(entry.methods[*index], method.getSymName()))
        entry.methods[*index].push_back(method.getSymName());
    }
  return reads;
}

/// Groups the `entries` of `segment` whose bytes (`items`) are equal and
/// that the policy lets share; records each later one in the segment's
/// duplicates. Returns, for each, the earlier entry it equals.
static DenseMap<unsigned, unsigned>
findEqualEntries(SegmentEntries &segment, ArrayRef<unsigned> entries,
                 ArrayRef<ArrayRef<char>> items, const EntryReads &reads,
                 const Policy &policy, llvm::ThreadPoolInterface *pool) {
  ContentGroups groups = groupByContent(items, pool, policy.grouping);
  // The policy's parts: an entry under min-size is its own; with
  // scope=method, only entries that one method alone reads share.
  auto partOf = [&](unsigned item) -> std::string {
    unsigned entry = entries[item];
    if (items[item].size() < policy.minSize)
      return "" + std::to_string(entry);
    if (!policy.methodScope)
      return "";
    ArrayRef<StringRef> methods = reads.methods[entry];
    return methods.size() == 1 ? methods.front().str()
                               : "" + std::to_string(entry);
  };
  DenseMap<unsigned, unsigned> representative; // Entry -> earlier entry.
  for (ArrayRef<unsigned> group : groups.groups) {
    SmallVector<std::pair<std::string, unsigned>> firsts;
    for (unsigned item : group) {
      std::string part = partOf(item);
      auto first =
          llvm::find_if(firsts, [&](auto &f) { return f.first == part; });
      if (first == firsts.end()) {
        firsts.push_back({part, entries[item]});
        continue;
      }
      segment.duplicates.push_back({entries[item], first->second});
      representative[entries[item]] = first->second;
    }
  }
  return representative;
}

/// Lays `segment` out again: the `entries` no earlier entry equals
/// (`representative`), in the order of their old `offsets`, each at the next
/// multiple of the alignment every old offset (`starts`) shared. Returns the
/// new segment's size.
static uint64_t
layOutEntries(SegmentEntries &segment, ArrayRef<int64_t> offsets,
              ArrayRef<unsigned> entries, ArrayRef<uint64_t> sizes,
              const DenseMap<unsigned, unsigned> &representative,
              ArrayRef<uint64_t> starts) {
  // Entries were placed at multiples of the exporter's tensor alignment;
  // the largest power of two every offset shares is at least that.
  segment.alignment =
      layout::commonAlignment(starts, layout::kMaxEntryAlignment);
  // The new layout: kept entries in the order of their old offsets.
  SmallVector<unsigned> kept;
  for (unsigned entry : entries)
    if (!representative.count(entry))
      kept.push_back(entry);
  llvm::stable_sort(
      kept, [&](unsigned a, unsigned b) { return offsets[a] < offsets[b]; });
  segment.newOffsets.assign(offsets.size(), 0);
  uint64_t end = 0;
  for (unsigned entry : kept) {
    uint64_t start =
        layout::appendAligned(end, sizes[entry], segment.alignment);
    segment.pieces.push_back(
        {static_cast<uint64_t>(offsets[entry]), sizes[entry], start});
    segment.newOffsets[entry] = start;
  }
  for (auto [entry, earlier] : segment.duplicates)
    segment.newOffsets[entry] = segment.newOffsets[earlier];
  segment.sizes.assign(offsets.size(), 0);
  for (unsigned entry : entries)
    segment.sizes[entry] = sizes[entry];
  return end;
}

/// Plans storing each entry of one segment once: the entries any tensor
/// reads, in the order of their offsets, each at the next multiple of the
/// alignment the entries had; an entry equal to an earlier one takes its
/// offset. Returns false when no two entries may be shared (and, with
/// compactSegments, no byte is unread either).
static bool planSegmentEntries(SegmentEntries &segment,
                               ArrayRef<int64_t> offsets,
                               const EntryReads &reads, const Policy &policy,
                               SplatStorage &splats,
                               llvm::ThreadPoolInterface *pool) {
  std::optional<ArrayRef<char>> bytes =
      getPayloadBytes(segment.blob.getData(), splats);
  if (!bytes)
    return false;
  SmallVector<unsigned> entries;
  SmallVector<ArrayRef<char>> items;
  SmallVector<uint64_t> starts;
  for (unsigned index = 1; index < offsets.size(); ++index) {
    uint64_t size = index < reads.sizes.size() ? reads.sizes[index] : 0;
    uint64_t offset = offsets[index];
    if (size == 0 || offset > bytes->size() || size > bytes->size() - offset)
      continue; // Read by no tensor (or not verified): left as it is.
    entries.push_back(index);
    items.push_back(bytes->slice(offset, size));
    if (offset)
      starts.push_back(offset);
  }
  DenseMap<unsigned, unsigned> representative =
      findEqualEntries(segment, entries, items, reads, policy, pool);
  if (segment.duplicates.empty() && !policy.compactSegments)
    return false;

  uint64_t end = layOutEntries(segment, offsets, entries, reads.sizes,
                               representative, starts);
  segment.bytesBefore = bytes->size();
  segment.bytesAfter = end;
  // Compacting only pays when some bytes go.
  return !segment.duplicates.empty() || end < bytes->size();
}

SegmentPlan dedup::planSegmentSharing(ProgramOp program, const Policy &policy,
                                      llvm::ThreadPoolInterface *pool) {
  SegmentPlan plan;
  DenseMap<Operation *, EntryReads> reads = measureEntries(program);
  mlir::SymbolTable symbols(program);
  auto consider = [&](Operation *op, FlatSymbolRefAttr symbol,
                      ArrayRef<int64_t> offsets, DataKind kind) {
    auto it = reads.find(op);
    auto blob = symbols.lookup<BlobOp>(symbol.getAttr());
    // A segment no tensor reads shares nothing, but compacts to nothing.
    EntryReads none;
    if (!blob || (it == reads.end() && !policy.compactSegments))
      return;
    SegmentEntries segment{op, blob, kind};
    if (planSegmentEntries(segment, offsets,
                           it == reads.end() ? none : it->second, policy,
                           plan.splats, pool))
      plan.segments.push_back(std::move(segment));
  };
  if (ConstantSegmentOp constants = program.getConstantSegment();
      constants && constants.getBlobAttr())
    consider(constants, constants.getBlobAttr(), constants.getOffsets(),
             DataKind::Constant);
  for (MutableDataSegmentOp segment : program.getMutableDataSegments())
    consider(segment, segment.getBlobAttr(), segment.getOffsets(),
             DataKind::Mutable);
  return plan;
}

Plan dedup::planBlobSharing(Operation *container, const Policy &policy,
                            bool needUsers, llvm::ThreadPoolInterface *pool) {
  Plan plan;
  plan.container = container;
  auto program = dyn_cast<ProgramOp>(container);
  if (program && (needUsers || policy.methodScope || policy.sameBackend))
    collectUsers(program, plan.users);
  collectCandidates(plan, policy);
  SmallVector<ArrayRef<char>> items;
  items.reserve(plan.candidates.size());
  for (const Candidate &candidate : plan.candidates)
    items.push_back(candidate.bytes);
  planMerges(plan, groupByContent(items, pool, policy.grouping));
  return plan;
}

LogicalResult dedup::checkScope(Operation *root, StringRef scope,
                                StringRef pass) {
  if (scope == "program" || scope == "method")
    return success();
  return root->emitError("invalid scope '")
         << scope << "' for --" << pass << ": expected 'program' or 'method'";
}

FailureOr<Policy> dedup::startSharing(ModuleOp module, StringRef pass,
                                      StringRef scope, uint64_t minSize,
                                      bool forceCollisions,
                                      const Driven &driven) {
  if (failed(checkScope(module, scope, pass)) ||
      (!driven.payloadsChecked && failed(checkPayloadFiles(module))))
    return failure();
  Policy policy;
  policy.methodScope = scope == "method";
  policy.minSize = minSize;
  // A result states every blob's hash, so none is sampled.
  policy.grouping.hashWhole = driven.result != nullptr;
  policy.grouping.forceCollisions = forceCollisions;
  return policy;
}

llvm::ThreadPoolInterface *dedup::getThreadPool(MLIRContext *context) {
  return context->isMultithreadingEnabled() ? &context->getThreadPool()
                                            : nullptr;
}
