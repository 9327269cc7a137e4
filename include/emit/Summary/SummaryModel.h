//===- SummaryModel.h - What a program holds, for every format  -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one model behind `--pte-summary` in every format (text, JSON, SVG,
// HTML): where a program's or data file's bytes go, by kind, method and
// backend; which blobs hold identical bytes; and what the dedup pass would
// store. Each format only lays it out. emit-diff compares two of them.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUMMARY_SUMMARYMODEL_H
#define EMIT_SUMMARY_SUMMARYMODEL_H

#include "emit/Delegate/Field.h"
#include "emit/Dialect/ET/Utils/Blobs.h"
#include "emit/Kernels/KernelCalls.h"
#include "emit/Releases/Releases.h"
#include "emit/Support/LLVM.h"
#include "emit/Support/Page.h"
#include "emit/Support/Report.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class Operation;
} // namespace mlir

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace emit::summary {

/// What a blob is for is its et::DataKind; a blob with several roles counts
/// as the first. The summary calls `Unnamed` data "unused".
using et::DataKind;
using et::kNumDataKinds;
StringRef getKindName(DataKind kind); // "delegate payloads", ...
StringRef getKindKey(DataKind kind);  // "delegate", ... (JSON, CSS)

/// What a delegate payload holds, by its backend's decoder
/// (emit/Delegate/PayloadDecoder.h): its headers and graph are read, never
/// its constants.
struct PayloadContents {
  std::string decoder, magic;
  /// Bytes by part (`header`, `graph`, `constants`, `padding`, ...), in the
  /// order the parts first appear.
  std::vector<std::pair<std::string, uint64_t>> parts;
  /// The graph's constants stored in the payload, by dtype; those under a
  /// named key, counted apart.
  std::vector<std::pair<std::string, uint64_t>> constantsByDtype;
  unsigned namedConstants = 0;
  uint64_t namedConstantBytes = 0;
  delegate::Fields target;
  std::optional<unsigned> nodes, values;
  unsigned problems = 0;
};

struct Blob {
  std::string name;
  uint64_t size = 0;
  uint64_t alignment = 1;
  bool inlineData = false;
  DataKind kind = DataKind::Unnamed;
  SmallVector<std::string, 2> roles;
  SmallVector<std::string> users; // "method#entry (backend)"
  /// The group of blobs with identical bytes this one is in, if any.
  std::optional<unsigned> identical;
  /// For a delegate payload: its first user's backend, and what it holds
  /// when a decoder knows it.
  std::string backend;
  std::shared_ptr<const PayloadContents> payload;
};

struct Method {
  std::string name;
  unsigned values = 0, chains = 0, instructions = 0, calls = 0, entries = 0;
  unsigned kernelCalls = 0;
  uint64_t plannedBytes = 0; // Its planned buffers' bytes.
  /// The bytes loading it takes from the runtime's method allocator, per
  /// target (emit/Memory/RuntimeModel.h); empty when not known (the summary
  /// of IR that was not read from a .pte).
  SmallVector<uint64_t, 2> methodAllocatorBytes;
  uint64_t referencedBytes = 0; // Payload bytes, once per entry.
  uint64_t distinctBytes = 0;   // Payload bytes, once per blob.
};

/// What some of a backend's entries were compiled for, by a compile spec
/// its decoder knows (a QNN entry's SoC, ...).
struct CompiledFor {
  std::string key;
  delegate::Fields settings;
  unsigned entries = 0;
  /// Of those entries, how many have a problem in the spec.
  unsigned problems = 0;
};

struct Backend {
  std::string id;
  unsigned entries = 0;
  SmallVector<std::string, 2> methods;
  uint64_t referencedBytes = 0;
  uint64_t distinctBytes = 0;
  /// Each distinct decoded compile spec, in the order first seen.
  std::vector<CompiledFor> compiledFor;
};

/// Blobs with identical bytes.
struct IdenticalGroup {
  uint64_t size = 0;
  SmallVector<unsigned> blobs; // Indices into Summary::blobs.
};

struct Summary : Report {
  std::string name;
  bool dataFile = false; // A .ptd: no methods, every blob named data.
  unsigned keys = 0;
  SmallVector<Method> methods;
  SmallVector<Backend> backends;
  SmallVector<Blob> blobs;
  SmallVector<IdenticalGroup> identical; // Largest saving first.
  uint64_t callCount = 0, entryCount = 0;
  uint64_t referencedBytes = 0; // Payload bytes counted once per entry.
  uint64_t storedPayloadBytes = 0;
  uint64_t storedBytes = 0; // All blobs something refers to.
  uint64_t inlineBytes = 0; // Of those, the ones inside the flatbuffer.
  /// A bundled program's test suites: how many, their test cases, and the
  /// bundle's bytes outside its program (when summarizing a file).
  struct TestSuites {
    unsigned suites = 0, testCases = 0;
    std::optional<uint64_t> bytes;
  };
  std::optional<TestSuites> testSuites;
  std::array<uint64_t, kNumDataKinds> bytesByKind{};
  /// The file's size and its flatbuffer's, when summarizing a file.
  std::optional<uint64_t> fileBytes, flatbufferBytes;
  /// Which runtime releases load the program (emit/Releases/Releases.h),
  /// when summarizing a program file.
  std::optional<LoadingReleases> releases;
  /// The kernel calls a build runs no kernel for (--pte-summary-kernels).
  std::optional<kernels::KernelCheck> kernels;
  /// What --dedup-delegate-blobs would store: all blobs, and payloads.
  uint64_t storedBytesAfterDedup = 0;
  uint64_t storedPayloadBytesAfterDedup = 0;
  unsigned blobsAfterDedup = 0;

  uint64_t dedupSaves() const { return storedBytes - storedBytesAfterDedup; }

  /// Text, JSON (emit-summary-2), a self-contained SVG image of the
  /// largest blobs or an HTML page.
  void print(ReportFormat format, raw_ostream &os) const override;
};

/// One part of a file's bytes: data of one kind, the flatbuffer's own
/// tables, or headers and padding.
struct BytePart {
  std::string key;   // "delegate", ..., "flatbuffer", "padding"
  std::string label; // "delegate payloads", ..., "headers and padding"
  uint64_t bytes = 0;
};

/// The parts of the summarized file, largest first (in the order data
/// kinds, flatbuffer, padding among equals), data kinds with no bytes left
/// out. They add up to the file's size when both sizes are known.
SmallVector<BytePart> getByteParts(const Summary &summary);

/// The summary of `container`, a program or a data file, without the
/// groups of identical blobs and what deduplication would store.
Summary summarizeContainer(mlir::Operation *container);

void printText(const Summary &summary, raw_ostream &os);
void printJSON(const Summary &summary, raw_ostream &os);
void printSVG(const Summary &summary, raw_ostream &os);
void printHTML(const Summary &summary, raw_ostream &os);

} // namespace emit::summary

#endif // EMIT_SUMMARY_SUMMARYMODEL_H
