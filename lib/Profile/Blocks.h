//===- Blocks.h - An ETDump's blocks, and the methods they ran --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_PROFILE_BLOCKS_H
#define EMIT_LIB_PROFILE_BLOCKS_H

#include "Instructions.h"

#include <vector>

namespace etdump {
struct Value;
} // namespace etdump

namespace emit::profile {

/// One profile event, read off the ETDump (its strings stay in the file).
struct ProfileEvent {
  /// The event's name; a delegate's event may have a string debug id here
  /// instead, or only an integer one (`delegateId`).
  StringRef name;
  int64_t chain;
  int64_t instruction;
  uint64_t start;
  uint64_t end;
  /// A delegate logged it (it carries a delegate debug id).
  bool delegate;
  int32_t delegateId;

  uint64_t getDuration() const { return end > start ? end - start : 0; }
  /// Whether it is of an instruction (method events have chain -1).
  bool isOfInstruction() const { return chain >= 0; }
  /// The name it is reported by: a delegate's integer id as `#id`.
  std::string getReportName() const;
};

/// A value a debug event logged, in the file.
struct DebugEvent {
  int64_t chain;
  int64_t instruction;
  const etdump::Value *value;
};

/// One block's profile events.
struct Block {
  unsigned index;
  std::string name;
  BlockRole role = BlockRole::Unknown;
  std::vector<ProfileEvent> events;
  std::vector<DebugEvent> debugEvents;
};

/// Every block of `etdump`, a verified ETDump flatbuffer, with its role.
std::vector<Block> readBlocks(const ETDumpFile &etdump);

/// Where a block went: the methods (by index) that may have run it, one
/// when it is matched, none when no method explains it; and why.
struct BlockAssignment {
  SmallVector<unsigned, 1> candidates;
  std::string how;

  bool isMatched() const { return candidates.size() == 1; }
};

/// Each block of `blocks` to one of `methods`: an execution block to the
/// one method whose instructions explain its events, a load block by the
/// order of loads and executions.
std::vector<BlockAssignment> assignBlocks(ArrayRef<Block> blocks,
                                          ArrayRef<MethodModel> methods);

/// Reassigns `assigned`, as assignBlocks left it, by the order in which the
/// run loaded and executed its methods: `order`, indices into `methods`
/// (the user says so: emit-profile --in-order). Each run of loads is of the
/// next methods in that order; the executions after one load are of its
/// method, after k loads (k executions) of those methods in turn; with no
/// loads at all, one execution per method. A block whose events the
/// order's method does not explain keeps its assignment, and its `how`
/// says why.
void assignInOrder(ArrayRef<Block> blocks, ArrayRef<MethodModel> methods,
                   ArrayRef<unsigned> order,
                   std::vector<BlockAssignment> &assigned);

} // namespace emit::profile

#endif // EMIT_LIB_PROFILE_BLOCKS_H
