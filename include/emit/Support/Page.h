//===- Page.h - The kit of emit's self-contained pages ----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The kit every one of emit's self-contained pages is written with (the
// summary's, emit-diff's, emit-memory's, emit-profile's, emit-graph's): its
// document head and end, the one style sheet, sections and tables, the
// picture axis and how many boxes a picture draws; byte counts for people
// and HTML escaping.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_PAGE_H
#define EMIT_SUPPORT_PAGE_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace emit {

/// `count` bytes for people: "512 B", "1.5 KiB", "2.0 GiB".
std::string humanBytes(uint64_t count);
/// `value` with thousands separators: "10,000".
std::string withSeparators(uint64_t value);
/// `count` bytes with thousands separators: "1,048,576 B".
std::string exactBytes(uint64_t count);

/// `text` escaped for HTML text and attribute values.
std::string escapeHTML(StringRef text);
/// The style sheet of emit's self-contained pages.
StringRef getPageStyle();

/// Starts a page: the document head (`title`, already escaped, and the
/// shared style sheet followed by the page's own `styles`), then opens its
/// body.
void printPageStart(raw_ostream &os, StringRef title,
                    ArrayRef<StringRef> styles = {});
/// Ends the page printPageStart started.
void printPageEnd(raw_ostream &os);

/// Opens section `id` (an HTML id) under the heading `title` (HTML).
void printSectionStart(raw_ostream &os, StringRef id, StringRef title);

/// One column of a table's header row.
struct TableColumn {
  /// Its heading (HTML).
  StringRef label;
  /// Whether it holds numbers (right-aligned: the style sheet's `num`).
  bool number = false;
  /// What it means, shown on hover (plain text).
  StringRef title = {};
  /// Its own style (`width:20%`).
  StringRef style = {};
};
/// A number column.
inline TableColumn numberColumn(StringRef label, StringRef title = {}) {
  return {label, true, title};
}
/// Opens a table (with `attributes`, such as `class="instructions"`, where
/// it has its own) and writes its header row.
void printTableStart(raw_ostream &os, ArrayRef<TableColumn> columns,
                     StringRef attributes = {});
/// Closes a table, and with `section` the section it is the end of.
void printTableEnd(raw_ostream &os, bool section = false);

/// The style of the axis under a picture (`.axis`: its ends' labels).
extern const char kAxisStyle[];
/// The most boxes one picture draws: past it, a page draws the largest.
inline constexpr unsigned kMaxPictureBoxes = 4000;

} // namespace emit

#endif // EMIT_SUPPORT_PAGE_H
