//===- RuntimeModelTest.cpp - The runtime's types on each target ----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What any C++ layout of the runtime's types must satisfy, checked on the
// generated table (scripts/local-checks/runtime/runtime-layout.sh checks its
// figures against the compilers).
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/RuntimeModel.h"

#include "llvm/Support/MathExtras.h"
#include "gtest/gtest.h"

using namespace emit::memory;

TEST(RuntimeModel, TargetsAre64BitThen32Bit) {
  ASSERT_EQ(getRuntimeTargets().size(), 2u);
  EXPECT_EQ(getRuntimeTargets()[0].name, "64");
  EXPECT_EQ(getRuntimeTargets()[1].name, "32");
  EXPECT_EQ(getRuntimeRevision().size(), 40u);
}

TEST(RuntimeModel, LayoutsAreCppLayouts) {
  for (const RuntimeTarget &target : getRuntimeTargets())
    for (unsigned type = 0; type < kNumRuntimeTypes; ++type) {
      uint32_t size = target.sizes[type], align = target.alignments[type];
      EXPECT_TRUE(llvm::isPowerOf2_32(align))
          << target.name.str() << " " << type;
      EXPECT_LE(align, 64u) << "a 64-byte-aligned pool aligns every type";
      EXPECT_EQ(size % align, 0u) << target.name.str() << " " << type;
    }
}

TEST(RuntimeModel, PointersAreThePointerWidth) {
  const RuntimeTarget &host = getRuntimeTargets()[0];
  const RuntimeTarget &arm = getRuntimeTargets()[1];
  for (RuntimeType pointer : {RuntimeType::EValuePointer,
                              RuntimeType::OpFunction, RuntimeType::Tensor}) {
    EXPECT_EQ(host.sizeOf(pointer), 8u);
    EXPECT_EQ(arm.sizeOf(pointer), 4u);
  }
  // AAPCS aligns 8-byte integers to 8, like LP64.
  EXPECT_EQ(arm.alignOf(RuntimeType::Int64), 8u);
}
