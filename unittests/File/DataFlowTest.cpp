//===- DataFlowTest.cpp - What each instruction reads and writes ----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one rule for a kernel call's reads and writes, on calls laid out as
// ExecuTorch's emitter lays them out: the arguments, an out variant's out
// arguments, then what the call returns.
//
//===----------------------------------------------------------------------===//

#include "emit/File/DataFlow.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"

#include "Common/TestPrograms.h"

#include "gtest/gtest.h"

using namespace emit;

namespace {

using test::buildProgram;
using test::Call;

using Values = std::vector<uint32_t>;

/// Per call of `calls`, what the data flow says it reads and writes.
std::vector<std::pair<Values, Values>>
readsAndWrites(const std::vector<const char *> &ops,
               const std::vector<Call> &calls) {
  std::string bytes = buildProgram(ops, calls);
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  EXPECT_TRUE(file->getProgram());
  ProgramModel model(*file);
  MethodDataFlow flow = computeDataFlow(model.getMethods().front());
  std::vector<std::pair<Values, Values>> result;
  for (uint32_t slot = 0; slot < calls.size(); ++slot)
    result.push_back(
        {Values(flow.getReads(slot).begin(), flow.getReads(slot).end()),
         Values(flow.getWrites(slot).begin(), flow.getWrites(slot).end())});
  return result;
}

TEST(DataFlowTest, AnOutVariantWritesItsOutArgumentsOnly) {
  // add.out(a, b, alpha, out=c) -> c: the out argument is passed again.
  auto flow = readsAndWrites({"aten::add"}, {{0, {0, 1, 3, 2, 2}}});
  EXPECT_EQ(flow[0].first, (Values{0, 1, 3}));
  EXPECT_EQ(flow[0].second, (Values{2}));
}

TEST(DataFlowTest, AnOutArgumentThatIsAnInputIsRead) {
  // add.out(a, a, alpha, out=a) -> a reads a twice and writes it.
  auto flow = readsAndWrites({"aten::add"}, {{0, {0, 0, 3, 0, 0}}});
  EXPECT_EQ(flow[0].first, (Values{0, 0, 3}));
  EXPECT_EQ(flow[0].second, (Values{0}));
}

TEST(DataFlowTest, AnInPlaceCallReadsItsSelf) {
  // relu_(self) -> self, and add_(self, other, alpha) -> self.
  auto flow = readsAndWrites({"aten::relu_", "aten::add_"},
                             {{0, {2, 2}}, {1, {2, 1, 3, 2}}});
  EXPECT_EQ(flow[0].first, (Values{2}));
  EXPECT_EQ(flow[0].second, (Values{2}));
  EXPECT_EQ(flow[1].first, (Values{2, 1, 3}));
  EXPECT_EQ(flow[1].second, (Values{2}));
}

TEST(DataFlowTest, AFunctionalCallOfTheSameLayoutDoesNotReadItsResult) {
  // relu.out(self=c, out=c) -> c: not in place by name, so the trailing
  // c is the out argument, written only.
  auto flow = readsAndWrites({"aten::relu"}, {{0, {2, 2}}});
  EXPECT_EQ(flow[0].first, Values{});
  EXPECT_EQ(flow[0].second, (Values{2}));
}

} // namespace
