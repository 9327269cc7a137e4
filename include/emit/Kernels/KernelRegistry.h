//===- KernelRegistry.h - The kernels a build registers ---------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What `--kernels` names, and the kernel registry a build of it has at a
// release: the prim ops, the libraries it links (narrowed by a
// selected_operators.yaml as torchgen's SelectiveBuilder narrows them), and
// kernels a file lists one a line, as ../shared/tools/pte-check --kernels
// takes them (`NAME` for any dtype and dim order, `NAME KEY` for one
// kernel key). load_method resolves an operator as the runtime's
// get_op_function_from_registry does: a kernel of that name with the call's
// kernel key, else one of that name with no key (a fallback).
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_KERNELS_KERNELREGISTRY_H
#define EMIT_KERNELS_KERNELREGISTRY_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace emit::kernels {

/// A selected_operators.yaml, as torchgen's SelectiveBuilder reads it.
struct OperatorSelection {
  struct Operator {
    bool isRoot = true;
    bool allOverloads = false;
  };
  bool includeAllOperators = false;
  /// `operators`: by name (`aten::add.out`, or `aten::add` with
  /// include_all_overloads).
  llvm::StringMap<Operator> operators;
  /// `et_kernel_metadata`: the kernel keys each operator is used with.
  llvm::StringMap<std::vector<std::string>> kernelMetadata;

  /// Whether a selective build of a library registers its fallback (no
  /// key) kernel of `name`: the operator is a root operator (by name, or
  /// its base name's include_all_overloads) and has kernel metadata, or
  /// the selection includes all operators.
  bool selectsFallback(StringRef name) const;
};

/// Parses a selected_operators.yaml; fails with `error` naming the line
/// and column.
FailureOr<OperatorSelection>
parseOperatorSelection(const llvm::MemoryBuffer &buffer, std::string &error);

/// One kernel a registry file lists: an operator and its kernel key (empty:
/// any dtype and dim order).
struct ListedKernel {
  std::string name;
  std::string key;
};

/// Parses a registry file: one kernel a line, `NAME` or `NAME KEY`, `#`
/// comments; fails with `error` naming the line.
FailureOr<std::vector<ListedKernel>>
parseKernelList(const llvm::MemoryBuffer &buffer, std::string &error);

/// What `--kernels` names: comma-separated library names, a
/// selected_operators.yaml (`.yaml`, `.yml`) that narrows them (`portable`
/// when it names none), and files listing kernels.
struct KernelSpec {
  std::vector<std::string> libraries;
  std::optional<OperatorSelection> selection;
  std::vector<ListedKernel> listed;
  /// As given, for reports (`portable,` first where a selection alone
  /// implies it).
  std::string text;
};

/// Parses `--kernels`' value (the option `option`'s, as messages name it),
/// reading the files it names; fails with the reason in `error`.
FailureOr<KernelSpec> parseKernelSpec(StringRef value, std::string &error,
                                      StringRef option = "--kernels");

/// The kernels a build of a KernelSpec registers at one release.
class KernelRegistry {
public:
  KernelRegistry(const KernelSpec &spec, unsigned release);

  /// Whether load_method finds a kernel for `name` called with kernel key
  /// `key`: one registered with that key, or a fallback.
  bool resolves(StringRef name, StringRef key) const;
  unsigned getRelease() const { return release; }

private:
  void add(StringRef name, StringRef key);

  unsigned release;
  /// Per operator, the keys registered; an empty key is a fallback.
  llvm::StringMap<SmallVector<std::string, 1>> kernels;
};

} // namespace emit::kernels

#endif // EMIT_KERNELS_KERNELREGISTRY_H
