//===- GraphDiffInternal.h - The nodes emit-diff --graph matches -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_DIFF_GRAPHDIFFINTERNAL_H
#define EMIT_LIB_DIFF_GRAPHDIFFINTERNAL_H

#include "emit/Diff/GraphDiff.h"

#include <vector>

namespace emit::graphdiff {

/// `graph`'s nodes in execution order, each delegate call followed by its
/// payload's operators, with their keys and producers.
std::vector<DiffNode> flattenMethodGraph(const graph::MethodGraph &graph,
                                         DiffTables &tables);

/// What `family` of an operator is named alike on the CPU and in the
/// backends: `aten::add.out`, `XNNAdd` and `aten.add.Tensor` are `add`.
std::string getOperatorFamily(StringRef op);
/// A scalar type as both sides name it: `float`, `xnn_datatype_fp32` and
/// `FLOAT32` are `f32`.
std::string normalizeDtype(StringRef dtype);

/// How `oldNode` and `newNode`, matched, differ.
SmallVector<NodeAspect, 2> compareNodes(const DiffNode &oldNode,
                                        const DiffNode &newNode,
                                        const DiffTables &tables);

} // namespace emit::graphdiff

#endif // EMIT_LIB_DIFF_GRAPHDIFFINTERNAL_H
