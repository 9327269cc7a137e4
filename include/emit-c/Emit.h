/*===- emit-c/Emit.h - emit's C API -------------------------------*- C -*-===*\
|*                                                                            *|
|* Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0            *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The jobs emit's tools do, as C functions, for bindings (the Python         *|
|* package `emit` loads this library with ctypes). Each runs the same code    *|
|* as the tool: emitDedup* is `emit-translate --pte-to-pte` with the dedup    *|
|* pass's options, emitSummary* is `--pte-summary --pte-summary-format=json`, *|
|* emitVerify* is `emit-verify --format=json`, emitMemory* is *|
|* `emit-memory --format=json`, emitDiff* is `emit-diff --format=json`,       *|
|* emitProfile is `emit-profile --format=json`,                               *|
|* emitGraph* is `emit-graph --format=json`,                                  *|
|* emitLinkFiles is `emit-link --report=-`.                                   *|
|*                                                                            *|
|* Every function returns 0 on success. On failure it returns non-zero,       *|
|* sets *error to emit's diagnostics (as the tools print them) and writes     *|
|* nothing. Buffers it fills are emit's: release each with emitFree.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef EMIT_C_EMIT_H
#define EMIT_C_EMIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes emit allocated.
typedef struct {
  char *data;
  size_t size;
} EmitBuffer;

/// emit's version, `MAJOR.MINOR.PATCH`, as its tools' `--version` says it.
/// The string is static: it is not freed.
const char *emitGetVersion(void);

/// Deduplicates the program (or data file) at `source` into `destination`,
/// all or nothing. `options` are the dedup pass's, as on the command line
/// ("scope=method min-size=4096"; "" for the defaults). Its JSON report
/// (schema emit-dedup-report-2) goes to *report.
int emitDedupFile(const char *source, const char *destination,
                  const char *options, EmitBuffer *report, EmitBuffer *error);

/// The same for a program (or data file) in memory: the result in *output.
int emitDedupBuffer(const void *data, size_t size, const char *options,
                    EmitBuffer *output, EmitBuffer *report, EmitBuffer *error);

/// emitDedupFile, then the rewrites that make the result load on the runtime
/// release `runtime` ("1.3"; NULL for none), as `--pte-to-pte
/// --target-runtime` runs them after the dedup pass; refused, nothing
/// written, when no rewrite removes a feature that release lacks.
int emitDedupForRuntimeFile(const char *source, const char *destination,
                            const char *options, const char *runtime,
                            EmitBuffer *report, EmitBuffer *error);

/// The same for a program in memory: the result in *output.
int emitDedupForRuntimeBuffer(const void *data, size_t size,
                              const char *options, const char *runtime,
                              EmitBuffer *output, EmitBuffer *report,
                              EmitBuffer *error);

/// The JSON summary (schema emit-summary-2) of the file at `path`.
int emitSummaryFile(const char *path, EmitBuffer *summary, EmitBuffer *error);

/// The JSON summary of a program (or data file) in memory.
int emitSummaryBuffer(const void *data, size_t size, EmitBuffer *summary,
                      EmitBuffer *error);

/// The JSON report (schema emit-verify-1) of `emit-verify --format=json` on
/// the program (or data file) at `path` with the `dataCount` data files at
/// `dataPaths`. A file with defects is a report, not a failure: it fails
/// only when a file cannot be read or the options are impossible.
int emitVerifyFile(const char *path, const char *const *dataPaths,
                   size_t dataCount, EmitBuffer *report, EmitBuffer *error);

/// The same for a program (or data file) in memory.
int emitVerifyBuffer(const void *data, size_t size,
                     const char *const *dataPaths, size_t dataCount,
                     EmitBuffer *report, EmitBuffer *error);

/// emitVerifyFile's report with what runtime releases do with the program
/// (`emit-verify --runtime=RUNTIME --format=json`): `runtime` is "all" or
/// one release ("1.2"); another is an error naming the releases.
int emitVerifyReleasesFile(const char *path, const char *const *dataPaths,
                           size_t dataCount, const char *runtime,
                           EmitBuffer *report, EmitBuffer *error);

/// The same for a program in memory.
int emitVerifyReleasesBuffer(const void *data, size_t size,
                             const char *const *dataPaths, size_t dataCount,
                             const char *runtime, EmitBuffer *report,
                             EmitBuffer *error);

/// emitVerifyReleasesFile's report with each kernel call checked against a
/// build of `kernels` (`emit-verify --kernels=KERNELS`: comma-separated
/// kernel libraries, a selected_operators.yaml, files listing kernels):
/// findings kernel-missing and the report's `kernels`. `runtime` is NULL
/// (main's verdict alone), "all" or one release.
int emitVerifyKernelsFile(const char *path, const char *const *dataPaths,
                          size_t dataCount, const char *runtime,
                          const char *kernels, EmitBuffer *report,
                          EmitBuffer *error);

/// The same for a program in memory.
int emitVerifyKernelsBuffer(const void *data, size_t size,
                            const char *const *dataPaths, size_t dataCount,
                            const char *runtime, const char *kernels,
                            EmitBuffer *report, EmitBuffer *error);

/// The selected_operators.yaml of the `count` programs at `paths`
/// (`emit-verify --write-selected-ops`): their operators and every kernel
/// key they call them with. Its comments give, per library `kernels`
/// names (NULL: every library emit knows), the operators it provides at
/// release `runtime` (NULL: main) as EXECUTORCH_SELECT_OPS_LIST.
int emitSelectedOps(const char *const *paths, size_t count, const char *kernels,
                    const char *runtime, EmitBuffer *yaml, EmitBuffer *error);

/// The JSON report (schema emit-memory-1) of `emit-memory --format=json` on
/// the program at `path`, whose runtime is given the `dataCount` data files
/// at `dataPaths`: per method, its planned buffers, method allocator bytes
/// and planned tensors. Findings are a report, not a failure: it fails only
/// when a file cannot be read or does not read.
int emitMemoryFile(const char *path, const char *const *dataPaths,
                   size_t dataCount, EmitBuffer *report, EmitBuffer *error);

/// The same for a program in memory.
int emitMemoryBuffer(const void *data, size_t size,
                     const char *const *dataPaths, size_t dataCount,
                     EmitBuffer *report, EmitBuffer *error);

/// Re-plans every method's planned memory of the program (.pte or .bpte) at
/// `source` and writes it to `destination`, as `emit-translate --pte-to-pte
/// --replan-memory` does: `fastMemory` as --fast-memory
/// ("BYTES[,id=N][,order=accesses|peak]"; NULL for none), `alignment` as
/// --replan-alignment (0: 16). The report (schema emit-replan-1) goes to
/// *report; nothing is written on failure.
int emitReplanFile(const char *source, const char *destination,
                   const char *fastMemory, uint64_t alignment,
                   EmitBuffer *report, EmitBuffer *error);

/// The same for a program in memory: the result in *output.
int emitReplanBuffer(const void *data, size_t size, const char *fastMemory,
                     uint64_t alignment, EmitBuffer *output, EmitBuffer *report,
                     EmitBuffer *error);

/// What emitProfile reads: emit-profile's arguments.
typedef struct EmitProfileRequest {
  /// The program that ran (.pte or .bpte); null: the ETDump alone.
  const char *programPath;
  /// The run's ETDump (.etdp).
  const char *etdumpPath;
  /// The debug buffer ETDumpGen's data sink wrote; null: none.
  const char *debugBufferPath;
  /// The data files (.ptd) the program loaded with.
  const char *const *dataPaths;
  size_t dataCount;
  /// The methods the run executed (--method); none: any of the program's.
  const char *const *methods;
  size_t methodCount;
  /// Non-zero: the run executed them in that order (--in-order).
  int inOrder;
  /// An older run to compare with (--baseline): its program and ETDump,
  /// both or neither.
  const char *baselineProgramPath;
  const char *baselineETDumpPath;
} EmitProfileRequest;

/// The JSON report (schema emit-profile-1) of `emit-profile --format=json`
/// on what `request` names. Blocks that fit no method are a report (its
/// `unmatched`), not a failure: it fails only when a file cannot be read or
/// does not read, or a baseline program does not import.
int emitProfile(const EmitProfileRequest *request, EmitBuffer *report,
                EmitBuffer *error);

/// The JSON graph (schema emit-graph-2) of `emit-graph --format=json` on
/// the program (or bundle) at `path`, with the `dataCount` data files at
/// `dataPaths` (where its external constants are) and, unless null, the
/// ETDump of a run at `profilePath` (each node's time). Whatever its
/// delegates, operators or payloads, a program whose flatbuffer verifies
/// is drawn: it fails only when a file cannot be read or does not read.
int emitGraphFile(const char *path, const char *const *dataPaths,
                  size_t dataCount, const char *profilePath, EmitBuffer *report,
                  EmitBuffer *error);

/// The same for a program in memory.
int emitGraphBuffer(const void *data, size_t size, const char *const *dataPaths,
                    size_t dataCount, const char *profilePath,
                    EmitBuffer *report, EmitBuffer *error);

/// The JSON report (schema emit-diff-1) of `emit-diff --format=json` on the
/// program (or data file) at `oldPath` with its `oldDataCount` data files,
/// against the one at `newPath` with its `newDataCount`. Programs that
/// differ give a report (with same_content false), not a failure.
int emitDiffFiles(const char *oldPath, const char *const *oldDataPaths,
                  size_t oldDataCount, const char *newPath,
                  const char *const *newDataPaths, size_t newDataCount,
                  EmitBuffer *report, EmitBuffer *error);

/// The JSON report (schema emit-graph-diff-1) of `emit-diff --graph
/// --format=json`: each method pair's graphs matched node by node, delegate
/// payloads included. `methodPairs` (`pairCount` of them, each `old=new`)
/// are --method's pairs. Graphs that differ give a report (with unchanged
/// false), not a failure.
int emitGraphDiffFiles(const char *oldPath, const char *const *oldDataPaths,
                       size_t oldDataCount, const char *newPath,
                       const char *const *newDataPaths, size_t newDataCount,
                       const char *const *methodPairs, size_t pairCount,
                       EmitBuffer *report, EmitBuffer *error);

/// emit-link's options, each the command-line option of its name. Strings
/// may be null (absent); so may the arrays when their count is 0.
typedef struct {
  const char *const *inputs; /* programs (.pte) */
  size_t inputCount;
  const char *const *dataFiles; /* --data */
  size_t dataFileCount;
  const char *output;       /* -o */
  const char *outDir;       /* --out-dir */
  const char *externalData; /* --external-data */
  /* --externalize-constants=N when at least 0; -1: not given. */
  long long externalizeConstants;
  int internalize;                     /* --internalize */
  int prefixMethods;                   /* --prefix-methods */
  unsigned long long maxDataFileBytes; /* --max-data-file-bytes; 0: not given */
  unsigned long long segmentAlignment; /* --segment-alignment; 0: not given */
} EmitLinkOptions;

/// Links the files `options` names as emit-link does, writing every output
/// or none; its JSON report (docs/DedupReport.md, per input) goes to
/// *report.
int emitLinkFiles(const EmitLinkOptions *options, EmitBuffer *report,
                  EmitBuffer *error);

/// Releases a buffer emit filled; leaves it empty.
void emitFree(EmitBuffer *buffer);

#ifdef __cplusplus
}
#endif

#endif /* EMIT_C_EMIT_H */
