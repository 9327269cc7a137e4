//===- DedupReport.cpp - What --dedup-delegate-blobs shares -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// States a plan: as a dedup::Result, as remarks on the ops it concerns, and
// the result as JSON (docs/DedupReport.md).
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

#include "emit/Support/Hex.h"

#include "llvm/ADT/StringExtras.h"

#include <array>

using namespace mlir;
using namespace emit;
using namespace emit::et;
using namespace emit::et::dedup;

KindBytes ContainerResult::total() const {
  KindBytes sum;
  for (const KindBytes &kind : kinds) {
    sum.before += kind.before;
    sum.after += kind.after;
  }
  return sum;
}

ContainerResult &Result::of(Operation *container) {
  bool isProgram = isa<ProgramOp>(container);
  StringRef name = SymbolTable::getSymbolName(container).getValue();
  std::vector<ContainerResult> &list = isProgram ? programs : dataFiles;
  for (ContainerResult &result : list)
    if (result.name == name)
      return result;
  ContainerResult &result = list.emplace_back();
  result.isProgram = isProgram;
  result.name = name.str();
  return result;
}

/// The users of `blob` as the result states them.
static void appendUsers(const Plan &plan, BlobOp blob,
                        std::vector<BlobUser> &users) {
  auto it = plan.users.find(blob.getSymNameAttr());
  if (it == plan.users.end())
    return;
  for (const User &user : it->second)
    users.push_back({user.method.str(), user.entryIndex, user.calls,
                     user.backend.str(), user.specsDigest});
}

/// The blobs of `plan` that `indices` name.
static std::vector<std::string> blobNames(const Plan &plan,
                                          ArrayRef<unsigned> indices) {
  std::vector<std::string> names;
  for (unsigned index : indices)
    names.push_back(plan.candidates[index].blob.getSymName().str());
  return names;
}

void dedup::describeBlobSharing(const Plan &plan, ContainerResult &result) {
  // The keys that name each blob, for named data groups.
  DenseMap<StringAttr, SmallVector<StringRef, 1>> keys;
  for (Operation &op : plan.container->getRegion(0).front())
    if (auto named = dyn_cast<NamedDataOp>(op))
      keys[named.getBlobAttr().getAttr()].push_back(named.getKey());
  for (const Candidate &candidate : plan.candidates)
    result.bytesOf(candidate.kind).before += candidate.bytes.size();
  for (const Merge &merge : plan.merges) {
    const Candidate &survivor = plan.candidates[merge.survivor];
    result.bytesOf(survivor.kind).after += survivor.bytes.size();
    BlobGroup &group = result.groups.emplace_back();
    group.blob = survivor.blob.getSymName().str();
    group.kind = survivor.kind;
    group.size = survivor.bytes.size();
    group.hash = plan.hashes[merge.survivor];
    group.alignment = merge.alignment;
    group.merged = blobNames(plan, merge.merged);
    SmallVector<unsigned> members{merge.survivor};
    llvm::append_range(members, merge.merged);
    for (unsigned index : members) {
      BlobOp blob = plan.candidates[index].blob;
      appendUsers(plan, blob, group.users);
      for (StringRef key : keys.lookup(blob.getSymNameAttr()))
        group.keys.push_back(key.str());
    }
  }
  for (auto [first, second] : plan.nearMisses)
    result.keptApart.push_back({blobNames(plan, {first, second}),
                                plan.candidates[second].bytes.size(),
                                "same size and hash, different bytes"});
  for (auto &[index, reason] : plan.keptApart)
    result.keptApart.push_back({blobNames(plan, {index}),
                                plan.candidates[index].bytes.size(),
                                "equal bytes kept apart: " + reason});
}

void dedup::describeSegmentSharing(const SegmentPlan &plan,
                                   ContainerResult &result) {
  for (const SegmentEntries &segment : plan.segments) {
    KindBytes &bytes = result.bytesOf(segment.kind);
    bytes.before += segment.bytesBefore;
    bytes.after += segment.bytesAfter;
    SegmentSharing &sharing = result.segments.emplace_back();
    sharing.kind = segment.kind;
    sharing.blob = segment.blob.getSymName().str();
    sharing.bytesBefore = segment.bytesBefore;
    sharing.bytesAfter = segment.bytesAfter;
    for (auto [entry, earlier] : segment.duplicates)
      sharing.sharedEntries.push_back({entry, earlier, segment.sizes[entry]});
  }
}

