//===- RuntimeModel.cpp - ExecuTorch's runtime, as memory sees it ---------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/RuntimeModel.h"

using namespace emit;
using namespace emit::memory;

static const RuntimeTarget kTargets[] = {
    {"64",
     "64-bit hosts (x86-64, AArch64)",
     {
#define RUNTIME_TYPE(Name, Size64, Align64, Size32, Align32) Size64,
#include "emit/Memory/RuntimeLayouts.def"
     },
     {
#define RUNTIME_TYPE(Name, Size64, Align64, Size32, Align32) Align64,
#include "emit/Memory/RuntimeLayouts.def"
     }},
    {"32",
     "32-bit ARM (Cortex-A and Cortex-M, AAPCS)",
     {
#define RUNTIME_TYPE(Name, Size64, Align64, Size32, Align32) Size32,
#include "emit/Memory/RuntimeLayouts.def"
     },
     {
#define RUNTIME_TYPE(Name, Size64, Align64, Size32, Align32) Align32,
#include "emit/Memory/RuntimeLayouts.def"
     }},
};

ArrayRef<RuntimeTarget> memory::getRuntimeTargets() { return kTargets; }

StringRef memory::getRuntimeRevision() {
#define RUNTIME_REVISION(Commit) return Commit;
#include "emit/Memory/RuntimeLayouts.def"
}
