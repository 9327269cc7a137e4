//===- PlanCheck.h - A method's memory plan, and whether it is sound -*- C++
//-*-//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_MEMORY_PLANCHECK_H
#define EMIT_LIB_MEMORY_PLANCHECK_H

#include "emit/File/DataFlow.h"
#include "emit/File/ProgramFile.h"
#include "emit/Memory/MemoryReport.h"

namespace emit {
class MethodModel;

namespace memory {

/// Appends the planned tensors of `model`, whose data flow is `uses`, in
/// value order: those whose bytes are known.
void readPlannedTensors(const MethodModel &model, const MethodDataFlow &uses,
                        std::vector<PlannedTensor> &tensors);

/// Fills in `method`'s planned buffers (with their peaks) and tensors from
/// `model`, a method of `file` whose data flow is `uses`, and adds the
/// findings of the memory checks on them: `memory-overlap` (two tensors
/// share bytes while both are live, other than the aliases ExecuTorch plans
/// on purpose), `memory-in-place-out` and `memory-slack`.
void checkPlan(const ProgramFile &file, const MethodModel &model,
               const MethodDataFlow &uses, MethodMemory &method);

} // namespace memory
} // namespace emit

#endif // EMIT_LIB_MEMORY_PLANCHECK_H
