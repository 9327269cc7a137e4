//===- PTE.h - ExecuTorch .pte translation API ------------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Translation between the `et` dialect and ExecuTorch's files: `.pte`
// programs and `.ptd` data files, and how a file is imported. Independent of
// command-line flags (emit/Pipeline/TranslateRegistration.h binds those) and
// of passes (emit/Pipeline/Pipeline.h wires the two).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_TARGET_PTE_PTE_H
#define EMIT_TARGET_PTE_PTE_H

#include "emit/File/Findings.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/LLVM.h"
#include "emit/Support/PayloadFiles.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace emit {
class BundleFile;
class CheckedFile;
class DataFile;
class ProgramFile;
class PTEWriter;
namespace et {
class BundleOp;
class DataFileOp;
class ProgramOp;
} // namespace et

/// How `translateToPTE` lays out a file. Every alignment is a power of two.
///
/// One placement rule: what the IR records is kept (a blob's placement and
/// alignment, the program's segment alignment, the constant buffer's
/// alignment, as an import records them), and the options decide what it
/// does not record. An alignment option given for something that records
/// its own raises it to the least common multiple of both, so that no
/// alignment the IR asks for is ever lost.
struct PTEWriteOptions {
  /// Alignment of every segment, as ExecuTorch's `segment_alignment`: the
  /// program's `segment_alignment` when it has one, ExecuTorch's 128
  /// otherwise. A segment whose blob asks for more starts at the least
  /// common multiple of both, and the segment base is aligned to every
  /// segment's alignment, so that each holds in the file.
  std::optional<uint64_t> segmentAlignment;
  /// Alignment of constant tensor data: the constant segment starts at a
  /// multiple of it, and deprecated constant buffers are aligned to it
  /// inside the flatbuffer.
  uint64_t constantAlignment = 16;
  /// Alignment of delegate payloads kept inline, in the flatbuffer's
  /// `backend_delegate_data` (ExecuTorch's `force_align` is 16). A blob
  /// that asks for more gets its own alignment.
  uint64_t inlineAlignment = 16;
  /// Delegate payloads without a recorded placement of at most this many
  /// bytes are kept inline instead of in a segment; empty ones always are.
  /// Blobs placed `inline` or `segment` stay where they are.
  uint64_t inlineMaxSize = 0;
  /// The largest flatbuffer the writer produces. Flatbuffers use signed
  /// 32-bit offsets, so the format's ceiling is 2 GiB; tests lower it.
  uint64_t maxFlatbufferSize = (uint64_t(1) << 31) - 1;
  /// With `translateToPTD` on a module holding several data files, the
  /// name of the one to write.
  std::string dataFileName;
  /// Verify the IR before writing: the writer relies on every invariant the
  /// verifiers check. Only a caller that has just verified the same IR
  /// (as `--pte-to-pte` has, after its passes) may turn this off.
  bool verify = true;
};

/// Writes the single `et.program` in `op` (an `et.program`, or a module
/// holding exactly one) as a `.pte` to `os`: one `ExecutionPlan` per method,
/// one `BackendDelegate` per `et.call_delegate`, and one segment per
/// program-level payload, shared by every delegate that references it.
/// Reports problems as diagnostics on the offending op and writes nothing
/// then.
LogicalResult translateToPTE(Operation *op, raw_ostream &os,
                             const PTEWriteOptions &options = {});

/// A program laid out and built, not yet written: its size and the
/// alignment its start needs are known before a byte is, so that a
/// container (a bundle) can place it and then stream it.
class PreparedPTE {
public:
  explicit PreparedPTE(std::unique_ptr<PTEWriter> writer);
  PreparedPTE(PreparedPTE &&);
  ~PreparedPTE();
  /// The bytes write() writes.
  uint64_t getSize() const;
  /// What the file's start must be a multiple of for every segment and
  /// aligned table in it to keep its alignment.
  uint64_t getStartAlignment() const;
  /// Writes the file: the flatbuffer, then the segments streamed.
  void write(raw_ostream &os);

private:
  std::unique_ptr<PTEWriter> writer;
};

/// Lays out and builds `program` as translateToPTE writes it.
FailureOr<PreparedPTE> preparePTE(et::ProgramOp program,
                                  const PTEWriteOptions &options = {});

/// Writes `bundle` as a bundled program (`.bpte`): its test suites, then
/// its program as translateToPTE writes it, streamed into the flatbuffer's
/// `program` vector, which starts where every segment of the program keeps
/// its alignment (the schema's 32 raised to what the program needs). The
/// bundle is one flatbuffer: over `maxFlatbufferSize` bytes, nothing is
/// written. `translateToPTE` on a module holding one `et.bundle` writes it.
LogicalResult translateToBundle(et::BundleOp bundle, raw_ostream &os,
                                const PTEWriteOptions &options = {});

