//===- ProgramChecker.h - Read and check every table of a .pte --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What ProgramFile::open runs. The file is untrusted: the flatbuffer is
// verified before it is walked, the extended header and every segment are
// checked against the file size, and every index against the table it
// indexes. Every finding is recorded and the read goes on past a bad entry,
// so that one read finds everything; the dialect's invariants are checked
// on the tables as they are read. ProgramChecks.cpp reads the header and
// the program's data, MethodChecks.cpp its methods.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_FILE_PROGRAMCHECKER_H
#define EMIT_LIB_FILE_PROGRAMCHECKER_H

#include "FindingReport.h"
#include "emit/File/ReadScalars.h"

#include "emit/Dialect/ET/IR/ETInvariants.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/program_generated.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace emit {
namespace fb = executorch_flatbuffer;

/// Reads and checks one program, filling in its ProgramFile.
class ProgramChecker : FileChecker<ProgramFile> {
public:
  explicit ProgramChecker(ProgramFile &file) : FileChecker(file) {}
  void run();

private:
  /// Reports `problem` of the op `opName` would be, as its verifier does.
  LogicalResult reportInvariant(const et::Problem &problem, StringRef opName,
                                Check check, const void *table,
                                const Twine &where);

  //===--------------------------------------------------------------------===//
  // The header and the flatbuffer (ProgramChecks.cpp)
  //===--------------------------------------------------------------------===//

  LogicalResult checkHeader();
  LogicalResult checkHeaderFields(const pte::ReadHeader &header);
  LogicalResult checkSegmentBase(uint64_t segmentBase, uint64_t dataSize);
  /// Checks that the segment data, which ends at file offset `end`, ends
  /// the file.
  LogicalResult checkSegmentDataEnd(uint64_t end);
  /// Why the runtime can read no segment of this file, if it cannot.
  std::optional<std::string> whyNoSegmentData() const;
  LogicalResult verifyFlatbuffer();

  //===--------------------------------------------------------------------===//
  // The program's data (ProgramChecks.cpp)
  //===--------------------------------------------------------------------===//

  /// The program-level tables, one function each, in file order.
  LogicalResult checkProgramData();
  /// How the runtime reads a segment while loading the program and its
  /// methods (named data is read when a backend asks for it).
  enum class SegmentLoad : uint8_t {
    /// Not at load.
    None,
    /// At `segment_base_offset` + its offset, whatever the base (the
    /// constant segment, which Program::load reads itself).
    AtBase,
    /// Through Program::LoadSegment, which finds no segment in a file
    /// without segment data (mutable data, delegate payloads).
    Checked,
  };
  llvm::DenseMap<uint32_t, SegmentLoad> segmentsLoadedAtLoad() const;
  /// What the runtime does with segment `index` at file offset `start`,
  /// which a file of its size does not hold whole when not `inFile`.
  static RuntimeLoad getSegmentRuntime(SegmentLoad load, bool inFile);
  LogicalResult checkSegments();
  LogicalResult checkSegment(const fb::DataSegment *segment, unsigned index,
                             SegmentLoad load, uint64_t &dataEnd);
  LogicalResult checkInlineData();
  /// The alignment every one of `addresses` (file offsets of force-aligned
  /// vectors) has, at most what the file allows: the builder pads the
  /// flatbuffer (and the header region) to a multiple of its largest forced
  /// alignment, which is at least the schema's 16 once there is such a
  /// vector. A program_size that is not a multiple of 16 is then not the
  /// flatbuffer's end, and the alignment read off it would be wrong.
  uint64_t vectorAlignment(ArrayRef<uint64_t> addresses);
  /// Checks segment `index`, which `table` names at `where`.
  LogicalResult checkSegmentIndex(uint32_t index, const void *table,
                                  const Twine &where);
  /// The offsets of a constant or mutable data segment.
  FailureOr<SmallVector<int64_t>>
  readOffsets(const flatbuffers::Vector<uint64_t> *offsets, const void *table,
              const Twine &where);
  LogicalResult checkConstantSegment();
  LogicalResult checkConstantBuffer();
  LogicalResult checkMutableDataSegments();
  LogicalResult checkNamedData();
  /// The tables tensors' data indices name, from the program data.
  void setTensorDataTables();
  /// The bytes `segments[index]` holds, if known.
  std::optional<uint64_t> segmentSize(uint32_t index) const;

  //===--------------------------------------------------------------------===//
  // Methods (MethodChecks.cpp)
  //===--------------------------------------------------------------------===//

  /// List values whose items are checked once every value is read: the
  /// op the list is, its items and the list's value index.
  template <typename T>
  struct PendingList {
    StringRef listOp;
    const flatbuffers::Vector<T> *items;
    uint32_t valueIndex;
  };
  struct PendingItems {
    SmallVector<PendingList<int32_t>> lists;
    SmallVector<PendingList<int64_t>> intLists;
  };
  /// The op a value is read as, with a tensor's scalar type; no op when the
  /// value failed its checks.
  struct ValueKind {
    StringRef op;
    std::optional<et::ScalarType> type;
  };
  static ValueKind getValueKind(const fb::EValue *value);

