//===- DedupDelegateBlobs.cpp - Share identical delegate payloads -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stores each distinct delegate payload once per program while every call
// keeps its own backend id and compile specs. Payloads are bucketed by size
// and hash and bytes are compared only within a bucket, so the cost is
// O(total bytes) and no collision can merge different payloads.
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Support/MappedMemory.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Threading.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <numeric>
#include <vector>
#include <xxhash.h>

namespace emit::et {
#define GEN_PASS_DEF_DEDUPDELEGATEBLOBS
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
/// Size and 128-bit content hash: the bucket key. Equal keys are only
/// candidates; bytes decide.
struct ContentKey {
  uint64_t size;
  uint64_t hashLow;
  uint64_t hashHigh;
  bool operator==(const ContentKey &other) const {
    return size == other.size && hashLow == other.hashLow &&
           hashHigh == other.hashHigh;
  }
};
} // namespace

namespace llvm {
template <>
struct DenseMapInfo<ContentKey> {
  static ContentKey getEmptyKey() { return {~0ull, 0, 0}; }
  static ContentKey getTombstoneKey() { return {~0ull - 1, 0, 0}; }
  static unsigned getHashValue(const ContentKey &key) {
    return static_cast<unsigned>(key.hashLow ^ (key.hashLow >> 32));
  }
  static bool isEqual(const ContentKey &a, const ContentKey &b) {
    return a == b;
  }
};
} // namespace llvm

namespace {
/// One delegate entry that uses a blob.
struct User {
  StringRef method;
  unsigned entryIndex; // In the method's delegate table.
  unsigned calls;      // Instructions that call the entry.
  StringRef backend;
  uint64_t specsDigest;
};

/// A blob that takes part in the merge.
struct Candidate {
  BlobOp blob;
  ArrayRef<char> bytes;
  ContentKey key;
  /// The policy's partition: equal bytes merge only within one. Its parts
  /// are the users' method (scope=method), their backend (same-backend) and
  /// the blob's placement.
  std::string scopeKey, backendKey, placementKey;
  std::string policyKey() const {
    return scopeKey + "\x02" + backendKey + "\x02" + placementKey;
  }
  bool belowMinSize = false;
};

/// Blobs with identical bytes, in program order.
struct ContentGroup {
  SmallVector<unsigned> members; // Indices into the candidates.
};

struct DedupDelegateBlobsPass
    : public emit::et::impl::DedupDelegateBlobsBase<DedupDelegateBlobsPass> {
  using DedupDelegateBlobsBase::DedupDelegateBlobsBase;
  void runOnOperation() override;
  void dedupProgram(ProgramOp program, llvm::json::OStream *json);
  void shareDelegateEntries(ProgramOp program);
};
} // namespace

/// Payloads from this size on are first hashed by a sample.
static constexpr uint64_t kSampledHashMinSize = 1 << 20;

/// XXH3-128 of all of `bytes`, read once.
static XXH128_hash_t hashBytes(ArrayRef<char> bytes) {
  XXH3_state_t *state = XXH3_createState();
  XXH3_128bits_reset(state);
  forEachChunk(bytes, [&](ArrayRef<char> chunk) {
    XXH3_128bits_update(state, chunk.data(), chunk.size());
  });
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return hash;
}

/// XXH3-128 of a sample of `bytes`: its first and last 64 KiB and 16 evenly
/// spaced 4 KiB windows. Payloads that differ usually differ there (a
/// header, weights, a trailer); those that do not are compared whole.
static XXH128_hash_t hashSample(ArrayRef<char> bytes) {
  constexpr size_t edge = 64 << 10, window = 4 << 10, windows = 16;
  XXH3_state_t *state = XXH3_createState();
  XXH3_128bits_reset(state);
  auto add = [&](size_t offset, size_t size) {
    forEachChunk(bytes.slice(offset, size), [&](ArrayRef<char> chunk) {
      XXH3_128bits_update(state, chunk.data(), chunk.size());
    });
  };
  add(0, edge);
  size_t stride = (bytes.size() - window) / (windows + 1);
  for (size_t i = 1; i <= windows; ++i)
    add(i * stride, window);
  add(bytes.size() - edge, edge);
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return hash;
}

