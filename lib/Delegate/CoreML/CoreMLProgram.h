//===- CoreMLProgram.h - A Core ML model's ML program, as a graph -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DELEGATE_COREMLPROGRAM_H
#define EMIT_LIB_DELEGATE_COREMLPROGRAM_H

#include "emit/Delegate/PayloadDecoder.h"

namespace emit::delegate {

/// Reads the ML program of `model`, a Core ML Model protobuf at byte `base`
/// of the payload, into `decoded`'s graph (and its specification and
/// program versions into its target); a malformed model is a problem and
/// no graph.
void readCoreMLProgram(StringRef model, uint64_t base, DecodedPayload &decoded);

} // namespace emit::delegate

#endif // EMIT_LIB_DELEGATE_COREMLPROGRAM_H
