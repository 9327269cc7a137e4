//===- GraphFormat.h - How emit-graph's formats name things -----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_GRAPH_GRAPHFORMAT_H
#define EMIT_LIB_GRAPH_GRAPHFORMAT_H

#include "emit/Graph/GraphReport.h"

#include <string>

namespace emit::graph {

/// A tensor's scalar type as the dialect names it (`float`), or its
/// number when emit does not know it.
std::string getDtypeName(const ValueInfo &value);
/// `constant_segment`, `constant_buffer` or `external`.
StringRef getConstantPlaceName(ConstantPlace place);
/// A tensor value as `float[1, 16]`, another as its kind.
std::string describeValue(const ValueInfo &value);
/// A payload's value as `fp32[1, 4]`, with its quantization.
std::string describeDecoded(const delegate::DecodedValue &value);
/// A part a delegate call loads from named data, as `'forward_so' (program,
/// 48 B)`, or `'so_blob' (in no file given, required)`.
std::string describeNamedPart(const NamedPartInfo &part);
/// Each node of a delegate call's payload graph (`nodes` of them): the sum
/// of the call's own events joined to it (a concatenation runs as several
/// XNNPACK operators); none where no event is.
std::vector<std::optional<NodeTime>>
sumPayloadNodeTimes(const DelegateInfo &info, size_t nodes);

} // namespace emit::graph

#endif // EMIT_LIB_GRAPH_GRAPHFORMAT_H