  LogicalResult checkMethod(const fb::ExecutionPlan *plan, unsigned planIndex);
  /// checkMethod's checks, while every finding is of the method.
  LogicalResult checkMethodContents(const fb::ExecutionPlan *plan,
                                    unsigned planIndex);
  /// Checks that `plan` has every table the runtime requires.
  LogicalResult checkMethodTables(const fb::ExecutionPlan *plan,
                                  const Twine &where);
  /// The method's buffer sizes and buffer devices.
  LogicalResult checkMethodAttributes(const fb::ExecutionPlan *plan,
                                      const Twine &where);
  /// Checks that the method's name is a symbol no other method or blob of
  /// the program has, as the module's symbol table needs.
  LogicalResult checkMethodSymbol(const fb::ExecutionPlan *plan,
                                  unsigned planIndex, StringRef name);
  /// Checks the method's buffer sizes: what the dialect verifies, and that
  /// a runtime can allocate them.
  LogicalResult checkMethodBuffers(const fb::ExecutionPlan *plan,
                                   const Twine &where);
  LogicalResult checkValues(const fb::ExecutionPlan *plan, const Twine &where);
  LogicalResult checkValue(const fb::EValue *value, const Twine &where,
                           uint32_t index, PendingItems &pending);
  /// Notes the list `value`, whose items are checked once all values are.
  void addPendingList(const fb::EValue *value, uint32_t index,
                      PendingItems &pending);
  /// Checks the items of the lists of `pending`.
  LogicalResult checkListItems(const fb::ExecutionPlan *plan,
                               const PendingItems &pending, const Twine &where);
  LogicalResult checkTensor(const fb::Tensor *tensor, const Twine &where);
  /// Where `tensor`'s data lives: its memory plan and extra information.
  LogicalResult checkTensorPlacement(const fb::Tensor *tensor,
                                     const Twine &where);
  /// Checks what the dialect verifies of `tensor` at `where`: its shape,
  /// its planned buffer and its data.
  LogicalResult checkTensorInvariants(const fb::Tensor *tensor,
                                      et::ScalarType type, const Twine &where);
  LogicalResult checkOperators(const fb::ExecutionPlan *plan,
                               const Twine &where);
  LogicalResult checkDelegates(const fb::ExecutionPlan *plan,
                               const Twine &where);
  /// One delegate entry's payload and compile specs; `at` spells its path.
  LogicalResult checkDelegate(const fb::BackendDelegate *delegate,
                              function_ref<std::string()> at);
  LogicalResult checkDelegatePayload(const fb::BackendDelegate *delegate,
                                     function_ref<std::string()> at);
  LogicalResult checkChain(const fb::Chain *chain, uint32_t chainIndex,
                           const Twine &where);
  /// One instruction of a chain of `size` instructions, at `at`.
  LogicalResult checkInstruction(const fb::Instruction *instruction,
                                 const Twine &at, uint32_t size);
  /// A jump of a chain of `size` instructions, at `at`.
  LogicalResult checkJump(const fb::Instruction *instruction, const Twine &at,
                          uint32_t size);
  /// A kernel or delegate call of entry `index` of a table of `count`
  /// entries, whose index is `field`.
  template <typename CallTy>
  LogicalResult checkCall(const CallTy *call, int32_t index, uint32_t count,
                          bool kernel, StringRef field, const Twine &at);
  /// Checks value indices against the method's values with `check`.
  template <typename T>
  LogicalResult checkValueIndices(const flatbuffers::Vector<T> *indices,
                                  Check check, const Twine &where);
  LogicalResult checkValueIndex(int64_t index, const void *table, Check check,
                                const Twine &where);

  const fb::Program *program = nullptr;

  /// The header's segment_data_size; 0 when it records none.
  uint64_t segmentDataSize = 0;
  bool hasHeader = false;

  /// Each entry of `segments` and `backend_delegate_data`: the file offset
  /// of its table, its byte count, and whether something names it.
  struct BlobTable {
    std::vector<uint64_t> offsets, sizes;
    llvm::BitVector named;
    void add(uint64_t offset, uint64_t size) {
      offsets.push_back(offset);
      sizes.push_back(size);
    }
    void setNamed(uint32_t index) {
      named.resize(sizes.size());
      named.set(index);
    }
    size_t size() const { return sizes.size(); }
  } segmentBlobs, inlineBlobs;
  /// Segments that fail their checks: their size is not known.
  llvm::BitVector badSegments;

  /// What tensors' data indices name: set once the program data is read, if
  /// all of it was.
  std::optional<et::TensorDataTables> tensorData;
  SmallVector<int64_t> constantOffsets;
  std::optional<uint64_t> constantCapacity;
  std::optional<SmallVector<uint64_t>> constantBufferSizes;
  std::vector<SmallVector<int64_t>> mutableOffsets;
  SmallVector<et::SegmentEntries> mutableEntries;

  /// The methods' names so far, and their plan indices.
  llvm::StringMap<unsigned> methodNames;
  /// The method being read: its buffer sizes, the sizes of its tables, the
  /// kind of each value, and its last kernel call, whose operator the
  /// runtime checks.
  SmallVector<int64_t> methodBuffers;
  uint32_t valueCount = 0, operatorCount = 0, delegateCount = 0;
  SmallVector<ValueKind> valueKinds;
  const void *lastKernelCall = nullptr;
};

} // namespace emit

#endif // EMIT_LIB_FILE_PROGRAMCHECKER_H
