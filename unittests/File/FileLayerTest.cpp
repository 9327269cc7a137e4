//===- FileLayerTest.cpp - Open a file, read what is wrong with it --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/CheckedFile.h"
#include "emit/File/DataFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/program_generated.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

#include <cstring>
#include <string>

using namespace emit;
namespace fb = executorch_flatbuffer;

namespace {

/// A program with one method, `f`, of one value, whose inputs are
/// `inputs`, and no header.
std::string buildProgram(std::vector<int32_t> inputs = {}) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::EValue>> values = {fb::CreateEValue(
      fbb, fb::KernelTypes::Int, fb::CreateInt(fbb, 1).Union())};
  std::vector<int32_t> none;
  std::vector<flatbuffers::Offset<fb::Instruction>> noInstructions;
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {
      fb::CreateChainDirect(fbb, &none, &none, &noInstructions)};
  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
  std::vector<int64_t> buffers = {0};
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {
      fb::CreateExecutionPlanDirect(fbb, "f", 0, &values, &inputs, &none,
                                    &chains, &operators, &delegates, &buffers)};
  fbb.Finish(fb::CreateProgramDirect(fbb, 0, &plans), fb::ProgramIdentifier());
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

/// `program` with a 32-byte extended header of `length` inserted after
/// byte 8, and no segment data.
std::string withHeader(const std::string &program, uint32_t length) {
  uint32_t root;
  std::memcpy(&root, program.data(), 4);
  root += 32;
  std::string file(reinterpret_cast<const char *>(&root), 4);
  file += program.substr(4, 4);
  uint64_t fields[3] = {program.size() + 32, 0, 0};
  file += "eh00";
  file.append(reinterpret_cast<const char *>(&length), 4);
  file.append(reinterpret_cast<const char *>(fields), sizeof(fields));
  return file + program.substr(8);
}

std::vector<Check> checksOf(const CheckedFile &file) {
  std::vector<Check> checks;
  for (const Finding &finding : file.getFindings().findings)
    checks.push_back(finding.check->id);
  return checks;
}

TEST(FileLayerTest, TheCatalogueIsIndexedByCheck) {
  llvm::StringSet<> names;
  for (const FileCheck &check : getFileChecks()) {
    EXPECT_EQ(&getFileCheck(check.id), &check);
    EXPECT_TRUE(names.insert(check.name).second) << check.name;
  }
  EXPECT_STREQ(getFileCheck(Check::SegmentRange).name, "segment-range");
}

TEST(FileLayerTest, ASoundProgramHasNoFinding) {
  std::string bytes = buildProgram();
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  EXPECT_TRUE(file->getFindings().findings.empty());
  EXPECT_TRUE(file->isReadable());
  EXPECT_FALSE(file->getHeader());
  ASSERT_TRUE(file->getProgram());
  EXPECT_EQ(file->getProgram()->execution_plan()->size(), 1u);
  EXPECT_EQ(file->getFlatbufferSize(), bytes.size());
  EXPECT_EQ(file->getSegmentCount(), 0u);
  EXPECT_EQ(file->getImportError(), nullptr);
}

TEST(FileLayerTest, AHeaderIsReadAsTheRuntimeReadsIt) {
  std::string bytes = withHeader(buildProgram(), 32);
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  EXPECT_TRUE(file->getFindings().findings.empty());
  ASSERT_TRUE(file->getHeader());
  EXPECT_EQ(file->getHeader()->length, 32u);
  EXPECT_EQ(file->getProgramSize(), bytes.size());

  // A length the runtime ignores: a warning, the file still reads, and the
  // import refuses it (it cannot hold it exactly).
  bytes = withHeader(buildProgram(), 4096);
  file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ASSERT_EQ(checksOf(*file), std::vector<Check>{Check::HeaderLength});
  const Finding &finding = file->getFindings().findings.front();
  EXPECT_EQ(finding.severity, Severity::Warning);
  EXPECT_EQ(finding.runtime, RuntimeLoad::Loads);
  EXPECT_EQ(finding.import, ImportEffect::Inexact);
  EXPECT_EQ(finding.offset, 12u);
  EXPECT_TRUE(file->isReadable());
  EXPECT_EQ(file->getImportError(), &finding);

  // A length the runtime refuses stops the read.
  bytes = withHeader(buildProgram(), 16);
  file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  EXPECT_EQ(checksOf(*file), std::vector<Check>{Check::HeaderLength});
  EXPECT_EQ(file->getFindings().findings.front().runtime, RuntimeLoad::Rejects);
  EXPECT_FALSE(file->isReadable());
  EXPECT_FALSE(file->getProgram());
}

TEST(FileLayerTest, AFileOfAnotherKindSaysWhichItIs) {
  std::string bytes = buildProgram();
  bytes.replace(4, 4, "FT01");
  auto program = ProgramFile::open(FileBuffer::view(bytes, "x.pte"));
  ASSERT_EQ(checksOf(*program), std::vector<Check>{Check::FileIdentifier});
  const Finding &finding = program->getFindings().findings.front();
  EXPECT_EQ(finding.file, "x.pte");
  EXPECT_NE(finding.message.find("this is a data file (.ptd)"),
            std::string::npos);
  // openFile follows the identifier when told either kind will do.
  auto either =
      openFile(FileBuffer::view(bytes, "x.pte"), OpenAs::ProgramOrDataFile);
  EXPECT_TRUE(dynamic_cast<DataFile *>(either.get()));
  // (No FH01 header.)
  EXPECT_EQ(checksOf(*either), std::vector<Check>{Check::HeaderLength});
}

TEST(FileLayerTest, EveryTableIsReadPastABadEntry) {
  // Two bad value indices: both are findings, in file order, and the
  // first is the import's error.
  std::string bytes = buildProgram({5, 7});
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  ASSERT_EQ(checksOf(*file),
            (std::vector<Check>{Check::MethodIOIndex, Check::MethodIOIndex}));
  const Finding &first = file->getFindings().findings.front();
  EXPECT_EQ(first.path, "execution_plan[0] 'f'.inputs[0]");
  EXPECT_EQ(first.message, "value index 5 is out of range (1 values)");
  // What the runtime makes of it is the finding's detail, apart.
  EXPECT_NE(first.detail.find("the runtime loads this"), std::string::npos);
  EXPECT_EQ(file->getImportError(), &first);
}

} // namespace
