//===- ProgramModelTest.cpp - What the model reads, once ------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The facts views ask the model instead of the tables: a delegate entry's
// payload and compile specs, where constants are kept, how many named data
// keys the program lists. The program is built with the flatbuffer API,
// apart from the model's reader.
//
//===----------------------------------------------------------------------===//

#include "emit/File/ProgramModel.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/program_generated.h"

#include "gtest/gtest.h"

using namespace emit;
namespace fb = executorch_flatbuffer;

namespace {

/// A program of one method, `f`, with one delegate entry whose payload is
/// `payload` inline, beside constants in every store.
std::string buildProgram(const std::vector<uint8_t> &payload) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<uint8_t> value = {'v', '1'};
  std::vector<flatbuffers::Offset<fb::CompileSpec>> specs = {
      fb::CreateCompileSpecDirect(fbb, "key", &value),
      fb::CreateCompileSpecDirect(fbb, "empty")};
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates = {
      fb::CreateBackendDelegateDirect(fbb, "Backend",
                                      fb::CreateBackendDelegateDataReference(
                                          fbb, fb::DataLocation::INLINE, 0),
                                      &specs)};
  std::vector<flatbuffers::Offset<fb::EValue>> values;
  std::vector<int32_t> none;
  std::vector<flatbuffers::Offset<fb::Instruction>> noInstructions;
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {
      fb::CreateChainDirect(fbb, &none, &none, &noInstructions)};
  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  std::vector<int64_t> buffers = {0};
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {
      fb::CreateExecutionPlanDirect(fbb, "f", 0, &values, &none, &none, &chains,
                                    &operators, &delegates, &buffers)};
  std::vector<uint8_t> eight(8, 1);
  std::vector<flatbuffers::Offset<fb::Buffer>> constantBuffer = {
      fb::CreateBufferDirect(fbb), fb::CreateBufferDirect(fbb, &eight)};
  std::vector<flatbuffers::Offset<fb::BackendDelegateInlineData>> inlined = {
      fb::CreateBackendDelegateInlineDataDirect(fbb, &payload)};
  std::vector<flatbuffers::Offset<fb::DataSegment>> segments = {
      fb::CreateDataSegment(fbb, 0, 16), fb::CreateDataSegment(fbb, 16, 32)};
  std::vector<uint64_t> offsets = {0, 8};
  std::vector<uint64_t> mutableOffsets = {0};
  std::vector<flatbuffers::Offset<fb::SubsegmentOffsets>> mutables = {
      fb::CreateSubsegmentOffsetsDirect(fbb, 5, &mutableOffsets)};
  std::vector<flatbuffers::Offset<fb::NamedData>> named = {
      fb::CreateNamedDataDirect(fbb, "w", 0),
      fb::CreateNamedDataDirect(fbb, "alias", 0)};
  fbb.Finish(fb::CreateProgramDirect(
                 fbb, 0, &plans, &constantBuffer, &inlined, &segments,
                 fb::CreateSubsegmentOffsetsDirect(fbb, 1, &offsets), &mutables,
                 &named),
             fb::ProgramIdentifier());
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

TEST(ProgramModelTest, ADelegateEntryHasItsPayloadAndCompileSpecs) {
  std::string bytes = buildProgram({'p', 'a', 'y'});
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ASSERT_TRUE(file->getProgram());
  ProgramModel model(*file);
  const DelegateModel &entry = model.getMethods().front().getDelegates()[0];
  EXPECT_EQ(entry.backend, "Backend");
  EXPECT_FALSE(entry.inSegment);
  EXPECT_EQ(entry.payloadBytes, 3u);
  EXPECT_EQ(model.getPayload(entry), "pay");
  // The payload is a view of the file's bytes, not a copy.
  EXPECT_EQ(file->getBytes().find("pay"),
            size_t(model.getPayload(entry).data() - file->getBytes().data()));
  ASSERT_TRUE(entry.hasCompileSpecs);
  ASSERT_EQ(entry.compileSpecs.size(), 2u);
  EXPECT_EQ(entry.compileSpecs[0].key, "key");
  EXPECT_EQ(entry.compileSpecs[0].value, "v1");
  EXPECT_EQ(entry.compileSpecs[1].key, "empty");
  EXPECT_EQ(entry.compileSpecs[1].value, "");
}

TEST(ProgramModelTest, AnEntryPastTheInlineDataHasNoPayload) {
  std::string bytes = buildProgram({});
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ProgramModel model(*file);
  DelegateModel entry = model.getMethods().front().getDelegates()[0];
  entry.dataIndex = 7;
  EXPECT_EQ(model.getPayload(entry), "");
  entry.inSegment = true; // segments, but no header to place them
  EXPECT_EQ(model.getPayload(entry), "");
}

TEST(ProgramModelTest, ConstantStoresAreReadOnce) {
  std::string bytes = buildProgram({'p'});
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ProgramModel model(*file);
  const ConstantStoresModel &stores = model.getConstantStores();
  ASSERT_TRUE(stores.constantSegment);
  EXPECT_EQ(stores.constantSegment->segmentIndex, 1u);
  EXPECT_EQ(stores.constantSegment->segmentBytes, 32u);
  EXPECT_EQ(stores.constantSegment->offsets, ArrayRef<uint64_t>({0, 8}));
  EXPECT_TRUE(model.readsConstantSegment());
  ASSERT_TRUE(stores.hasConstantBuffer);
  ASSERT_EQ(stores.constantBuffer.size(), 2u);
  EXPECT_FALSE(stores.constantBuffer[0]); // no storage
  EXPECT_EQ(stores.constantBuffer[1], 8u);
  ASSERT_EQ(stores.mutableSegments.size(), 1u);
  EXPECT_EQ(stores.mutableSegments[0].segmentIndex, 5u);
  EXPECT_FALSE(stores.mutableSegments[0].segmentBytes); // past the table
  EXPECT_EQ(stores.findingOffset,
            file->offsetOf(file->getProgram()->constant_segment()));
  EXPECT_EQ(model.getNamedDataKeyCount(), 2u);
  EXPECT_EQ(model.getFileMethodCount(), 1u);
}

TEST(ProgramModelTest, AModelOfSomeMethodsCountsTheFilesMethods) {
  std::string bytes = buildProgram({'p'});
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ProgramModel model(*file, [](StringRef) { return false; });
  EXPECT_TRUE(model.getMethods().empty());
  EXPECT_EQ(model.getFileMethodCount(), 1u);
}

} // namespace
