//===- ReleaseTableTest.cpp - Each release's verdict, from the table
//-------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Rows of the release table on programs built with the flatbuffer API,
// apart from the table's finders: a delegate entry without compile specs
// (the releases before 1.3 crash), constants read from constant_buffer
// (1.3 on refuse the path; 0.2 to 1.1 refuse an entry larger than its
// tensor), read from the program model's constant stores.
//
//===----------------------------------------------------------------------===//

#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/File/program_generated.h"
#include "emit/Releases/Releases.h"

#include "gtest/gtest.h"

using namespace emit;
namespace fb = executorch_flatbuffer;

namespace {

/// What a test program holds.
struct Shape {
  /// A delegate entry: with a compile_specs table (empty) or without one.
  bool compileSpecs = true;
  /// The constant float[2] tensor's data index, and its constant_buffer
  /// entry's bytes (the reserved entry 0 is empty).
  uint32_t dataIndex = 1;
  size_t storedBytes = 8;
};

/// A program of one method, `f`, of one constant tensor and one delegate
/// entry, keeping its constants in constant_buffer.
std::string buildProgram(const Shape &shape) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<int32_t> sizes = {2}, none;
  std::vector<uint8_t> dimOrder = {0};
  std::vector<flatbuffers::Offset<fb::EValue>> values = {fb::CreateEValue(
      fbb, fb::KernelTypes::Tensor,
      fb::CreateTensorDirect(fbb, fb::ScalarType::FLOAT, 0, &sizes, &dimOrder,
                             false, shape.dataIndex)
          .Union())};
  std::vector<flatbuffers::Offset<fb::CompileSpec>> specs;
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates = {
      fb::CreateBackendDelegateDirect(
          fbb, "Backend", fb::CreateBackendDelegateDataReference(fbb),
          shape.compileSpecs ? &specs : nullptr)};
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {
      fb::CreateChainDirect(fbb, &none, &none, &instructions)};
  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  std::vector<int64_t> buffers = {0};
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {
      fb::CreateExecutionPlanDirect(fbb, "f", 0, &values, &none, &none, &chains,
                                    &operators, &delegates, &buffers)};
  std::vector<uint8_t> stored(shape.storedBytes, 0);
  std::vector<flatbuffers::Offset<fb::Buffer>> constants = {
      fb::CreateBufferDirect(fbb), fb::CreateBufferDirect(fbb, &stored)};
  std::vector<uint8_t> payload = {1};
  std::vector<flatbuffers::Offset<fb::BackendDelegateInlineData>> inlined = {
      fb::CreateBackendDelegateInlineDataDirect(fbb, &payload)};
  fbb.Finish(fb::CreateProgramDirect(fbb, 0, &plans, &constants, &inlined),
             fb::ProgramIdentifier());
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

/// Per release, its verdict and the features behind it:
/// "0.1 crashes: delegate-without-compile-specs".
std::map<std::string, std::string> judge(const Shape &shape) {
  std::string bytes = buildProgram(shape);
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  EXPECT_TRUE(file->getProgram());
  ProgramModel model(*file);
  ReleaseReport report = judgeReleases(model, DataFileCounts(), FileDefects());
  std::map<std::string, std::string> verdicts;
  for (const ReleaseJudgement &judgement : report.releases) {
    std::string line = getReleaseVerdictName(judgement.verdict).str();
    for (const ReleaseReason &reason : judgement.reasons)
      line += " " + reason.feature;
    verdicts[judgement.release.str()] = line;
  }
  return verdicts;
}

TEST(ReleaseTableTest, AnEntryWithoutCompileSpecsCrashesBefore1_3) {
  std::map<std::string, std::string> without = judge({false});
  EXPECT_EQ(without["0.1"], "crashes delegate-without-compile-specs");
  EXPECT_EQ(without["1.2"], "crashes delegate-without-compile-specs");
  EXPECT_EQ(without["1.3"], "rejects constant-buffer");
  // An empty table is not a missing one.
  std::map<std::string, std::string> with = judge({true});
  EXPECT_EQ(with["0.1"], "loads");
  EXPECT_EQ(with["1.2"], "loads");
  EXPECT_EQ(with["1.3"], "rejects constant-buffer");
  EXPECT_EQ(with["main"], "rejects constant-buffer");
}

TEST(ReleaseTableTest, AConstantBufferEntryLargerThanItsTensor) {
  std::map<std::string, std::string> padded = judge({true, 1, 16});
  EXPECT_EQ(padded["0.1"], "loads");
  EXPECT_EQ(padded["0.2"], "rejects constant-buffer-padded");
  EXPECT_EQ(padded["1.1"], "rejects constant-buffer-padded");
  EXPECT_EQ(padded["1.2"], "loads");
}

TEST(ReleaseTableTest, AnIndexPastConstantBufferIsNoPaddedEntry) {
  // The finder reads no entry past the table (the file layer's own check
  // refuses the index, a defect the table is given apart).
  std::map<std::string, std::string> past = judge({true, 5, 16});
  EXPECT_EQ(past["0.2"], "loads");
  EXPECT_EQ(past["1.3"], "rejects constant-buffer");
}

} // namespace
