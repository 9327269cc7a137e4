//===- KernelsTest.cpp - Kernel keys, registries and the libraries --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The kernel key of calls over tensors of several types and dim orders, in
// programs built with the flatbuffer API; which kernels a registry resolves
// (fallbacks, keys, 0.1's binary keys, selections as torchgen narrows a
// library); and the libraries' table against figures taken apart from it
// (each release's prim op count, as pte-check's runtimes report it).
//
//===----------------------------------------------------------------------===//

#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/File/program_generated.h"
#include "emit/Kernels/KernelCalls.h"
#include "emit/Kernels/KernelLibraries.h"
#include "emit/Kernels/KernelRegistry.h"
#include "emit/Releases/Releases.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace emit;
using namespace emit::kernels;
namespace fb = executorch_flatbuffer;

namespace {

struct TensorShape {
  fb::ScalarType type;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dimOrder;
};

struct TestCall {
  int32_t op;
  std::vector<int32_t> args;
};

/// One method, `f`: `tensors` as values 0.., then an Int; `calls` of
/// `ops` (name, overload).
std::string
buildProgram(const std::vector<TensorShape> &tensors,
             const std::vector<std::pair<const char *, const char *>> &ops,
             const std::vector<TestCall> &calls) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::EValue>> values;
  for (const TensorShape &tensor : tensors)
    values.push_back(
        fb::CreateEValue(fbb, fb::KernelTypes::Tensor,
                         fb::CreateTensorDirect(fbb, tensor.type, 0,
                                                &tensor.sizes, &tensor.dimOrder)
                             .Union()));
  values.push_back(fb::CreateEValue(fbb, fb::KernelTypes::Int,
                                    fb::CreateInt(fbb, 1).Union()));
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
  for (const TestCall &call : calls)
    instructions.push_back(fb::CreateInstruction(
        fbb, fb::InstructionArguments::KernelCall,
        fb::CreateKernelCallDirect(fbb, call.op, &call.args).Union()));
  std::vector<int32_t> none;
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {
      fb::CreateChainDirect(fbb, &none, &none, &instructions)};
  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  for (auto [name, overload] : ops)
    operators.push_back(fb::CreateOperatorDirect(fbb, name, overload));
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
  std::vector<int64_t> buffers = {0};
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {
      fb::CreateExecutionPlanDirect(fbb, "f", 0, &values, &none, &none, &chains,
                                    &operators, &delegates, &buffers)};
  fbb.Finish(fb::CreateProgramDirect(fbb, 0, &plans), fb::ProgramIdentifier());
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

const TensorShape kFloat2 = {fb::ScalarType::FLOAT, {2}, {0}};
const TensorShape kIntNHWC = {fb::ScalarType::INT, {1, 2, 3, 4}, {0, 2, 3, 1}};
const TensorShape kLongScalar = {fb::ScalarType::LONG, {}, {}};

unsigned getMain() { return getReleaseNames().size() - 1; }

OperatorSelection parseSelection(StringRef text) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(text, "selection.yaml");
  std::string error;
  FailureOr<OperatorSelection> selection =
      parseOperatorSelection(*buffer, error);
  EXPECT_TRUE(succeeded(selection)) << error;
  return succeeded(selection) ? *selection : OperatorSelection();
}

} // namespace

TEST(KernelsTest, KeyOfEachTensorArgumentInOrder) {
  std::string bytes =
      buildProgram({kFloat2, kIntNHWC, kLongScalar}, {{"aten::add", "out"}},
                   // The Int (value 3) and an index past the values are no
                   // tensors: the runtime's key skips what is not one.
                   {{0, {1, 3, 0, 2}}, {0, {3}}});
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ProgramModel model(*file);
  const MethodModel &method = model.getMethods().front();
  ArrayRef<InstructionModel> calls = method.getInstructions();
  EXPECT_EQ(getKernelKey(method, calls[0]), "v1/3;0,2,3,1|6;0|4;");
  EXPECT_EQ(getKernelKey(method, calls[1]), "");
}

TEST(KernelsTest, GroupsCallsByOperatorAndKeyLeavingPrimOps) {
  std::string bytes = buildProgram(
      {kFloat2, kIntNHWC},
      {{"aten::add", "out"}, {"executorch_prim::et_view", "default"}},
      {{0, {0, 0}}, {1, {0, 0}}, {0, {1, 1}}, {0, {0, 0}}});
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ProgramModel model(*file);
  std::vector<KernelCallGroup> groups = groupKernelCalls(model);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].name, "aten::add.out");
  EXPECT_EQ(groups[0].key, "v1/6;0|6;0");
  EXPECT_EQ(groups[0].calls, 2u);
  EXPECT_EQ(groups[0].firstCall->index, 0u);
  EXPECT_EQ(groups[1].key, "v1/3;0,2,3,1|3;0,2,3,1");
  EXPECT_EQ(groups[1].calls, 1u);
  EXPECT_EQ(groups[1].firstCall->index, 2u);
}

