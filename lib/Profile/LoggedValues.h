//===- LoggedValues.h - What an ETDump's debug events logged ----*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_PROFILE_LOGGEDVALUES_H
#define EMIT_LIB_PROFILE_LOGGEDVALUES_H

#include "emit/Profile/ProfileReport.h"

namespace etdump {
struct Value;
} // namespace etdump

namespace emit::profile {

/// `value`, as a debug event logged it: a tensor list gives its entry and
/// then one per tensor. A tensor's data is read from `debugBuffer` (the
/// data sink's bytes) at its offset, if it lies there.
void describeLoggedValue(const etdump::Value &value, StringRef debugBuffer,
                         std::vector<LoggedValue> &values);

/// An IEEE half's value, from its bits.
double decodeHalf(uint16_t bits);
/// A bfloat16's value (the high half of a float), from its bits.
double decodeBFloat16(uint16_t bits);

} // namespace emit::profile

#endif // EMIT_LIB_PROFILE_LOGGEDVALUES_H
