//===- LinkReport.h - What linking saved, per input -------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// emit-link's report: the bytes each input file no longer stores, per kind
// of data, from what the dedup pipeline shared and what the linker itself
// stored once, and the dedup result beside it.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LINK_LINKREPORT_H
#define EMIT_LINK_LINKREPORT_H

#include "emit/Dialect/ET/Transforms/DedupResult.h"
#include "emit/Link/Link.h"

#include <map>
#include <string>

namespace emit::link {

/// Bytes saved per input file, then per kind of data (its report name).
using Savings = std::map<std::string, std::map<std::string, uint64_t>>;

/// Attributes what `dedup` shared, and the keys the linker stored once, to
/// the input files they came from. `programs` are the programs linked, each
/// with the file it is written to.
Savings attributeSavings(const et::dedup::Result &dedup,
                         const Linker::Origins &origins,
                         ArrayRef<Input> programs);

/// Writes the report (schema emit-link-report-1): per file of `files`, in
/// order, what it saves; the totals; and `dedup` (docs/DedupReport.md).
void writeLinkReport(ArrayRef<std::string> files, const Savings &savings,
                     const et::dedup::Result &dedup, llvm::json::OStream &json);

} // namespace emit::link

#endif // EMIT_LINK_LINKREPORT_H
