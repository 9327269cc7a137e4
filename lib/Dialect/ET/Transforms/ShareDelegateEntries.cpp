//===- ShareDelegateEntries.cpp - Calls share equal entries -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Lets the calls of equal delegate entries of one method share the first.
//
//===----------------------------------------------------------------------===//

#include "Dedup.h"

namespace emit::et {
#define GEN_PASS_DEF_SHAREDELEGATEENTRIES
#include "emit/Dialect/ET/Transforms/Passes.h.inc"
} // namespace emit::et

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {
struct ShareDelegateEntriesPass
    : public et::impl::ShareDelegateEntriesBase<ShareDelegateEntriesPass> {
  using ShareDelegateEntriesBase::ShareDelegateEntriesBase;
  void runOnOperation() override {
    for (ProgramOp program : getPrograms(getOperation()))
      dedup::shareDelegateEntries(program, remarks);
  }
};
} // namespace
