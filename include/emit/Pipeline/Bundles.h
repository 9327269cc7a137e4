//===- Bundles.h - Unwrap a bundled program, or wrap one --------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle's test suites belong to its program's methods. Unwrapping keeps
// the program; wrapping gives a program (a deduplicated or re-linked one)
// the suites of a bundle, refusing suites its methods do not take as the
// runtime's bundled-program reader would.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_PIPELINE_BUNDLES_H
#define EMIT_PIPELINE_BUNDLES_H

#include "emit/Support/LLVM.h"

namespace emit {
namespace et {
class BundleOp;
} // namespace et

/// Replaces the `et.bundle` of `module` by the program it embeds; its test
/// suites are dropped. Fails, changing nothing, when `module` holds no
/// bundle.
LogicalResult unwrapBundle(ModuleOp module);

/// Gives the one program of `module` the test suites of `suites`: wraps it
/// in an `et.bundle` (version and suites of `suites`), or replaces the
/// suites of the bundle it is in. Fails, changing nothing, when a suite does
/// not fit the program (checkTestSuites).
LogicalResult wrapInBundle(ModuleOp module, et::BundleOp suites);

/// Checks that every test suite of `bundle` names a method of its program
/// once, and that every test case has as many inputs and expected outputs
/// as the method, each input of the kind, scalar type, sizes and dim order
/// the method takes (scalars: the value it was traced with). Each error is
/// at the test case, naming the suite, case and input.
LogicalResult checkTestSuites(et::BundleOp bundle);

} // namespace emit

#endif // EMIT_PIPELINE_BUNDLES_H
