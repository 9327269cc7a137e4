//===- PayloadMagic.h - What a delegate payload's first bytes say -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The backends' payloads that start with a known header (the ExecuTorch
// snapshot's backends/...): its magic, and whether the header fits the
// payload and its regions lie in it, as the backend's runtime checks
// before it reads further. Only the header's bytes are read.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_GRAPH_PAYLOADMAGIC_H
#define EMIT_LIB_GRAPH_PAYLOADMAGIC_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace emit::graph {

/// How many of a payload's first bytes identifyPayload reads, at most.
inline constexpr size_t kPayloadPrefixBytes = 32;

/// What a payload's first bytes say.
struct PayloadMagic {
  /// `XH00`, `VH00`, `MP00`, ..., or `0x5678abcd` (QNN's context binary
  /// header); empty when nothing known.
  std::string magic;
  /// What is wrong with the header, as its runtime would refuse it.
  std::vector<std::string> problems;
};

/// What `prefix`, the first bytes of a payload of `size` bytes, says.
PayloadMagic identifyPayload(StringRef prefix, uint64_t size);

} // namespace emit::graph

#endif // EMIT_LIB_GRAPH_PAYLOADMAGIC_H
