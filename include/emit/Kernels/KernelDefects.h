//===- KernelDefects.h - Kernels that return wrong results ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Known defects of the kernel libraries, by release: kernels that accept
// arguments they cannot handle and return wrong numbers with no error, or
// refuse, when the method runs, calls the file makes. Each row names the
// operators, the condition on the call's tensor arguments, the releases
// that have it, the fix (or none), its source, and how to avoid it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_KERNELS_KERNELDEFECTS_H
#define EMIT_KERNELS_KERNELDEFECTS_H

#include "emit/Kernels/KernelCalls.h"

#include <optional>
#include <string>
#include <vector>

namespace emit::kernels {

/// What a call must have for the defect to bite.
enum class DefectCondition : uint8_t {
  /// Any tensor argument in a dim order other than the default
  /// (contiguous) one.
  AnyTensorNotDefaultDimOrder,
  /// The tensor argument at `DefectRow::argument` (a position among the
  /// call's arguments) in a dim order neither default nor channels-last.
  ArgumentNeitherDefaultNorChannelsLast,
};

/// What the kernel does with such a call when the method runs.
enum class DefectEffect : uint8_t {
  /// Returns wrong numbers, with no error.
  WrongResult,
  /// Fails the call (InvalidArgument, 0x12): the method fails to run.
  FailsWhenRun,
};

/// One defect of one library's kernels.
struct KernelDefect {
  const char *name;
  /// The library whose kernels have it (`portable`: also optimized's
  /// fallback to them).
  const char *library;
  ArrayRef<const char *> operators;
  DefectCondition condition;
  int argument;
  DefectEffect effect;
  /// The release that fixes it; none when no release emit knows does.
  std::optional<unsigned> fixedIn;
  /// The report or fix, and the state of the fix.
  const char *source;
  /// What the user can do.
  const char *avoid;
};

ArrayRef<KernelDefect> getKernelDefects();

/// The calls of a method to one operator a defect bites.
struct DefectCalls {
  const KernelDefect *defect;
  const MethodModel *method;
  /// The first such call, and how many.
  const InstructionModel *firstCall;
  unsigned calls = 0;
  StringRef name;
  /// The first call's tensor (value index) that meets the condition.
  uint32_t value = 0;
};

/// Every call of `model` a defect of `getKernelDefects()` bites at
/// `release` where the build runs the defective library's kernel (any
/// build, with `spec` null; else one whose libraries give it), grouped by
/// method, operator and defect in order of first call. Reads the arguments
/// of the defective operators' calls alone.
std::vector<DefectCalls> findKernelDefects(const ProgramModel &model,
                                           const KernelSpec *spec,
                                           unsigned release);

/// What the defect does to the calls, as a finding says it.
std::string describeDefect(const DefectCalls &calls);

} // namespace emit::kernels

#endif // EMIT_KERNELS_KERNELDEFECTS_H