TEST(KernelsTest, RegistryResolvesFallbacksAndExactKeys) {
  KernelSpec spec;
  spec.listed = {{"custom::keyed.out", "v1/6;0"}, {"custom::any.out", ""}};
  KernelRegistry registry(spec, getMain());
  EXPECT_TRUE(registry.resolves("custom::keyed.out", "v1/6;0"));
  EXPECT_FALSE(registry.resolves("custom::keyed.out", "v1/6;0,1"));
  EXPECT_FALSE(registry.resolves("custom::keyed.out", ""));
  EXPECT_TRUE(registry.resolves("custom::any.out", "v1/3;0,2,3,1"));
  EXPECT_TRUE(registry.resolves("custom::any.out", ""));
  EXPECT_FALSE(registry.resolves("aten::add.out", "v1/6;0"));
  // The runtime's prim ops are every build's.
  EXPECT_TRUE(registry.resolves("aten::sym_size.int", ""));
  // 0.1 keys kernels in bytes: no text key matches there.
  KernelRegistry old(spec, 0);
  EXPECT_FALSE(old.resolves("custom::keyed.out", "v1/6;0"));
  EXPECT_TRUE(old.resolves("custom::any.out", "v1/6;0"));
}

TEST(KernelsTest, SelectionNarrowsAsTorchgen) {
  OperatorSelection selection = parseSelection(R"(
operators:
  aten::add:
    include_all_overloads: True
    is_root_operator: yes
  aten::mul.out: {is_root_operator: true}
  aten::sub.out: {is_root_operator: false}
  'aten::div.out': {}
et_kernel_metadata:
  aten::add.out: ["v1/6;0"]
  aten::add.Scalar_out: [default]
  aten::sub.out: [default]
  aten::div.out: []
)");
  EXPECT_TRUE(selection.selectsFallback("aten::add.out"));
  EXPECT_TRUE(selection.selectsFallback("aten::add.Scalar_out"));
  // Root, but no kernel metadata: torchgen registers no kernel.
  EXPECT_FALSE(selection.selectsFallback("aten::mul.out"));
  EXPECT_FALSE(selection.selectsFallback("aten::sub.out"));
  // Metadata with no key selects no kernel either.
  EXPECT_FALSE(selection.selectsFallback("aten::div.out"));
  EXPECT_FALSE(selection.selectsFallback("aten::exp.out"));
  EXPECT_TRUE(parseSelection("include_all_operators: true\n")
                  .selectsFallback("aten::exp.out"));

  KernelSpec spec;
  spec.libraries = {"portable"};
  spec.selection = selection;
  KernelRegistry registry(spec, getMain());
  EXPECT_TRUE(registry.resolves("aten::add.out", "v1/3;0"));
  EXPECT_FALSE(registry.resolves("aten::mul.out", "v1/6;0"));
}

TEST(KernelsTest, LibrariesTableAgainstReleaseFigures) {
  // The prim ops each release's runtime registers, as pte-check's builds of
  // 0.1 to main print them.
  const unsigned primOps[] = {14, 16, 17, 20, 23, 23, 23,
                              25, 25, 25, 25, 28, 28};
  ASSERT_EQ(std::size(primOps), getReleaseNames().size());
  for (auto [release, expected] : llvm::enumerate(primOps)) {
    unsigned count = 0;
    forEachOperator(kPrimLibrary, release,
                    [&](const LibraryOperator &) { ++count; });
    EXPECT_EQ(count, expected) << getReleaseNames()[release].str();
  }
  EXPECT_EQ(getFirstPrimRelease("executorch_prim::et_view.default"), 1u);
  EXPECT_EQ(getFirstPrimRelease("aten::add.out"), std::nullopt);
  for (unsigned release = 0; release <= getMain(); ++release)
    EXPECT_TRUE(registers("portable", "aten::add.out", release));
  // The optimized library has the fft (#21950's operator) from 0.6; the
  // portable one never.
  EXPECT_FALSE(registers("optimized", "aten::_fft_r2c.out", 4));
  EXPECT_TRUE(registers("optimized", "aten::_fft_r2c.out", 5));
  EXPECT_FALSE(registers("portable", "aten::_fft_r2c.out", getMain()));
  EXPECT_FALSE(registers("portable", "aten::bucketize.Tensor_out", getMain()));
}
