//===- KernelChecks.h - A program against the kernels of a build -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-verify --kernels: which kernel calls a build of the named kernels
// runs no kernel for, as findings (main's, the verdict's) and as reasons
// in each release's row of the release table.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_VERIFY_KERNELCHECKS_H
#define EMIT_LIB_VERIFY_KERNELCHECKS_H

#include "emit/Verify/Verify.h"

namespace emit {
class ProgramModel;
namespace kernels {
struct KernelSpec;
} // namespace kernels

/// Checks `model`'s kernel calls against a build of `spec` at every
/// release: a finding per method, operator and key main has no kernel for,
/// a reason in each release's row (the report's release table judged, and
/// judged again here), and `report.kernels`.
void checkKernels(const ProgramModel &model, const kernels::KernelSpec &spec,
                  VerifyReport &report);

/// Warns of each call of `model` a known kernel defect bites in the build
/// (`spec`'s; any that runs the defective kernel when null), at main; with
/// the release table shown, a reason (the release loads it) in each
/// release's row that has the defect.
void checkKernelDefects(const ProgramModel &model,
                        const kernels::KernelSpec *spec, VerifyReport &report);

} // namespace emit

#endif // EMIT_LIB_VERIFY_KERNELCHECKS_H
