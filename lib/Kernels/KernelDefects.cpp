//===- KernelDefects.cpp - Kernels that return wrong results --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The rows were read off each release's kernels/portable/cpu sources: no
// release guards these kernels against the dim orders below (their
// argument checks accept any dim order shared by input and output), so
// every release that registers the operator has the defect; each row's
// first release is the portable library's first with the operator.
//
//===----------------------------------------------------------------------===//

#include "emit/Kernels/KernelDefects.h"

#include "emit/Kernels/KernelLibraries.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace emit;
using namespace emit::kernels;

static const char *const kBlockCopyOperators[] = {
    "aten::cat.out", "aten::pixel_unshuffle.out", "aten::slice_scatter.out",
    "aten::topk.values", "aten::constant_pad_nd.out"};
static const char *const kCoordinateOperators[] = {
    "aten::flip.out", "aten::gather.out", "aten::scatter.src_out",
    "aten::scatter.value_out"};
static const char *const kConvolutionOperators[] = {"aten::convolution.out"};

static const KernelDefect kDefects[] = {
    {"portable-block-copy-dim-order", "portable", kBlockCopyOperators,
     DefectCondition::AnyTensorNotDefaultDimOrder, -1,
     DefectEffect::WrongResult, std::nullopt,
     "pytorch/executorch#21865: the kernel copies blocks sized by the "
     "sizes after the dim (getLeadingDims, getTrailingDims), a row-major "
     "layout; merged after 1.4, in no release emit knows",
     "give these calls contiguous tensors: a dim order conversion "
     "(_to_dim_order_copy to the default order) before the call, or an "
     "export without channels-last around it"},
    {"portable-coordinate-index-dim-order", "portable", kCoordinateOperators,
     DefectCondition::AnyTensorNotDefaultDimOrder, -1,
     DefectEffect::WrongResult, std::nullopt,
     "pytorch/executorch#21828 (open): coordinateToIndex takes the sizes "
     "after a dim as its stride, a row-major layout",
     "give these calls contiguous tensors: a dim order conversion "
     "(_to_dim_order_copy to the default order) before the call, or an "
     "export without channels-last around it"},
    {"portable-convolution-weight-dim-order", "portable", kConvolutionOperators,
     DefectCondition::ArgumentNeitherDefaultNorChannelsLast, 1,
     DefectEffect::FailsWhenRun, std::nullopt,
     "pytorch/executorch#22520 (open): check_convolution_args accepts a "
     "weight only in the default or channels-last dim order; the emitter "
     "derives another from the strides of a weight with a dimension of size "
     "1 (a depthwise convolution's)",
     "re-export with the weight's dim order channels-last (0, 2, 3, 1) or "
     "default, or run the convolution in a delegate"},
};

ArrayRef<KernelDefect> kernels::getKernelDefects() { return kDefects; }

static bool isDefaultDimOrder(ArrayRef<uint8_t> order) {
  for (auto [position, dim] : llvm::enumerate(order))
    if (dim != position)
      return false;
  return true;
}

/// (0, 2, 3, 1) for 4 dims, (0, 2, 3, 4, 1) for 5: the channel dim last.
static bool isChannelsLastDimOrder(ArrayRef<uint8_t> order) {
  if (order.size() < 3 || order.front() != 0 || order.back() != 1)
    return false;
  for (size_t position = 1; position + 1 < order.size(); ++position)
    if (order[position] != position + 1)
      return false;
  return true;
}