/// Whether `attr` may hold a symbol reference below its top level; false
/// only for kinds known to hold none, so unknown attributes take the
/// general rewrite.
static bool mayHoldSymbolRefs(Attribute attr) {
  if (isa<StringAttr, IntegerAttr, FloatAttr, UnitAttr, BoolAttr, TypeAttr,
          DenseArrayAttr, DenseElementsAttr, DenseResourceElementsAttr,
          CompileSpecAttr, BlobAttr>(attr))
    return false;
  if (auto array = dyn_cast<ArrayAttr>(attr))
    return llvm::any_of(array, [](Attribute element) {
      return isa<SymbolRefAttr>(element) || mayHoldSymbolRefs(element);
    });
  return true;
}

/// Runs `body` on every index in [0, count) on the context's thread pool,
/// in tasks of consecutive indices balanced by `weight` (bytes read). One
/// task per index would cost more than a small payload's work: each task
/// also does thread bookkeeping (two system calls for the diagnostic
/// handler's ordering).
static void parallelForWeighted(MLIRContext *context, size_t count,
                                function_ref<uint64_t(size_t)> weight,
                                function_ref<void(size_t)> body) {
  // Per-index overhead, in bytes of reading, so that many tiny items are
  // split too.
  constexpr uint64_t kItemWeight = 4096;
  uint64_t total = 0;
  for (size_t index = 0; index < count; ++index)
    total += weight(index) + kItemWeight;
  unsigned threads = context->isMultithreadingEnabled()
                         ? context->getThreadPool().getMaxConcurrency()
                         : 1;
  // A few tasks per thread, so that uneven items still balance.
  uint64_t perTask = std::max<uint64_t>(1, total / (8 * threads));
  SmallVector<std::pair<size_t, size_t>> tasks;
  uint64_t taskWeight = 0;
  size_t begin = 0;
  for (size_t index = 0; index < count; ++index) {
    taskWeight += weight(index) + kItemWeight;
    if (taskWeight >= perTask || index + 1 == count) {
      tasks.push_back({begin, index + 1});
      begin = index + 1;
      taskWeight = 0;
    }
  }
  mlir::parallelForEach(context, tasks, [&](std::pair<size_t, size_t> task) {
    for (size_t index = task.first; index < task.second; ++index)
      body(index);
  });
}

static std::string toHex(const ContentKey &key) {
  return llvm::utohexstr(key.hashHigh, /*LowerCase=*/true, 16) +
         llvm::utohexstr(key.hashLow, /*LowerCase=*/true, 16);
}

/// A digest of an entry's compile specs (keys, values and order), so that a
/// report shows which entries share specs without printing them.
static uint64_t digestSpecs(DelegateOp entry) {
  XXH3_state_t *state = XXH3_createState();
  XXH3_64bits_reset(state);
  if (ArrayAttr specs = entry.getCompileSpecsAttr()) {
    for (auto spec : specs.getAsRange<CompileSpecAttr>()) {
      for (StringRef part : {spec.getKey(), spec.getValue()}) {
        uint64_t size = part.size();
        XXH3_64bits_update(state, &size, sizeof(size));
        XXH3_64bits_update(state, part.data(), part.size());
      }
    }
  }
  uint64_t digest = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return digest;
}

