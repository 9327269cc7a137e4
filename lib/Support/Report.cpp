//===- Report.cpp - What emit's tools print, and in which formats ---------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/Report.h"

#include "emit/Support/Page.h"

#include "llvm/Support/Format.h"

using namespace emit;

StringRef emit::getReportFormatName(ReportFormat format) {
  switch (format) {
  case ReportFormat::Text:
    return "text";
  case ReportFormat::JSON:
    return "json";
  case ReportFormat::HTML:
    return "html";
  case ReportFormat::SARIF:
    return "sarif";
  case ReportFormat::ChromeTrace:
    return "chrome-trace";
  case ReportFormat::ModelExplorer:
    return "model-explorer";
  case ReportFormat::DOT:
    return "dot";
  case ReportFormat::SVG:
    return "svg";
  }
  llvm_unreachable("unknown report format");
}

Report::~Report() = default;

FormatOption::FormatOption(const char *help, ArrayRef<OfferedFormat> formats,
                           llvm::cl::OptionCategory &category)
    : llvm::cl::opt<ReportFormat>("format", llvm::cl::desc(help),
                                  llvm::cl::init(formats.front().format),
                                  llvm::cl::cat(category)) {
  for (const OfferedFormat &offered : formats)
    getParser().addLiteralOption(getReportFormatName(offered.format),
                                 offered.format, offered.help);
}

std::string emit::counted(uint64_t count, StringRef noun, StringRef plural,
                          bool separators) {
  std::string number =
      separators ? withSeparators(count) : std::to_string(count);
  if (count == 1)
    return number + " " + noun.str();
  return number + " " + (plural.empty() ? noun.str() + "s" : plural.str());
}

std::string emit::formatPercent(double percent) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.1f%%", percent);
  return text;
}
