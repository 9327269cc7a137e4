//===- Page.h - What emit's reports and pages print numbers with -*- C++
//-*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Shared by the summary, emit-diff's and emit-memory's pages: byte counts
// for people, HTML escaping, and the one style sheet every page uses.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_SUPPORT_PAGE_H
#define EMIT_SUPPORT_PAGE_H

#include "emit/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

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

} // namespace emit

#endif // EMIT_SUPPORT_PAGE_H