void DedupDelegateBlobsPass::dedupProgram(ProgramOp program,
                                          llvm::json::OStream *json) {
  MLIRContext *context = program.getContext();

  // Which delegate entries name each blob, in program order: for the
  // policy and the report only, since it costs a map entry per blob.
  DenseMap<StringAttr, SmallVector<User, 1>> users;
  bool needUsers = json || scope == "method" || sameBackend;
  for (MethodOp method : program.getMethods()) {
    if (!needUsers)
      break;
    for (auto [index, entry] : llvm::enumerate(method.getDelegates()))
      if (FlatSymbolRefAttr symbol = entry.getPayloadSymbol())
        users[symbol.getAttr()].push_back(
            {method.getSymName(), static_cast<unsigned>(index),
             static_cast<unsigned>(
                 std::distance(entry->use_begin(), entry->use_end())),
             entry.getBackendId(), digestSpecs(entry)});
  }

  // Gather every blob's bytes and its policy partition.
  SmallVector<Candidate> candidates;
  SplatStorage splats;
  for (BlobOp blob : program.getBlobs()) {
    std::optional<ArrayRef<char>> bytes =
        getPayloadBytes(blob.getData(), splats);
    // Elided or released data cannot be compared: keep it. Empty blobs
    // have nothing to share.
    if (!bytes || bytes->empty())
      continue;
    Candidate candidate;
    candidate.blob = blob;
    candidate.bytes = *bytes;
    candidate.belowMinSize = bytes->size() < minSize;
    // The policy partitions equal bytes: blobs in different partitions are
    // never merged.
    // Not `lookup`: it returns a copy, which would not outlive the ArrayRef.
    auto usersIt = users.find(blob.getSymNameAttr());
    ArrayRef<User> blobUsers =
        usersIt == users.end() ? ArrayRef<User>() : ArrayRef(usersIt->second);
    auto all = [&](function_ref<StringRef(const User &)> field) {
      if (blobUsers.empty())
        return std::string();
      StringRef first = field(blobUsers.front());
      bool same = llvm::all_of(
          blobUsers, [&](const User &user) { return field(user) == first; });
      // Mixed users: a key no other blob has.
      return same ? first.str() : ("\x01" + blob.getSymName()).str();
    };
    if (scope == "method")
      candidate.scopeKey = all([](const User &u) { return u.method; });
    if (sameBackend)
      candidate.backendKey = all([](const User &u) { return u.backend; });
    // A placed blob stays where the file had it: an inline payload is
    // never merged into a segment, nor the other way around.
    if (std::optional<DataPlacement> placement = blob.getPlacement())
      candidate.placementKey = stringifyDataPlacement(*placement).str();
    candidates.push_back(std::move(candidate));
  }
  // Tell payloads apart by size and hash, in parallel. A large payload is
  // first hashed by a sample of its bytes: one whose size and sample no
  // other payload shares is then never read whole. Every merge is confirmed
  // byte for byte below, so the key only has to be equal for equal bytes.
  bool collide = testForceHashCollisions;
  // The report prints every payload's hash, so it samples none.
  bool hashEverything = json != nullptr;
  auto sampled = [&](const Candidate &candidate) {
    return !hashEverything && candidate.bytes.size() >= kSampledHashMinSize;
  };
  auto fingerprint = [collide](Candidate &candidate, bool whole) {
    ArrayRef<char> bytes = candidate.bytes;
    XXH128_hash_t hash = collide ? XXH128_hash_t{0, 0}
                         : whole ? hashBytes(bytes)
                                 : hashSample(bytes);
    candidate.key = {bytes.size(), hash.low64, hash.high64};
  };
  parallelForWeighted(
      context, candidates.size(),
      [&](size_t index) { return candidates[index].bytes.size(); },
      [&](size_t index) {
        fingerprint(candidates[index], !sampled(candidates[index]));
      });

  // Buckets of equal keys, in order of their first member.
  SmallVector<SmallVector<unsigned, 2>> buckets;
  auto fillBuckets = [&] {
    buckets.clear();
    DenseMap<ContentKey, unsigned> bucketOf;
    for (auto [index, candidate] : llvm::enumerate(candidates)) {
      auto [it, inserted] = bucketOf.try_emplace(candidate.key, buckets.size());
      if (inserted)
        buckets.emplace_back();
      buckets[it->second].push_back(index);
    }
  };
  fillBuckets();
  // Two payloads with equal samples are simply compared. Among more, a
  // whole-payload hash first splits them, so that comparisons stay linear.
  SmallVector<Candidate *> rehash;
  for (ArrayRef<unsigned> bucket : buckets)
    // Equal keys mean equal sizes, so a bucket is sampled or not as a whole.
    if (bucket.size() > 2 && sampled(candidates[bucket.front()]))
      for (unsigned index : bucket)
        rehash.push_back(&candidates[index]);
  if (!rehash.empty()) {
    parallelForWeighted(
        context, rehash.size(),
        [&](size_t index) { return rehash[index]->bytes.size(); },
        [&](size_t index) { fingerprint(*rehash[index], /*whole=*/true); });
    fillBuckets();
  }

  // Group equal bytes, bucket by bucket in parallel: within a bucket, each
  // payload is compared with the first of each group so far. Near misses
  // share size and hash but not bytes.
  struct BucketResult {
    SmallVector<ContentGroup, 1> groups;
    SmallVector<std::pair<unsigned, unsigned>> nearMisses;
  };
  SmallVector<BucketResult> bucketResults(buckets.size());
  auto bucketBytes = [&](size_t bucketIndex) {
    // Bytes a bucket's comparisons read, at most.
    ArrayRef<unsigned> bucket = buckets[bucketIndex];
    return bucket.size() < 2 ? 0
                             : 2 * (bucket.size() - 1) *
                                   candidates[bucket.front()].bytes.size();
  };
  parallelForWeighted(
      context, buckets.size(), bucketBytes, [&](size_t bucketIndex) {
        BucketResult &result = bucketResults[bucketIndex];
        for (unsigned index : buckets[bucketIndex]) {
          ArrayRef<char> bytes = candidates[index].bytes;
          auto match = llvm::find_if(result.groups, [&](ContentGroup &group) {
            return equalBytes(candidates[group.members.front()].bytes, bytes);
          });
          if (match != result.groups.end()) {
            match->members.push_back(index);
            continue;
          }
          if (!result.groups.empty())
            result.nearMisses.push_back(
                {result.groups.front().members.front(), index});
          result.groups.push_back({{index}});
        }
      });
  // Back to program order, whatever the bucketing.
  SmallVector<ContentGroup> groups;
  SmallVector<std::pair<unsigned, unsigned>> nearMisses;
  for (BucketResult &result : bucketResults) {
    llvm::append_range(groups, std::move(result.groups));
    llvm::append_range(nearMisses, result.nearMisses);
  }
  llvm::sort(groups, [](const ContentGroup &a, const ContentGroup &b) {
    return a.members.front() < b.members.front();
  });
  llvm::sort(nearMisses, [](auto a, auto b) {
    return std::make_pair(a.second, a.first) <
           std::make_pair(b.second, b.first);
  });

  // Split each group by policy; the first blob of each part survives.
  struct Merge {
    unsigned survivor;
    SmallVector<unsigned> merged;
    uint64_t alignment;
  };
  SmallVector<Merge> merges;
  DenseMap<StringAttr, unsigned> replacement; // Merged name -> survivor.
  // Which parts of the policy keep `candidate` from the group's first part.
  auto keptApartReason = [&](const Candidate &candidate,
                             const Candidate &first) -> std::string {
    if (candidate.belowMinSize || first.belowMinSize)
      return "below min-size";
    SmallVector<StringRef, 3> reasons;
    if (candidate.scopeKey != first.scopeKey)
      reasons.push_back("scope=method");
    if (candidate.backendKey != first.backendKey)
      reasons.push_back("same-backend");
    if (candidate.placementKey != first.placementKey)
      reasons.push_back("placement");
    return llvm::join(reasons, " and ");
  };
  SmallVector<std::pair<unsigned, std::string>> keptApart;
  for (ContentGroup &group : groups) {
    // Parts in order of first member; a group rarely has more than a few.
    SmallVector<std::pair<std::string, SmallVector<unsigned>>, 1> parts;
    for (unsigned index : group.members) {
      Candidate &candidate = candidates[index];
      std::string key = candidate.belowMinSize
                            ? ("\x03" + candidate.blob.getSymName()).str()
                            : candidate.policyKey();
      auto part = llvm::find_if(parts, [&](auto &p) { return p.first == key; });
      if (part == parts.end())
        parts.push_back({std::move(key), {index}});
      else
        part->second.push_back(index);
    }
    // Each part is told apart from the first, and the first from the second.
    for (auto [index, part] : llvm::enumerate(parts))
      if (parts.size() > 1)
        keptApart.push_back(
            {part.second.front(),
             keptApartReason(candidates[part.second.front()],
                             candidates[parts[index ? 0 : 1].second.front()])});
    for (auto &[key, members] : parts) {
      Merge merge{members.front(), {}, 0};
      merge.alignment = candidates[merge.survivor].blob.getAlignment();
      for (unsigned index : ArrayRef(members).drop_front()) {
        merge.merged.push_back(index);
        merge.alignment = std::lcm(
            merge.alignment,
            static_cast<uint64_t>(candidates[index].blob.getAlignment()));
        replacement[candidates[index].blob.getSymNameAttr()] = merge.survivor;
      }
      merges.push_back(std::move(merge));
    }
  }

  uint64_t bytesBefore = 0, bytesAfter = 0;
  for (const Candidate &candidate : candidates)
    bytesBefore += candidate.bytes.size();
  for (const Merge &merge : merges)
    bytesAfter += candidates[merge.survivor].bytes.size();

  if (remarks) {
    for (const Merge &merge : merges)
      if (!merge.merged.empty())
        candidates[merge.survivor].blob.emitRemark()
            << "stores " << candidates[merge.survivor].bytes.size()
            << " bytes once for " << merge.merged.size() + 1
            << " payloads, alignment " << merge.alignment;
    for (auto &[index, reason] : keptApart)
      candidates[index].blob.emitRemark()
          << "equal bytes kept in a separate blob (" << reason << ")";
  }

  if (json) {
    auto userJson = [&](const User &user) {
      json->object([&] {
        json->attribute("method", user.method);
        json->attribute("delegate", user.entryIndex);
        json->attribute("calls", user.calls);
        json->attribute("backend", user.backend);
        json->attribute("compile_specs_digest",
                        llvm::utohexstr(user.specsDigest, true, 16));
      });
    };
    json->object([&] {
      json->attribute("program", program.getSymName());
      json->attribute("dry_run", bool(dryRun));
      json->attribute("bytes_before", bytesBefore);
      json->attribute("bytes_after", bytesAfter);
      json->attributeArray("groups", [&] {
        for (const Merge &merge : merges) {
          Candidate &survivor = candidates[merge.survivor];
          json->object([&] {
            json->attribute("blob", survivor.blob.getSymName());
            json->attribute("size", survivor.bytes.size());
            json->attribute("xxh3_128", toHex(survivor.key));
            json->attribute("alignment", merge.alignment);
            json->attributeArray("merged", [&] {
              for (unsigned index : merge.merged)
                json->value(candidates[index].blob.getSymName());
            });
            json->attributeArray("users", [&] {
              for (unsigned index : llvm::concat<const unsigned>(
                       ArrayRef(merge.survivor), merge.merged))
                for (const User &user :
                     users.lookup(candidates[index].blob.getSymNameAttr()))
                  userJson(user);
            });
          });
        }
      });
      json->attributeArray("near_misses", [&] {
        for (auto [first, second] : nearMisses)
          json->object([&] {
            json->attributeArray("blobs", [&] {
              json->value(candidates[first].blob.getSymName());
              json->value(candidates[second].blob.getSymName());
            });
            json->attribute("size", candidates[second].bytes.size());
            json->attribute("reason", "same size and hash, different bytes");
          });
        for (auto &[index, reason] : keptApart)
          json->object([&] {
            json->attributeArray("blobs", [&] {
              json->value(candidates[index].blob.getSymName());
            });
            json->attribute("size", candidates[index].bytes.size());
            json->attribute("reason", "equal bytes kept apart: " + reason);
          });
      });
    });
  }

  if (dryRun)
    return;

  for (const Merge &merge : merges) {
    BlobOp survivor = candidates[merge.survivor].blob;
    if (merge.alignment != static_cast<uint64_t>(survivor.getAlignment()))
      survivor.setAlignment(merge.alignment);
    if (!merge.merged.empty()) {
      SmallVector<Location> locations{survivor.getLoc()};
      for (unsigned index : merge.merged)
        locations.push_back(candidates[index].blob.getLoc());
      survivor->setLoc(FusedLoc::get(context, locations));
    }
  }

  // Point every reference (entries and program data alike) at its
  // survivor, in one sweep over the program.
  auto remap = [&](FlatSymbolRefAttr symbol) -> FlatSymbolRefAttr {
    auto it = replacement.find(symbol.getAttr());
    if (it == replacement.end())
      return symbol;
    return FlatSymbolRefAttr::get(candidates[it->second].blob.getSymNameAttr());
  };
  // The general rewrite rebuilds every op's attribute dictionary; it is
  // only needed where a reference could hide inside an attribute.
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](FlatSymbolRefAttr symbol) -> std::optional<Attribute> {
        FlatSymbolRefAttr mapped = remap(symbol);
        if (mapped == symbol)
          return std::nullopt;
        return mapped;
      });
  Dialect *etDialect = context->getLoadedDialect<ETDialect>();
  program.walk([&](Operation *op) {
    // The dialect's own ops name blobs only in these four; any op may carry
    // discardable attributes that do.
    if (op->getDialect() == etDialect &&
        !isa<DelegateOp, ConstantSegmentOp, MutableDataSegmentOp, NamedDataOp>(
            op) &&
        op->getDiscardableAttrDictionary().empty())
      return;
    SmallVector<std::pair<StringAttr, Attribute>, 2> inherent, discardable;
    auto visit = [&](StringAttr name, Attribute value,
                     SmallVectorImpl<std::pair<StringAttr, Attribute>> &out) {
      if (auto symbol = dyn_cast<FlatSymbolRefAttr>(value)) {
        if (FlatSymbolRefAttr mapped = remap(symbol); mapped != symbol)
          out.push_back({name, mapped});
        return true;
      }
      return !mayHoldSymbolRefs(value);
    };
    bool simple = true;
    for (StringAttr name : op->getName().getAttributeNames())
      if (std::optional<Attribute> value = op->getInherentAttr(name))
        simple &= !*value || visit(name, *value, inherent);
    for (NamedAttribute named : op->getDiscardableAttrs())
      simple &= visit(named.getName(), named.getValue(), discardable);
    if (!simple) {
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
      return;
    }
    for (auto [name, value] : inherent)
      op->setInherentAttr(name, value);
    for (auto [name, value] : discardable)
      op->setDiscardableAttr(name, value);
  });
  // Only the merged blobs go: a blob nothing named before stays, as the
  // file had it.
  for (const Merge &merge : merges)
    for (unsigned index : merge.merged)
      candidates[index].blob.erase();
  if (shareEntries)
    shareDelegateEntries(program);
}

