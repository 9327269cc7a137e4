//===- Summary.h - Where the bytes of a program go --------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The summary of a program or data file: where its bytes go, by kind, method
// and backend, and what deduplication would save, as text, JSON, SVG or a
// self-contained HTML page. It sits above the file formats and the passes:
// it runs the dedup pass on a clone to say what it would save.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUMMARY_SUMMARY_H
#define EMIT_SUMMARY_SUMMARY_H

#include "emit/Releases/Releases.h"
#include "emit/Support/LLVM.h"
#include "emit/Support/Report.h"

#include "emit/Kernels/KernelCalls.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace emit {
class CheckedFile;

struct PTESummaryOptions {
  /// Text, JSON, SVG or HTML (summary::Summary::print).
  ReportFormat format = ReportFormat::Text;
  /// The summarized file's size and its flatbuffer's, when known.
  std::optional<uint64_t> fileBytes, flatbufferBytes;
  /// Of a bundled program: the bytes outside its program (test suites and
  /// the bundle's tables).
  std::optional<uint64_t> testSuiteBytes;
  /// Per method of a .pte, by name: the bytes loading it takes from the
  /// method allocator on each target (emit-memory's figures).
  std::vector<std::pair<std::string, std::vector<uint64_t>>>
      methodAllocatorBytes;
  /// Of a program file: the runtime releases that load it, from its
  /// features (emit-verify --runtime=all says why).
  std::optional<LoadingReleases> releases;
  /// Of a program file, with --pte-summary-kernels: its kernel calls no
  /// kernel of that build runs, at main.
  std::optional<kernels::KernelCheck> kernels;
};

/// Writes where the bytes of the program (or data file) in `module` go: by
/// kind (delegate payloads, named data, constants, mutable data, the
/// flatbuffer), by method and by backend; every blob with its roles and
/// users; which blobs hold identical bytes and what `--dedup-delegate-blobs`
/// would save. As text, JSON, a self-contained SVG image or a
/// self-contained HTML page.
LogicalResult printPTESummary(ModuleOp module, raw_ostream &os,
                              const PTESummaryOptions &options = {});

/// The summary options for `file`, an open `.pte`, `.ptd` or `.bpte`: its
/// size and its (program's) flatbuffer's, as the file layer read them from
/// its header; of a bundle, the bytes outside its program.
/// With `kernels`, also which kernel calls a build of them runs no kernel
/// for.
PTESummaryOptions
getSummaryOptionsFor(const CheckedFile &file, ReportFormat format,
                     const kernels::KernelSpec *kernels = nullptr);

} // namespace emit

#endif // EMIT_SUMMARY_SUMMARY_H
