//===- QNNCompileSpec.cpp - What a QNN entry was compiled for -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A QnnBackend entry's `qnn_compile_spec` is a QnnExecuTorchOptions
// flatbuffer (schema/qnn_compile_spec.fbs says which of its fields mean the
// same in every release). The settings are named as ExecuTorch's schema
// names them, so that they can be looked up there.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "emit/Delegate/qnn_compile_spec_generated.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

using namespace emit;
using namespace emit::delegate;

namespace qnn = emit_qnn;

namespace {
/// An enum's value and its name in ExecuTorch's schema.
struct EnumName {
  int value;
  const char *name;
};

// qc_compiler_spec.fbs's QcomChipset and HtpArch: their values are
// Qualcomm's ids, kept as releases add names.
constexpr EnumName kChipsets[] = {
    {0, "UNKNOWN_SM"}, {30, "SM8350"},   {36, "SM8450"},   {39, "SA8295"},
    {42, "SM8475"},    {43, "SM8550"},   {45, "SXR1230P"}, {46, "SSG2115P"},
    {52, "SA8255"},    {53, "SXR2230P"}, {57, "SM8650"},   {58, "SSG2125P"},
    {69, "SM8750"},    {72, "SA8797"},   {75, "SXR2330P"}, {77, "QCS9100"},
    {87, "SM8850"},    {93, "QCM6490"},  {95, "SAR2230P"}, {96, "SW6100"},
    {97, "SM8845"}};
constexpr EnumName kHtpArchs[] = {{0, "NONE"}, {68, "V68"}, {69, "V69"},
                                  {73, "V73"}, {75, "V75"}, {79, "V79"},
                                  {81, "V81"}};
// Enums numbered from 0 in every release.
constexpr const char *kBackendTypes[] = {"kUndefinedBackend", "kGpuBackend",
                                         "kHtpBackend", "kDspBackend",
                                         "kLpaiBackend"};
constexpr const char *kPerformanceModes[] = {
    "kHtpDefault",        "kHtpSustainedHighPerformance",
    "kHtpBurst",          "kHtpHighPerformance",
    "kHtpPowerSaver",     "kHtpLowPowerSaver",
    "kHtpHighPowerSaver", "kHtpLowBalanced",
    "kHtpBalanced"};
constexpr const char *kPrecisions[] = {"kHtpQuantized", "kHtpFp16"};
constexpr const char *kPdSessions[] = {"kHtpUnsignedPd", "kHtpSignedPd"};
constexpr int kHtpBackend = 2;

/// `value`'s name in `names`, or the number where no release names it.
std::string nameOf(ArrayRef<EnumName> names, int value) {
  for (const EnumName &entry : names)
    if (entry.value == value)
      return entry.name;
  return std::to_string(value);
}
std::string nameOf(ArrayRef<const char *> names, int value) {
  if (value >= 0 && size_t(value) < names.size())
    return names[value];
  return std::to_string(value);
}
} // namespace

void delegate::decodeQNNCompileSpec(StringRef value,
                                    DecodedCompileSpec &decoded) {
  // The runtime reads these options unverified (GetQnnExecuTorchOptions).
  const auto *options = getVerifiedRoot<qnn::Options>(
      value, 0, decoded.problems, "QnnExecuTorchOptions flatbuffer",
      ": the QNN runtime, which reads it unverified, would misread it",
      ProblemEffect::Undefined);
  if (!options)
    return;
  auto set = [&](const char *name, std::string text) {
    decoded.settings.push_back({name, std::move(text)});
  };
  if (const qnn::SocInfo *soc = options->soc_info()) {
    set("soc_model", nameOf(kChipsets, soc->soc_model()));
    if (const qnn::HtpInfo *htp = soc->htp_info()) {
      set("htp_arch", nameOf(kHtpArchs, htp->htp_arch()));
      decoded.settings.push_back(
          Field::integer("vtcm_size_in_mb", htp->vtcm_size_in_mb()));
    } else {
      decoded.problems.push_back({0,
                                  "the options' soc_info has no htp_info, "
                                  "which the QNN runtime dereferences "
                                  "unchecked",
                                  ProblemEffect::Undefined});
    }
  } else {
    decoded.problems.push_back({0,
                                "the options have no soc_info, which the "
                                "QNN runtime dereferences unchecked",
                                ProblemEffect::Undefined});
  }
  const qnn::BackendOptions *backend = options->backend_options();
  if (!backend)
    return;
  set("backend_type", nameOf(kBackendTypes, backend->backend_type()));
  const qnn::HtpBackendOptions *htp = backend->htp_options();
  if (!htp || backend->backend_type() != kHtpBackend)
    return;
  set("performance_mode", nameOf(kPerformanceModes, htp->performance_mode()));
  set("precision", nameOf(kPrecisions, htp->precision()));
  set("pd_session", nameOf(kPdSessions, htp->pd_session()));
  decoded.settings.push_back(
      Field::integer("max_sf_buf_size", htp->max_sf_buf_size()));
}
