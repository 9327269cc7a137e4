//===- PlanCheck.h - A method's memory plan, and whether it is sound -*- C++
//-*-//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_MEMORY_PLANCHECK_H
#define EMIT_LIB_MEMORY_PLANCHECK_H

#include "Lifetimes.h"

#include "emit/File/ProgramFile.h"

namespace emit::memory {

/// Fills in `method`'s planned buffers (with their peaks) and tensors from
/// `plan`, execution plan `planIndex` of `file`, and adds the findings of
/// the memory checks on them: `memory-overlap` (two tensors share bytes
/// while both are live, other than the aliases ExecuTorch plans on
/// purpose) and `memory-slack`.
void checkPlan(const ProgramFile &file,
               const executorch_flatbuffer::ExecutionPlan &plan,
               unsigned planIndex, const MethodUses &uses,
               MethodMemory &method);

} // namespace emit::memory

#endif // EMIT_LIB_MEMORY_PLANCHECK_H