static void writeUser(const BlobUser &user, llvm::json::OStream &json) {
  json.object([&] {
    json.attribute("method", user.method);
    json.attribute("delegate", user.delegate);
    json.attribute("calls", user.calls);
    json.attribute("backend", user.backend);
    json.attribute("compile_specs_digest", hex16(user.compileSpecsDigest));
  });
}

static void writeGroup(const BlobGroup &group, llvm::json::OStream &json) {
  json.object([&] {
    json.attribute("blob", group.blob);
    json.attribute("kind", stringifyDataKind(group.kind));
    json.attribute("size", group.size);
    if (group.hash)
      json.attribute("xxh3_128", group.hash->toHex());
    json.attribute("alignment", group.alignment);
    json.attributeArray("merged", [&] {
      for (const std::string &name : group.merged)
        json.value(name);
    });
    json.attributeArray("users", [&] {
      for (const BlobUser &user : group.users)
        writeUser(user, json);
    });
    json.attributeArray("keys", [&] {
      for (const std::string &key : group.keys)
        json.value(key);
    });
  });
}

static void writeSegment(const SegmentSharing &segment,
                         llvm::json::OStream &json) {
  json.object([&] {
    json.attribute("kind", stringifyDataKind(segment.kind));
    json.attribute("blob", segment.blob);
    json.attribute("bytes_before", segment.bytesBefore);
    json.attribute("bytes_after", segment.bytesAfter);
    json.attributeArray("shared_entries", [&] {
      for (const SharedEntry &entry : segment.sharedEntries)
        json.object([&] {
          json.attribute("entry", entry.entry);
          json.attribute("same_as", entry.sameAs);
          json.attribute("size", entry.size);
        });
    });
  });
}

static void writeContainer(const ContainerResult &result,
                           llvm::json::OStream &json) {
  json.object([&] {
    json.attribute(result.isProgram ? "program" : "data_file", result.name);
    json.attribute("dry_run", result.dryRun);
    KindBytes total = result.total();
    json.attribute("bytes_before", total.before);
    json.attribute("bytes_after", total.after);
    json.attributeObject("kinds", [&] {
      for (unsigned kind = 0; kind < kNumDataKinds; ++kind)
        if (const KindBytes &bytes = result.kinds[kind]; bytes.before)
          json.attributeObject(
              stringifyDataKind(static_cast<DataKind>(kind)), [&] {
                json.attribute("bytes_before", bytes.before);
                json.attribute("bytes_after", bytes.after);
                json.attribute("bytes_saved", bytes.before - bytes.after);
              });
    });
    json.attributeArray("groups", [&] {
      for (const BlobGroup &group : result.groups)
        writeGroup(group, json);
    });
    json.attributeArray("segments", [&] {
      for (const SegmentSharing &segment : result.segments)
        writeSegment(segment, json);
    });
    json.attributeArray("near_misses", [&] {
      for (const KeptApart &kept : result.keptApart)
        json.object([&] {
          json.attributeArray("blobs", [&] {
            for (const std::string &name : kept.blobs)
              json.value(name);
          });
          json.attribute("size", kept.size);
          json.attribute("reason", kept.reason);
        });
    });
  });
}

void dedup::writeReport(const Result &result, llvm::json::OStream &json) {
  json.object([&] {
    json.attribute("schema", "emit-dedup-report-2");
    json.attributeArray("programs", [&] {
      for (const ContainerResult &program : result.programs)
        writeContainer(program, json);
    });
    json.attributeArray("data_files", [&] {
      for (const ContainerResult &dataFile : result.dataFiles)
        writeContainer(dataFile, json);
    });
  });
}

void dedup::emitBlobRemarks(const Plan &plan) {
  for (const Merge &merge : plan.merges) {
    if (merge.merged.empty())
      continue;
    const Candidate &survivor = plan.candidates[merge.survivor];
    survivor.blob.emitRemark()
        << "stores " << survivor.bytes.size() << " bytes once for "
        << merge.merged.size() + 1
        << (survivor.kind == DataKind::Delegate
                ? " payloads"
                : (" " + stringifyDataKind(survivor.kind) + " blobs").str())
        << ", alignment " << merge.alignment;
  }
  for (auto &[index, reason] : plan.keptApart)
    plan.candidates[index].blob.emitRemark()
        << "equal bytes kept in a separate blob (" << reason << ")";
}

void dedup::emitSegmentRemarks(const SegmentPlan &plan) {
  for (const SegmentEntries &segment : plan.segments)
    segment.op->emitRemark()
        << "stores " << segment.duplicates.size() << " "
        << stringifyDataKind(segment.kind)
        << " entries that equal earlier ones once: " << segment.bytesAfter
        << " bytes instead of " << segment.bytesBefore;
}
