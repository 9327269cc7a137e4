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

} // namespace emit::graph

#endif // EMIT_LIB_GRAPH_GRAPHFORMAT_H
