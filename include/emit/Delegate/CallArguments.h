//===- CallArguments.h - What a delegate call reads and writes --*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Which arguments of a delegate call its backend reads and which it
// writes, as the backend's runtime takes them from the call, where the
// payload says: XNNPACK by each external value's id, Vulkan its inputs
// first and its outputs last, MPS its tensor arguments in order, Ethos-U
// its inputs then its outputs. A plain description, with no code: the
// decoders fill it in (PayloadDecoder.h), and the data flow of a method
// reads it (emit/File/DataFlow.h).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DELEGATE_CALLARGUMENTS_H
#define EMIT_DELEGATE_CALLARGUMENTS_H

#include <cstdint>
#include <vector>

namespace emit::delegate {

struct CallArguments {
  /// What the positions count.
  enum class Counting : uint8_t {
    /// The call's arguments.
    Arguments,
    /// The call's tensor arguments only: the backend skips the others.
    Tensors,
  };
  Counting counting = Counting::Arguments;
  /// The positions the backend reads, and those it writes.
  std::vector<uint32_t> inputs, outputs;
  /// Whether an output's position counts back from the last argument
  /// (output 0 of 2 is the last but one), as Vulkan's runtime takes its
  /// outputs last whatever comes before them.
  bool outputsFromEnd = false;
};

} // namespace emit::delegate

#endif // EMIT_DELEGATE_CALLARGUMENTS_H
