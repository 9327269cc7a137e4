//===- GraphBuild.h - A graph's builder and its overlays --------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_GRAPH_GRAPHBUILD_H
#define EMIT_LIB_GRAPH_GRAPHBUILD_H

#include "emit/DelegateCalls/DelegateCalls.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Graph/GraphReport.h"
#include "emit/Profile/ProfileReport.h"

#include <string>

namespace emit::graph {

/// Builds `method`'s graph into `graph`: its nodes, values and edges, its
/// delegate calls with their payloads as `calls` reads them, its fallback;
/// with `details`, each value's detail.
void buildMethodGraph(const ProgramModel &model, const MethodModel &method,
                      delegate::DelegateCalls &calls, MethodGraph &graph,
                      bool details = false);

/// Puts each of `findings` on the node or value of `report`'s methods
/// (those of the program's methods `methodIndices`) it is of; those of no
/// drawn method on the report.
void placeFindings(const FindingList &findings,
                   ArrayRef<unsigned> methodIndices, GraphReport &report);
/// Puts the run `profile`'s times on the nodes they time.
void addTimes(const profile::ProfileReport &profile, GraphReport &report);
/// Why the run `profile` of `etdump` does not fit `program`.
std::string describeMisfit(const profile::ProfileReport &profile,
                           StringRef etdump, StringRef program);
/// Each planned buffer's peak, as emit-memory finds it.
void addPeaks(const ProgramModel &model, delegate::DelegateCalls &calls,
              const GraphOptions &options, GraphReport &report);
/// A problem on each kernel call node that a build of `kernels` runs no
/// kernel for at main (load_method: OperatorMissing).
void addMissingKernels(const ProgramModel &model,
                       const kernels::KernelSpec &kernels, GraphReport &report);

} // namespace emit::graph

#endif // EMIT_LIB_GRAPH_GRAPHBUILD_H
