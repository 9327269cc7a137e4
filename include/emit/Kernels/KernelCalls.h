//===- KernelCalls.h - The kernels a program's calls need -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Each kernel call of a program as load_method resolves it: its operator
// and the kernel key Method::resolve_operator computes from its arguments
// (each tensor argument's scalar type and dim order, `v1/6;0,1|6;0,1`),
// which calls a build's registry has no kernel for (OperatorMissing), and
// a selected_operators.yaml that builds exactly the kernels programs use.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_KERNELS_KERNELCALLS_H
#define EMIT_KERNELS_KERNELCALLS_H

#include "emit/File/ProgramModel.h"
#include "emit/Kernels/KernelRegistry.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace emit {
class PayloadFiles;
} // namespace emit

namespace emit::kernels {

/// The kernel key load_method computes for kernel call `call` of `method`:
/// `v1/` and, per argument that is a tensor, its scalar type, `;` and its
/// dim order joined by `,`, tensors separated by `|`; empty when no argument
/// is a tensor (runtime/kernel/operator_registry.cpp).
std::string getKernelKey(const MethodModel &method,
                         const InstructionModel &call);

/// The kernel calls of one method to one operator with one kernel key.
struct KernelCallGroup {
  const MethodModel *method;
  /// The first such call, and how many there are.
  const InstructionModel *firstCall;
  unsigned calls = 0;
  /// As the runtime names it (`aten::add.out`), and the calls' key.
  StringRef name;
  std::string key;
};

/// `model`'s kernel calls grouped by method, operator and kernel key, in
/// order of first call; prim ops are left to the release table.
std::vector<KernelCallGroup> groupKernelCalls(const ProgramModel &model);

/// The groups of `groups` whose calls `registry` has no kernel for.
std::vector<const KernelCallGroup *>
findMissingKernels(ArrayRef<KernelCallGroup> groups,
                   const KernelRegistry &registry);

/// The libraries that register `name` at `release`, in getLibraryNames()'
/// order.
SmallVector<StringRef, 2> getLibrariesWith(StringRef name, unsigned release);

/// The calls of a method to an operator with a kernel key that a build
/// runs no kernel for, as reports list them.
struct MissingKernelCalls {
  std::string method;
  /// The first call's chain and index there, and how many calls.
  unsigned chain = 0, instruction = 0;
  unsigned calls = 0;
  std::string name;
  std::string key;
  /// The libraries that have it at the release checked.
  std::vector<std::string> libraries;
};

/// A program's kernel calls (prim ops aside) against a build at a release.
struct KernelCheck {
  /// The build, as --kernels named it; the release, by name (the caller
  /// names it: the table knows releases by position).
  std::string build;
  std::string release;
  unsigned kernelCalls = 0;
  std::vector<MissingKernelCalls> missing;

  /// The calls of `missing`.
  unsigned countMissingCalls() const;
};

/// `check` as JSON, as emit-verify-1 and emit-summary-2 hold it: `build`,
/// `kernel_calls`, `missing` (each: `method`, `chain`, `instruction`,
/// `operator`, `kernel_key`, `calls`, `libraries`), `release`.
llvm::json::Object getKernelCheckJSON(const KernelCheck &check);

/// `key` as messages show it: `(none: no tensor argument)` for a call
/// without a tensor argument.
std::string describeKey(StringRef key);

/// Who has a kernel a build lacks, as messages end: `; optimized has it`,
/// `; portable, optimized have it`, `; no library emit knows has it`.
std::string describeLibraries(ArrayRef<StringRef> libraries);

/// What `calls` lack, one line of text: the operator, key, calls and the
/// libraries that have it.
std::string describeMissingCalls(const MissingKernelCalls &calls);

/// `groups` (a program's) against a build of `spec` at `release` (a
/// position in getReleaseNames()).
KernelCheck checkKernelCalls(ArrayRef<KernelCallGroup> groups,
                             const KernelSpec &spec, unsigned release);

/// The operators and kernel keys programs call, for a selective build.
struct KernelUses {
  struct OperatorUse {
    /// The kernel keys it is called with, sorted.
    std::set<std::string> keys;
    /// The programs that call it (positions in `programs`), in order.
    std::vector<unsigned> programs;
  };
  /// By operator, sorted as a selected_operators.yaml lists them.
  std::map<std::string, OperatorUse> operators;
  /// The programs, as named.
  std::vector<std::string> programs;

  void add(const ProgramModel &model, StringRef programName);
};

/// The kernel uses of the programs at `paths` (each a program or a bundle),
/// opened through `files`; fails at the first that cannot be read or does
/// not read, with what to say in `error`.
FailureOr<KernelUses> collectKernelUses(PayloadFiles &files,
                                        ArrayRef<std::string> paths,
                                        std::string &error);

/// Writes `uses` as a selected_operators.yaml in the format
/// codegen/tools/gen_oplist.py documents: every operator a root operator
/// with its keys in et_kernel_metadata, prim ops among them (a build with
/// EXECUTORCH_ENABLE_PRIM_OPS_SELECTIVE_BUILD registers only the prim ops
/// listed). Comments name, per library of `libraries` at `release`,
/// the operators it provides, as CMake's EXECUTORCH_SELECT_OPS_LIST takes
/// them.
void writeSelectedOperators(const KernelUses &uses,
                            ArrayRef<std::string> libraries, unsigned release,
                            raw_ostream &os);

} // namespace emit::kernels

#endif // EMIT_KERNELS_KERNELCALLS_H
