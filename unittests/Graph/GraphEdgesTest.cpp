//===- GraphEdgesTest.cpp - The edges a method's values make --------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An edge runs from the node that last wrote a value to each node that
// reads it: a method input's node, a kernel call, an in-place call (which
// reads what it writes), a method output's node. The programs are built
// with the flatbuffer API, apart from the graph's builder.
//
//===----------------------------------------------------------------------===//

#include "emit/File/ProgramFile.h"
#include "emit/Graph/GraphReport.h"

#include "Common/TestPrograms.h"

#include "gtest/gtest.h"

#include <tuple>

using namespace emit;
using namespace emit::graph;
using test::buildProgram;

namespace {

/// An edge as node ids and the value it carries.
using NamedEdge = std::tuple<std::string, std::string, uint32_t>;

/// The edges of the graph of the program in `bytes`, by node id.
std::vector<NamedEdge> edgesOf(const std::string &bytes) {
  auto file = ProgramFile::open(FileBuffer::view(bytes, "<bytes>"));
  EXPECT_TRUE(file->getProgram());
  std::string error;
  FailureOr<GraphReport> report = analyzeGraph(*file, GraphOptions(), error);
  EXPECT_TRUE(succeeded(report)) << error;
  const MethodGraph &method = report->methods.front();
  std::vector<NamedEdge> edges;
  for (const Edge &edge : method.edges)
    edges.emplace_back(method.nodes[edge.from].getId(),
                       method.nodes[edge.to].getId(), edge.value);
  llvm::sort(edges);
  return edges;
}

TEST(GraphEdgesTest, AValueRunsFromItsLastWriterToEachReader) {
  // add.out(0, 1, alpha, out=2) -> 2; relu.out(2, out=3) -> 3;
  // relu_(3) -> 3 in place; the method returns 3.
  std::string bytes =
      buildProgram({"aten::add", "aten::relu", "aten::relu_"},
                   {{0, {0, 1, 4, 2, 2}}, {1, {2, 3, 3}}, {2, {3, 3}}},
                   {/*tensors=*/4, /*inputs=*/{0, 1}, /*outputs=*/{3}});
  EXPECT_EQ(edgesOf(bytes), (std::vector<NamedEdge>{
                                {"i0", "i1", 2},
                                {"i1", "i2", 3},
                                {"i2", "output0", 3},
                                {"input0", "i0", 0},
                                {"input1", "i0", 1},
                            }));
}

TEST(GraphEdgesTest, AnOutArgumentIsNotAnEdgeIntoItsCall) {
  // Two calls write 2 in turn: the second reads only 0, so nothing runs
  // from the first to it, and the output is the second's.
  std::string bytes =
      buildProgram({"aten::relu"}, {{0, {0, 2, 2}}, {0, {0, 2, 2}}},
                   {/*tensors=*/3, /*inputs=*/{0}, /*outputs=*/{2}});
  EXPECT_EQ(edgesOf(bytes), (std::vector<NamedEdge>{
                                {"i1", "output0", 2},
                                {"input0", "i0", 0},
                                {"input0", "i1", 0},
                            }));
}

} // namespace
