//===- ImportReport.h - What an import says of a file's findings -*- C++ -*-=//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_LIB_TARGET_PTE_IMPORTREPORT_H
#define EMIT_LIB_TARGET_PTE_IMPORTREPORT_H

#include "emit/File/CheckedFile.h"
#include "emit/Support/Layout.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>

namespace emit {

/// Reports the findings of `file` as its import does, in the order found:
/// the first that refuses the import as its error (`at byte N (path):
/// message`, at the file), after the warnings before it, each at its
/// table. After the segment table's findings, where the layout the file's
/// segments are given (`segments`, when its tables verified) does not
/// follow from their offsets, it warns that the export normalizes it.
/// Fails when the import refuses the file. Findings before index `from`
/// are left out (a bundle's copies of its program's, reported with the
/// program).
LogicalResult
reportImportFindings(const CheckedFile &file, MLIRContext *context,
                     const std::optional<layout::InferredSegments> &segments,
                     size_t from = 0);

} // namespace emit

#endif // EMIT_LIB_TARGET_PTE_IMPORTREPORT_H