/// How an import holds what it reads.
struct PTEReadOptions {
  /// How IR names the file `buffer` holds (PayloadFiles::describe): every
  /// payload becomes a reference to its bytes there (`#et.file`), and the IR
  /// stays small whatever the file's size. Without one, payloads are
  /// resources that alias the file and hold it open.
  std::optional<FileReference> payloadFile;
  /// Locate each entry of the tables a program has many of (segments,
  /// inline data, values, delegates, instructions) at its own byte offset,
  /// instead of at its table (`"execution_plan[0] 'f'.delegates"(file:0:N)`,
  /// one location for all of them). An op's position already says which
  /// entry it is; a location per entry costs a quarter of a large
  /// program's import. For a file that breaks one of the dialect's
  /// invariants, whose verifier errors name the entry, the import locates
  /// entries whatever this says.
  bool entryLocations = false;
};

/// Imports the program `file` as a module holding one `et.program`.
/// Reports the file's findings as an import does (the first that refuses
/// it as its error, naming the byte offset, table and field; the warnings
/// before it), and the result is then null. The file layer has checked
/// the dialect's invariants on the file's tables: the module is verified
/// only when the file breaks one, to report the verifier's errors.
/// Accepts files with the 32-byte extended header, the older 24-byte one
/// and none; inline and segment delegate data; the constant segment and the
/// deprecated constant buffer; mutable and named data. Payloads are never
/// copied (see PTEReadOptions).
mlir::OwningOpRef<ModuleOp> importProgram(const ProgramFile &file,
                                          MLIRContext *context,
                                          const PTEReadOptions &options = {});

/// Imports a bundled program (`.bpte`) as an `et.bundle`: its program as
/// importProgram does (its findings at their offsets in the program), then
/// its test suites, tensors' bytes referred to or aliased as payloads are.
mlir::OwningOpRef<ModuleOp> importBundle(const BundleFile &file,
                                         MLIRContext *context,
                                         const PTEReadOptions &options = {});

/// Imports the data file `file` as a module holding one `et.data_file`:
/// every segment a blob in order, every named data entry with its tensor
/// layout. Its findings are reported as importProgram reports a program's.
mlir::OwningOpRef<ModuleOp> importDataFile(const DataFile &file,
                                           MLIRContext *context,
                                           const PTEReadOptions &options = {});

/// The module of a readable program file (ProgramFile::isReadable), built
/// without reporting its findings (emit-verify reports them as findings).
mlir::OwningOpRef<ModuleOp> buildProgram(const ProgramFile &file,
                                         MLIRContext *context,
                                         const PTEReadOptions &options = {});

/// The module of a readable data file, built without reporting its
/// findings.
mlir::OwningOpRef<ModuleOp> buildDataFile(const DataFile &file,
                                          MLIRContext *context,
                                          const PTEReadOptions &options = {});

/// Writes the single `et.data_file` in `op` (a data file, or a module
/// holding exactly one, or the one `options.dataFileName` names) as a
/// `.ptd`: the FH01 header, the FlatTensor flatbuffer, and one segment per
/// placed or named blob. Only `segmentAlignment` of the options applies.
LogicalResult translateToPTD(Operation *op, raw_ostream &os,
                             const PTEWriteOptions &options = {});

/// The size in bytes of the `.ptd` that `translateToPTD` writes for
/// `dataFile` with `options`, laid out without reading a payload.
FailureOr<uint64_t> getPTDFileSize(et::DataFileOp dataFile,
                                   const PTEWriteOptions &options = {});

/// How importFile holds what it reads.
struct ImportOptions {
  /// Carry every payload in the IR (a resource that aliases the file and
  /// holds it open), instead of a reference to its bytes in the file.
  /// Bytes in memory (standard input, a caller's buffer) are always
  /// carried: there is no file to refer to.
  bool embedPayloads = false;
  /// As PTEReadOptions::entryLocations.
  bool entryLocations = false;
};

/// Imports the program or data file `file`, which the layer opened and
/// checked (openFile in emit/File/CheckedFile.h), as importProgram or
/// importDataFile do, with the context's multithreading off while it
/// builds. Its payloads refer to the file through the context's payload
/// files (et::getPayloadFiles), unless carried.
mlir::OwningOpRef<ModuleOp> importFile(const CheckedFile &file,
                                       MLIRContext *context,
                                       const ImportOptions &options = {});

} // namespace emit

#endif // EMIT_TARGET_PTE_PTE_H
