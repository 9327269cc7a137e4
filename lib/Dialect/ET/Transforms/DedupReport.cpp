//===- DedupReport.cpp - What --dedup-delegate-blobs shares -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// States a plan: as one JSON object per program or data file (the format is
// in docs/DedupReport.md), and as remarks on the ops it concerns.
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

namespace {
/// Bytes before and after, by kind.
struct KindBytes {
  std::array<uint64_t, kNumDataKinds> before{}, after{};
};
} // namespace

static KindBytes countBytes(const Plan &plan) {
  KindBytes bytes;
  for (const Candidate &candidate : plan.candidates)
    bytes.before[static_cast<unsigned>(candidate.kind)] +=
        candidate.bytes.size();
  for (const Merge &merge : plan.merges) {
    const Candidate &survivor = plan.candidates[merge.survivor];
    bytes.after[static_cast<unsigned>(survivor.kind)] += survivor.bytes.size();
  }
  for (const SegmentEntries &segment : plan.segments) {
    bytes.before[static_cast<unsigned>(segment.kind)] += segment.bytesBefore;
    bytes.after[static_cast<unsigned>(segment.kind)] += segment.bytesAfter;
  }
  return bytes;
}

void dedup::writeReport(const Plan &plan, bool dryRun,
                        llvm::json::OStream &json) {
  KindBytes bytes = countBytes(plan);
  uint64_t before = 0, after = 0;
  for (unsigned kind = 0; kind < kNumDataKinds; ++kind) {
    before += bytes.before[kind];
    after += bytes.after[kind];
  }
  // The keys that name each blob, for named data groups.
  DenseMap<StringAttr, SmallVector<StringRef, 1>> keys;
  for (Operation &op : plan.container->getRegion(0).front())
    if (auto named = dyn_cast<NamedDataOp>(op))
      keys[named.getBlobAttr().getAttr()].push_back(named.getKey());

  auto blobName = [&](unsigned index) {
    return plan.candidates[index].blob.getSymName();
  };
  auto writeUser = [&](const User &user) {
    json.object([&] {
      json.attribute("method", user.method);
      json.attribute("delegate", user.entryIndex);
      json.attribute("calls", user.calls);
      json.attribute("backend", user.backend);
      json.attribute("compile_specs_digest", hex16(user.specsDigest));
    });
  };
  json.object([&] {
    json.attribute(isa<ProgramOp>(plan.container) ? "program" : "data_file",
                   SymbolTable::getSymbolName(plan.container).getValue());
    json.attribute("dry_run", dryRun);
    json.attribute("bytes_before", before);
    json.attribute("bytes_after", after);
    json.attributeObject("kinds", [&] {
      for (unsigned kind = 0; kind < kNumDataKinds; ++kind)
        if (bytes.before[kind])
          json.attributeObject(getKindName(static_cast<DataKind>(kind)), [&] {
            json.attribute("bytes_before", bytes.before[kind]);
            json.attribute("bytes_after", bytes.after[kind]);
            json.attribute("bytes_saved",
                           bytes.before[kind] - bytes.after[kind]);
          });
    });
    json.attributeArray("groups", [&] {
      for (const Merge &merge : plan.merges) {
        const Candidate &survivor = plan.candidates[merge.survivor];
        json.object([&] {
          json.attribute("blob", survivor.blob.getSymName());
          json.attribute("kind", getKindName(survivor.kind));
          json.attribute("size", survivor.bytes.size());
          if (const std::optional<ContentHash> &hash =
                  plan.hashes[merge.survivor])
            json.attribute("xxh3_128", hash->toHex());
          json.attribute("alignment", merge.alignment);
          json.attributeArray("merged", [&] {
            for (unsigned index : merge.merged)
              json.value(blobName(index));
          });
          SmallVector<unsigned> members{merge.survivor};
          llvm::append_range(members, merge.merged);
          json.attributeArray("users", [&] {
            for (unsigned index : members)
              for (const User &user : plan.users.lookup(
                       plan.candidates[index].blob.getSymNameAttr()))
                writeUser(user);
          });
          json.attributeArray("keys", [&] {
            for (unsigned index : members)
              for (StringRef key :
                   keys.lookup(plan.candidates[index].blob.getSymNameAttr()))
                json.value(key);
          });
        });
      }
    });
    json.attributeArray("segments", [&] {
      for (const SegmentEntries &segment : plan.segments)
        json.object([&] {
          json.attribute("kind", getKindName(segment.kind));
          json.attribute("blob", segment.blob.getSymName());
          json.attribute("bytes_before", segment.bytesBefore);
          json.attribute("bytes_after", segment.bytesAfter);
          json.attributeArray("shared_entries", [&] {
            for (auto [entry, earlier] : segment.duplicates)
              json.object([&] {
                json.attribute("entry", entry);
                json.attribute("same_as", earlier);
                json.attribute("size", segment.sizes[entry]);
              });
          });
        });
    });
    json.attributeArray("near_misses", [&] {
      for (auto [first, second] : plan.nearMisses)
        json.object([&] {
          json.attributeArray("blobs", [&] {
            json.value(blobName(first));
            json.value(blobName(second));
          });
          json.attribute("size", plan.candidates[second].bytes.size());
          json.attribute("reason", "same size and hash, different bytes");
        });
      for (auto &[index, reason] : plan.keptApart)
        json.object([&] {
          json.attributeArray("blobs", [&] { json.value(blobName(index)); });
          json.attribute("size", plan.candidates[index].bytes.size());
          json.attribute("reason", "equal bytes kept apart: " + reason);
        });
    });
  });
}

void dedup::emitRemarks(const Plan &plan) {
  for (const Merge &merge : plan.merges) {
    if (merge.merged.empty())
      continue;
    const Candidate &survivor = plan.candidates[merge.survivor];
    survivor.blob.emitRemark()
        << "stores " << survivor.bytes.size() << " bytes once for "
        << merge.merged.size() + 1
        << (survivor.kind == DataKind::Delegate
                ? " payloads"
                : (" " + getKindName(survivor.kind) + " blobs").str())
        << ", alignment " << merge.alignment;
  }
  for (auto &[index, reason] : plan.keptApart)
    plan.candidates[index].blob.emitRemark()
        << "equal bytes kept in a separate blob (" << reason << ")";
  for (const SegmentEntries &segment : plan.segments)
    segment.op->emitRemark()
        << "stores " << segment.duplicates.size() << " "
        << getKindName(segment.kind)
        << " entries that equal earlier ones once: " << segment.bytesAfter
        << " bytes instead of " << segment.bytesBefore;
}
