//===- Page.cpp - The kit of emit's self-contained pages ------------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Support/Page.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <iterator>

using namespace emit;

std::string emit::humanBytes(uint64_t count) {
  static const char *units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (count < 1024)
    return std::to_string(count) + " B";
  double value = count;
  unsigned unit = 0;
  for (value /= 1024; value >= 1024 && unit + 1 < std::size(units); ++unit)
    value /= 1024;
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.1f ", value) << units[unit];
  return text;
}

std::string emit::withSeparators(uint64_t value) {
  std::string digits = std::to_string(value), result;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      result += ',';
    result += digits[i];
  }
  return result;
}

std::string emit::exactBytes(uint64_t count) {
  return withSeparators(count) + " B";
}

std::string emit::escapeHTML(StringRef text) {
  std::string result;
  for (char c : text) {
    switch (c) {
    case '&':
      result += "&amp;";
      break;
    case '<':
      result += "&lt;";
      break;
    case '>':
      result += "&gt;";
      break;
    case '"':
      result += "&quot;";
      break;
    default:
      result += c;
    }
  }
  return result;
}

static const char kStyle[] = R"css(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
       color: #222; max-width: 1100px; margin: 24px auto; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
.lead { font-size: 16px; margin: 4px 0; }
.muted { color: #666; }
.bar { display: flex; height: 30px; border: 1px solid #ccc;
       border-radius: 4px; overflow: hidden; }
.bar span { display: block; height: 100%; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 22px; margin-top: 10px; }
.swatch { display: inline-block; width: 12px; height: 12px;
          border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee;
         vertical-align: top; }
th { border-bottom: 2px solid #ccc; }
.num { text-align: right; white-space: nowrap;
       font-variant-numeric: tabular-nums; }
.meter { height: 8px; border-radius: 4px; min-width: 1px; margin-top: 4px; }
.k-delegate { background: #4e79a7; } .k-named_data { background: #59a14f; }
.k-constant { background: #edc948; } .k-mutable { background: #b07aa1; }
.k-unused { background: #bab0ac; } .k-flatbuffer { background: #9c755f; }
.k-padding { background: #d4d4d4; } .k-test_suites { background: #76b7b2; }
.dup { background: #e15759; color: #fff; border-radius: 3px;
       padding: 0 5px; font-size: 12px; white-space: nowrap; }
.more td { color: #666; font-style: italic; }
)css";

StringRef emit::getPageStyle() { return kStyle; }

const char emit::kAxisStyle[] =
    ".axis { display: flex; justify-content: space-between; color: #666;\n"
    "        font-size: 12px; }\n";

void emit::printPageStart(raw_ostream &os, StringRef title,
                          ArrayRef<StringRef> styles) {
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>"
     << title << "</title><style>" << getPageStyle();
  for (StringRef style : styles)
    os << style;
  os << "</style></head>\n<body>\n";
}

void emit::printPageEnd(raw_ostream &os) { os << "</body></html>\n"; }

void emit::printSectionStart(raw_ostream &os, StringRef id, StringRef title) {
  os << "<section id=\"" << id << "\"><h2>" << title << "</h2>\n";
}

void emit::printTableStart(raw_ostream &os, ArrayRef<TableColumn> columns,
                           StringRef attributes) {
  os << "<table";
  if (!attributes.empty())
    os << " " << attributes;
  os << "><tr>";
  for (const TableColumn &column : columns) {
    os << "<th";
    if (column.number)
      os << " class=\"num\"";
    if (!column.title.empty())
      os << " title=\"" << escapeHTML(column.title) << "\"";
    if (!column.style.empty())
      os << " style=\"" << column.style << "\"";
    os << ">" << column.label << "</th>";
  }
  os << "</tr>\n";
}

void emit::printTableEnd(raw_ostream &os, bool section) {
  os << (section ? "</table></section>\n" : "</table>\n");
}
