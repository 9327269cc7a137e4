//===- DedupResultTest.cpp - The typed dedup result -----------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/Transforms/DedupResult.h"
#include "emit/Dialect/ET/IR/ETDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace emit;
using namespace emit::et;

namespace {

TEST(DedupResultTest, OfKeepsModuleOrderAndReusesEntries) {
  MLIRContext context;
  context.loadDialect<ETDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      "et.program @a {}\n et.data_file @d {}\n et.program @b {}\n", &context);
  ASSERT_TRUE(module);
  SmallVector<Operation *> ops;
  for (Operation &op : *module->getBody())
    ops.push_back(&op);
  dedup::Result result;
  result.of(ops[0]).groups.emplace_back();
  result.of(ops[1]);
  result.of(ops[2]);
  result.of(ops[0]).groups.emplace_back();
  ASSERT_EQ(result.programs.size(), 2u);
  ASSERT_EQ(result.dataFiles.size(), 1u);
  EXPECT_EQ(result.programs[0].name, "a");
  EXPECT_EQ(result.programs[0].groups.size(), 2u);
  EXPECT_EQ(result.programs[1].name, "b");
  EXPECT_FALSE(result.dataFiles[0].isProgram);
  EXPECT_EQ(result.dataFiles[0].name, "d");
}

TEST(DedupResultTest, TotalSumsEveryKind) {
  dedup::ContainerResult container;
  container.bytesOf(DataKind::Delegate) = {100, 40};
  container.bytesOf(DataKind::Constant) = {32, 16};
  dedup::KindBytes total = container.total();
  EXPECT_EQ(total.before, 132u);
  EXPECT_EQ(total.after, 56u);
}

TEST(DedupResultTest, ReportWritesTheDocumentedFields) {
  dedup::Result result;
  dedup::ContainerResult &program = result.programs.emplace_back();
  program.name = "llm";
  program.bytesOf(DataKind::Delegate) = {8, 4};
  dedup::BlobGroup &group = program.groups.emplace_back();
  group.blob = "payload_0";
  group.kind = DataKind::Delegate;
  group.size = 4;
  group.alignment = 64;
  group.merged = {"payload_1"};
  group.users = {{"prefill", 0, 1, "QnnBackend", 0xabc}};
  program.keptApart.push_back({{"payload_2"}, 4, "equal bytes kept apart: x"});

  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os);
  dedup::writeReport(result, json);
  EXPECT_EQ(text,
            R"({"schema":"emit-dedup-report-2","programs":[{"program":"llm",)"
            R"("dry_run":false,"bytes_before":8,"bytes_after":4,"kinds":{)"
            R"("delegate":{"bytes_before":8,"bytes_after":4,"bytes_saved":4}},)"
            R"("groups":[{"blob":"payload_0","kind":"delegate","size":4,)"
            R"("alignment":64,"merged":["payload_1"],"users":[{"method":)"
            R"("prefill","delegate":0,"calls":1,"backend":"QnnBackend",)"
            R"("compile_specs_digest":"0000000000000abc"}],"keys":[]}],)"
            R"("segments":[],"near_misses":[{"blobs":["payload_2"],"size":4,)"
            R"("reason":"equal bytes kept apart: x"}]}],"data_files":[]})");
}

} // namespace
