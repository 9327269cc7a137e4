//===- KernelSharingTest.cpp - What a kernel's result may share -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/DataFlow.h"

#include "gtest/gtest.h"

using namespace emit;

namespace {

TEST(KernelSharingTest, InPlaceByATenNaming) {
  EXPECT_EQ(getKernelSharing("aten::index_put_"), KernelSharing::InPlace);
  EXPECT_EQ(getKernelSharing("aten::copy_"), KernelSharing::InPlace);
  EXPECT_EQ(getKernelSharing("aten::add_"), KernelSharing::InPlace);
  EXPECT_EQ(getKernelSharing("my_ops::update_"), KernelSharing::InPlace);
  EXPECT_EQ(getKernelSharing("aten::__iand__"), KernelSharing::InPlace);
  EXPECT_EQ(getKernelSharing("aten::__ilshift__"), KernelSharing::InPlace);
  // Functional dunders and out variants are not.
  EXPECT_EQ(getKernelSharing("aten::__and__"), KernelSharing::None);
  EXPECT_EQ(getKernelSharing("aten::__is__"), KernelSharing::None);
  EXPECT_EQ(getKernelSharing("aten::index_put"), KernelSharing::None);
  EXPECT_EQ(getKernelSharing("index_put_"), KernelSharing::None);
}

TEST(KernelSharingTest, View) {
  EXPECT_EQ(getKernelSharing("executorch_prim::et_view"), KernelSharing::View);
  EXPECT_EQ(getKernelSharing("aten::view_copy"), KernelSharing::None);
}

// Every entry of the sorted table is found: a misplaced one would not be.
TEST(KernelSharingTest, ElementwiseTableIsSearchable) {
  for (const char *name :
       {"abs", "acos", "add", "atan2", "bitwise_xor", "clamp", "div", "eq",
        "floor", "floor_divide", "fmod", "gelu", "hardtanh", "isnan", "le",
        "leaky_relu", "log", "log10", "log1p", "log2", "logical_and",
        "masked_fill", "maximum", "minimum", "mul", "pow", "relu", "rsqrt",
        "rsub", "sigmoid", "sign", "sin", "sinh", "sqrt", "sub", "tanh",
        "trunc", "where"})
    EXPECT_EQ(getKernelSharing(("aten::" + std::string(name)).c_str()),
              KernelSharing::Elementwise)
        << name;
  EXPECT_EQ(getKernelSharing("aten::linear"), KernelSharing::None);
  EXPECT_EQ(getKernelSharing("aten::convolution"), KernelSharing::None);
  EXPECT_EQ(getKernelSharing("aten::mm"), KernelSharing::None);
  // Element-wise by name in another namespace: not ATen's kernel.
  EXPECT_EQ(getKernelSharing("cadence::add"), KernelSharing::None);
}

} // namespace
