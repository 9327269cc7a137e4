//===- BlocksTest.cpp - Which method ran a block --------------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Blocks.h"

#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/File/program_generated.h"
#include "emit/Support/FileFormat.h"

#include "gtest/gtest.h"

using namespace emit;
using namespace emit::profile;
namespace fb = executorch_flatbuffer;

namespace {

/// A program whose methods (name, operator) each make one kernel call of
/// their operator.
std::string
buildProgram(ArrayRef<std::pair<const char *, const char *>> methods) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans;
  for (auto [name, op] : methods) {
    std::vector<flatbuffers::Offset<fb::EValue>> values = {
        fb::CreateEValue(fbb, fb::KernelTypes::Int,
                         fb::CreateInt(fbb, 1).Union()),
        fb::CreateEValue(fbb, fb::KernelTypes::Int,
                         fb::CreateInt(fbb, 2).Union())};
    std::vector<int32_t> args = {0, 1}, none;
    std::vector<flatbuffers::Offset<fb::Instruction>> instructions = {
        fb::CreateInstruction(
            fbb, fb::InstructionArguments::KernelCall,
            fb::CreateKernelCallDirect(fbb, 0, &args).Union())};
    std::vector<flatbuffers::Offset<fb::Chain>> chains = {
        fb::CreateChainDirect(fbb, &none, &none, &instructions)};
    std::vector<flatbuffers::Offset<fb::Operator>> operators = {
        fb::CreateOperatorDirect(fbb, op, "out")};
    std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
    std::vector<int64_t> buffers = {0};
    plans.push_back(fb::CreateExecutionPlanDirect(fbb, name, 0, &values, &none,
                                                  &none, &chains, &operators,
                                                  &delegates, &buffers));
  }
  fbb.Finish(fb::CreateProgramDirect(fbb, 0, &plans), fb::ProgramIdentifier());
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

ProfileEvent event(StringRef name, int64_t chain = -1,
                   int64_t instruction = 0) {
  return {name, chain, instruction, 0, 10, false, -1};
}

Block load(unsigned index) {
  return {index,
          "Default",
          BlockRole::Load,
          {event(etdp::kInitEvent), event(etdp::kLoadMethodEvent)},
          {}};
}

/// A run of a kernel call of `kernel` (`add.out`).
Block run(unsigned index, StringRef kernel) {
  static std::vector<std::string> names;
  names.push_back((etdp::kKernelEventPrefix + kernel).str());
  return {index,
          "Execute",
          BlockRole::Execute,
          {event(names.back(), 0, 0), event(etdp::kOperatorCallEvent, 0, 0),
           event(etdp::kExecuteEvent)},
          {}};
}

class BlocksTest : public ::testing::Test {
protected:
  void SetUp() override {
    bytes = buildProgram(
        {{"a", "aten::add"}, {"b", "aten::add"}, {"c", "aten::mul"}});
    file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
    ASSERT_TRUE(file->isReadable());
    model.emplace(*file);
  }

  std::string bytes;
  std::unique_ptr<ProgramFile> file;
  std::optional<ProgramModel> model;
};

TEST_F(BlocksTest, ARunGoesToTheOneMethodItsEventsFit) {
  std::vector<Block> blocks = {load(0), run(1, "mul.out")};
  std::vector<BlockAssignment> assigned =
      assignBlocks(blocks, model->getMethods());
  EXPECT_EQ(assigned[1].candidates, (SmallVector<unsigned, 1>{2}));
  EXPECT_EQ(assigned[0].candidates, (SmallVector<unsigned, 1>{2}));
}

TEST_F(BlocksTest, MethodsAlikeAreAllCandidates) {
  std::vector<Block> blocks = {load(0), run(1, "add.out")};
  std::vector<BlockAssignment> assigned =
      assignBlocks(blocks, model->getMethods());
  EXPECT_EQ(assigned[1].candidates, (SmallVector<unsigned, 1>{0, 1}));
  EXPECT_EQ(assigned[0].candidates, (SmallVector<unsigned, 1>{0, 1}));
}

TEST_F(BlocksTest, NoMethodFitsAnotherKernel) {
  std::vector<Block> blocks = {run(0, "sub.out")};
  std::vector<BlockAssignment> assigned =
      assignBlocks(blocks, model->getMethods());
  EXPECT_TRUE(assigned[0].candidates.empty());
  EXPECT_NE(assigned[0].how.find("calls add.out, not sub.out"),
            std::string::npos);
}

TEST_F(BlocksTest, TheOrderGivenTellsMethodsAlikeApart) {
  // Each loaded, then run, in the order b, a.
  std::vector<Block> blocks = {load(0), run(1, "add.out"), run(2, "add.out"),
                               load(3), run(4, "add.out")};
  std::vector<BlockAssignment> assigned =
      assignBlocks(blocks, model->getMethods());
  std::vector<unsigned> order = {1, 0};
  assignInOrder(blocks, model->getMethods(), order, assigned);
  for (unsigned block : {0, 1, 2})
    EXPECT_EQ(assigned[block].candidates, (SmallVector<unsigned, 1>{1}));
  for (unsigned block : {3, 4})
    EXPECT_EQ(assigned[block].candidates, (SmallVector<unsigned, 1>{0}));
  EXPECT_NE(assigned[4].how.find("--in-order"), std::string::npos);
}

TEST_F(BlocksTest, AnOrderTheEventsContradictIsNotFollowed) {
  // c runs mul.out: the order's a does not explain it.
  std::vector<Block> blocks = {load(0), run(1, "mul.out")};
  std::vector<BlockAssignment> assigned =
      assignBlocks(blocks, model->getMethods());
  std::vector<unsigned> order = {0};
  assignInOrder(blocks, model->getMethods(), order, assigned);
  EXPECT_EQ(assigned[1].candidates, (SmallVector<unsigned, 1>{2}));
  EXPECT_NE(assigned[1].how.find("not method 1 of 1 ('a')"), std::string::npos);
}

TEST_F(BlocksTest, LoadsTogetherThenOneRunEachFollowTheOrder) {
  std::vector<Block> blocks = {load(0), load(1), run(2, "add.out"),
                               run(3, "add.out")};
  std::vector<BlockAssignment> assigned =
      assignBlocks(blocks, model->getMethods());
  std::vector<unsigned> order = {1, 0};
  assignInOrder(blocks, model->getMethods(), order, assigned);
  EXPECT_EQ(assigned[0].candidates, (SmallVector<unsigned, 1>{1}));
  EXPECT_EQ(assigned[1].candidates, (SmallVector<unsigned, 1>{0}));
  EXPECT_EQ(assigned[2].candidates, (SmallVector<unsigned, 1>{1}));
  EXPECT_EQ(assigned[3].candidates, (SmallVector<unsigned, 1>{0}));
}

} // namespace