/// Within each method, makes calls of entries equal in backend id, compile
/// specs and payload blob call the first such entry, and erases the others:
/// the runtime then initializes the backend once for all of them. Entries
/// that differ in any of the three are never shared.
void DedupDelegateBlobsPass::shareDelegateEntries(ProgramOp program) {
  for (MethodOp method : program.getMethods()) {
    // Entries are few per method; equal ones are found by their attributes,
    // which MLIR uniques, so equal parts are the same pointers.
    DenseMap<std::tuple<Attribute, Attribute, Attribute>, DelegateOp> first;
    for (DelegateOp entry : llvm::make_early_inc_range(method.getDelegates())) {
      if (!entry.getPayloadSymbol())
        continue; // An inline payload is its own: compared by no one.
      auto key = std::make_tuple(Attribute(entry.getBackendIdAttr()),
                                 Attribute(entry.getCompileSpecsAttr()),
                                 entry.getPayload());
      auto [it, inserted] = first.try_emplace(key, entry);
      if (inserted)
        continue;
      if (remarks)
        it->second.emitRemark()
            << "shares this delegate entry with an equal one, which is "
            << "removed: the backend is initialized once for both";
      entry.getResult().replaceAllUsesWith(it->second.getResult());
      it->second->setLoc(
          FusedLoc::get(&getContext(), {it->second.getLoc(), entry.getLoc()}));
      entry.erase();
    }
  }
}