/// The value of `call` (of `method`) that meets `defect`'s condition.
static std::optional<uint32_t> findCondition(const KernelDefect &defect,
                                             const MethodModel &method,
                                             const InstructionModel &call) {
  ArrayRef<int32_t> args = call.args;
  auto tensorAt = [&](int32_t value) -> std::optional<TensorModel> {
    if (value < 0 || uint32_t(value) >= method.getValueCount())
      return std::nullopt;
    return method.getTensor(value);
  };
  switch (defect.condition) {
  case DefectCondition::AnyTensorNotDefaultDimOrder:
    for (int32_t value : args)
      if (std::optional<TensorModel> tensor = tensorAt(value))
        if (!isDefaultDimOrder(tensor->getDimOrder()))
          return value;
    return std::nullopt;
  case DefectCondition::ArgumentNeitherDefaultNorChannelsLast: {
    if (defect.argument < 0 || size_t(defect.argument) >= args.size())
      return std::nullopt;
    int32_t value = args[defect.argument];
    std::optional<TensorModel> tensor = tensorAt(value);
    if (tensor && !isDefaultDimOrder(tensor->getDimOrder()) &&
        !isChannelsLastDimOrder(tensor->getDimOrder()))
      return value;
    return std::nullopt;
  }
  }
  return std::nullopt;
}

/// Whether a build of `spec` (any build, when null) runs `library`'s kernel
/// of `name` at `release`: it links the library, or optimized, whose build
/// falls back to portable's kernel where optimized.yaml has none.
static bool runsLibraryKernel(const KernelSpec *spec, StringRef library,
                              StringRef name, unsigned release) {
  if (!registers(library, name, release))
    return false;
  if (!spec)
    return true;
  for (const std::string &linked : spec->libraries) {
    if (linked == library)
      return true;
    if (library == "portable" && linked == "optimized" &&
        isPortableFallback(name, release))
      return true;
  }
  return false;
}

/// Per operator of `method`, the defect its calls may meet at `release`
/// in the build (at most one: the rows' operators are apart).
static std::vector<const KernelDefect *>
getOperatorDefects(const MethodModel &method, const KernelSpec *spec,
                   unsigned release) {
  std::vector<const KernelDefect *> defects;
  for (const OperatorModel &op : method.getOperators()) {
    const KernelDefect *found = nullptr;
    for (const KernelDefect &defect : kDefects)
      if (llvm::is_contained(defect.operators, op.qualifiedName) &&
          (!defect.fixedIn || release < *defect.fixedIn) &&
          runsLibraryKernel(spec, defect.library, op.qualifiedName, release))
        found = &defect;
    defects.push_back(found);
  }
  return defects;
}

std::vector<DefectCalls> kernels::findKernelDefects(const ProgramModel &model,
                                                    const KernelSpec *spec,
                                                    unsigned release) {
  std::vector<DefectCalls> found;
  for (const MethodModel &method : model.getMethods()) {
    std::vector<const KernelDefect *> defects =
        getOperatorDefects(method, spec, release);
    if (llvm::all_of(defects, [](const KernelDefect *d) { return !d; }))
      continue;
    // Per operator index, its group's position in `found`.
    llvm::DenseMap<int32_t, size_t> groups;
    for (const InstructionModel &call : method.getInstructions()) {
      if (call.kind != InstructionKind::Kernel || call.callee < 0 ||
          size_t(call.callee) >= defects.size() || !defects[call.callee])
        continue;
      std::optional<uint32_t> value =
          findCondition(*defects[call.callee], method, call);
      if (!value)
        continue;
      auto [group, added] = groups.try_emplace(call.callee, found.size());
      if (!added) {
        ++found[group->second].calls;
        continue;
      }
      found.push_back({defects[call.callee], &method, &call, 1,
                       method.getOperators()[call.callee].qualifiedName,
                       *value});
    }
  }
  return found;
}

std::string kernels::describeDefect(const DefectCalls &calls) {
  const KernelDefect &defect = *calls.defect;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << defect.library << "'s kernel of '" << calls.name << "' ";
  os << (defect.effect == DefectEffect::WrongResult
             ? "returns wrong results, with no error,"
             : "refuses the call (InvalidArgument, 0x12), and the method "
               "fails,");
  os << " for value " << calls.value << "'s dim order (";
  if (std::optional<TensorModel> tensor = calls.method->getTensor(calls.value))
    llvm::interleaveComma(tensor->getDimOrder(), os,
                          [&](uint8_t dim) { os << unsigned(dim); });
  os << "; " << calls.calls << (calls.calls == 1 ? " call" : " calls")
     << " in method '" << calls.method->getName() << "'): " << defect.source
     << "; to avoid it, " << defect.avoid;
  return text;
}
