//===- ProfileFormat.h - How emit-profile's reports print values -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_PROFILE_PROFILEFORMAT_H
#define EMIT_LIB_PROFILE_PROFILEFORMAT_H

#include "emit/Profile/ProfileReport.h"
#include "emit/Support/Report.h"

#include <string>

namespace emit::profile {

/// A duration for people: ns, us, ms or s, three significant digits.
std::string formatNs(uint64_t ns);
/// An operand as `%1 float[2, 8] @1+64` (value, dtype, shape, planned
/// buffer and offset), or `%4 int`.
std::string formatOperand(const Operand &operand);

/// A logged value as `float[2, 8] min -1 max 3 mean 0.5 nan 0 inf 0`, or
/// `int 3`.
std::string formatLogged(const LoggedValue &value);

} // namespace emit::profile

#endif // EMIT_LIB_PROFILE_PROFILEFORMAT_H