void DedupDelegateBlobsPass::runOnOperation() {
  if (scope != "program" && scope != "method") {
    getOperation().emitError("invalid scope '")
        << scope << "' for --dedup-delegate-blobs: expected 'program' or "
        << "'method'";
    return signalPassFailure();
  }

  SmallVector<Operation *> programs;
  for (ProgramOp program : getOperation().getOps<ProgramOp>())
    programs.push_back(program);

  std::unique_ptr<llvm::ToolOutputFile> reportFile;
  std::optional<llvm::json::OStream> json;
  if (!report.empty()) {
    std::string error;
    reportFile = openOutputFile(report, &error);
    if (!reportFile) {
      getOperation().emitError("cannot write the report: ") << error;
      return signalPassFailure();
    }
    json.emplace(reportFile->os(), /*IndentSize=*/2);
    json->objectBegin();
    json->attribute("schema", "emit-dedup-report-2");
    json->attributeBegin("programs");
    json->arrayBegin();
  }

  // A dry run works on copies, so that the report can describe the merge
  // that would happen without changing the input.
  SmallVector<OwningOpRef<ProgramOp>> copies;
  for (Operation *&program : programs)
    if (dryRun) {
      copies.emplace_back(cast<ProgramOp>(program->clone()));
      program = copies.back().get();
    }

  // Hoist inline payloads with the program canonicalization; with a size
  // policy, only those that may be merged.
  if (minSize == 0) {
    RewritePatternSet patterns(&getContext());
    ProgramOp::getCanonicalizationPatterns(patterns, &getContext());
    GreedyRewriteConfig config;
    config.strictMode = GreedyRewriteStrictness::ExistingOps;
    // The pattern hoists every inline payload of a program in one
    // application, so the driver converges.
    (void)applyOpPatternsAndFold(programs, std::move(patterns), config);
  } else {
    IRRewriter rewriter(&getContext());
    uint64_t threshold = minSize;
    for (Operation *program : programs)
      hoistInlinePayloads(
          cast<ProgramOp>(program), rewriter, [threshold](DelegateOp entry) {
            return cast<ShapedType>(
                       entry.getInlinePayload().getData().getType())
                       .getNumElements() >= static_cast<int64_t>(threshold);
          });
  }

  for (Operation *program : programs)
    dedupProgram(cast<ProgramOp>(program), json ? &*json : nullptr);

  if (json) {
    json->arrayEnd();
    json->attributeEnd();
    json->objectEnd();
    reportFile->os() << "\n";
    reportFile->keep();
  }
  if (dryRun)
    markAllAnalysesPreserved();
}
