//===- SamsungCompileSpec.cpp - What a Samsung entry was compiled for -----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An EnnBackend entry's `enn_compile_options` is an EnnExecuTorchOptions
// flatbuffer with the identifier EETO (schema/samsung_compile_options.fbs):
// the Exynos chipset its payload was compiled for. The runtime never reads
// it (the chipset is baked into the payload); it says what the export asked
// for, named as ExecuTorch's SamsungChipset names it.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "emit/Delegate/samsung_compile_options_generated.h"

#include <string>

using namespace emit;
using namespace emit::delegate;

/// SamsungChipset's names; its values are the chipsets' numbers.
static std::string getChipsetName(int chipset) {
  switch (chipset) {
  case 0:
    return "UNDEFINED_CHIP_V";
  case 9955:
    return "E9955";
  case 9965:
    return "E9965";
  default:
    return std::to_string(chipset);
  }
}

void delegate::decodeSamsungCompileSpec(StringRef value,
                                        DecodedCompileSpec &decoded) {
  if (value.size() < 8 ||
      !flatbuffers::BufferHasIdentifier(value.data(),
                                        emit_samsung::OptionsIdentifier())) {
    decoded.problems.push_back(
        {4,
         "the options do not carry the identifier EETO that Samsung's "
         "serializer writes",
         ProblemEffect::Unknown});
    return;
  }
  const auto *options = getVerifiedRoot<emit_samsung::Options>(
      value, 0, decoded.problems, "EnnExecuTorchOptions flatbuffer");
  if (!options)
    return;
  decoded.settings.push_back({"chipset", getChipsetName(options->chipset())});
}
