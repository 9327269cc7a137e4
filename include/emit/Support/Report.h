//===- Report.h - What emit's tools print, and in which formats -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every tool's report (emit-verify's findings, emit-memory's pools,
// emit-profile's times, emit-diff's changes, --pte-summary's) is a Report: it prints itself
// in each format it has, and the tools share one --format option that
// offers those. The text helpers every printer uses are here too.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_REPORT_H
#define EMIT_SUPPORT_REPORT_H

#include "emit/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace emit {

/// The formats emit's reports print in.
enum class ReportFormat : uint8_t {
  Text,
  JSON,
  HTML,
  SARIF,
  ChromeTrace,
  ModelExplorer,
  DOT,
  SVG,
};

/// `text`, `json`, `html`, `sarif`, `chrome-trace`, `model-explorer`,
/// `dot` or `svg`, as --format says it.
StringRef getReportFormatName(ReportFormat format);

/// A report a tool prints: it prints itself in each format it has.
class Report {
public:
  virtual ~Report();
  /// Prints the report in `format`, one the tool offered (FormatOption).
  virtual void print(ReportFormat format, raw_ostream &os) const = 0;
};

/// A format a tool offers, and what its --help says of it.
struct OfferedFormat {
  ReportFormat format;
  const char *help;
};

/// A tool's --format option: the formats it offers, the first the default.
class FormatOption : public llvm::cl::opt<ReportFormat> {
public:
  FormatOption(const char *help, ArrayRef<OfferedFormat> formats,
               llvm::cl::OptionCategory &category);
};

/// `count` `noun`, with the plural (default: an s) when it is not one;
/// with thousands separators when asked ("10,000 blobs").
std::string counted(uint64_t count, StringRef noun, StringRef plural = "",
                    bool separators = false);

/// `percent` with one decimal and a percent sign: "12.5%".
std::string formatPercent(double percent);

} // namespace emit

#endif // EMIT_SUPPORT_REPORT_H
