//===- probe.cpp - The runtime's allocation sizes, as its compiler sees them
//===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Compiled against ExecuTorch's runtime sources (method.cpp included whole,
// for the types it keeps to itself) by runtime-layout.sh, once per target.
// Prints one line per type the method allocator allocates while a method
// loads: `Name size alignment`, the names of
// include/emit/Memory/RuntimeLayouts.def.
//
//===----------------------------------------------------------------------===//

#include <executorch/runtime/executor/method.cpp>

#include <cstdio>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

template <typename T>
static void print(const char *name) {
  std::printf("%s %zu %zu\n", name, sizeof(T), alignof(T));
}

static void printLayouts() {
  using aten::ArrayRef;
  using aten::Tensor;
  print<EValue>("EValue");
  print<EValue *>("EValuePointer");
  print<bool>("Bool");
  print<NamedData>("NamedData");
  print<int64_t>("Int64");
  print<BoxedEvalueList<int64_t>>("BoxedIntList");
  print<ArrayRef<bool>>("BoolArrayRef");
  print<ArrayRef<double>>("DoubleArrayRef");
  print<ArrayRef<char>>("CharArrayRef");
  print<aten::SizesType>("SizesType");
  print<aten::DimOrderType>("DimOrderType");
  print<aten::StridesType>("StridesType");
  print<aten::TensorImpl>("TensorImpl");
  print<Tensor>("Tensor");
  print<BoxedEvalueList<Tensor>>("BoxedTensorList");
  print<std::optional<Tensor>>("OptionalTensor");
  print<BoxedEvalueList<std::optional<Tensor>>>("BoxedOptionalTensorList");
  print<BackendDelegate>("BackendDelegate");
  print<internal::MergedDataMap>("MergedDataMap");
  print<CompileSpec>("CompileSpec");
  print<Chain>("Chain");
  print<OpFunction>("OpFunction");
  print<InstructionArgs>("InstructionArgs");
  print<PlatformMemoryAllocator>("PlatformMemoryAllocator");
}

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

int main() {
  executorch::ET_RUNTIME_NAMESPACE::printLayouts();
  return 0;
}
