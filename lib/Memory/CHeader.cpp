//===- CHeader.cpp - Programs as a C header for embedded builds -----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/CHeader.h"

#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Memory/MemoryReport.h"
#include "emit/Memory/RuntimeModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace emit;
using namespace emit::memory;

/// The most an array is aligned to: a page.
static constexpr uint64_t kMaxArrayAlignment = 4096;
/// The least: the flatbuffer's own inline data is aligned to 16.
static constexpr uint64_t kMinArrayAlignment = 16;

/// `text` as a C identifier: lower case, every other character than a
/// letter or digit an underscore, `_` first when it would start with a
/// digit.
static std::string toIdentifier(StringRef text) {
  std::string name;
  for (char c : text)
    name += llvm::isAlnum(c) ? llvm::toLower(c) : '_';
  if (name.empty() || llvm::isDigit(name.front()))
    name.insert(name.begin(), '_');
  return name;
}

std::string memory::getCName(StringRef path) {
  return toIdentifier(llvm::sys::path::stem(path));
}

uint64_t memory::getArrayAlignment(const ProgramModel &model) {
  const ProgramFile &file = model.getFile();
  // Without a segment, the flatbuffer's own alignment is all it needs.
  uint64_t alignment = kMinArrayAlignment;
  bool placed = false;
  for (const SegmentPlacement &segment : file.getSegmentPlacements()) {
    if (!segment.size)
      continue;
    uint64_t start = file.getSegmentBase() + segment.offset;
    if (!placed)
      alignment = kMaxArrayAlignment;
    placed = true;
    while (start % alignment)
      alignment /= 2;
  }
  return std::max(alignment, kMinArrayAlignment);
}

/// `text` as the inside of a C string literal.
static std::string escapeC(StringRef text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c < 0x20 || c >= 0x7f) {
      char octal[5];
      snprintf(octal, sizeof(octal), "\\%03o", c);
      out += octal;
    } else {
      out += c;
    }
  }
  return out;
}

/// `text` inside a C comment: it cannot end the comment.
static std::string inComment(StringRef text) {
  std::string out = escapeC(text);
  for (size_t at = out.find("*/"); at != std::string::npos;
       at = out.find("*/", at))
    out.replace(at, 2, "* /");
  return out;
}

/// `name` as a macro's part: upper case.
static std::string toMacro(StringRef name) { return StringRef(name).upper(); }

/// Writes `bytes` as the elements of a C array initializer.
static void writeBytes(StringRef bytes, raw_ostream &os) {
  static const char digits[] = "0123456789abcdef";
  std::string line;
  for (size_t at = 0; at < bytes.size(); at += 16) {
    line.assign("  ");
    for (size_t i = at; i < std::min(bytes.size(), at + 16); ++i) {
      uint8_t byte = bytes[i];
      line += "0x";
      line += digits[byte >> 4];
      line += digits[byte & 15];
      line += ',';
    }
    line += '\n';
    os << line;
  }
}

/// The macros of one method, `prefix` its name's.
static void writeMethod(const MethodModel &method,
                        ArrayRef<uint64_t> allocatorBytes, StringRef prefix,
                        raw_ostream &os) {
  ArrayRef<int64_t> sizes = method.getBufferSizes();
  unsigned buffers = sizes.empty() ? 0 : sizes.size() - 1;
  os << "/* method '" << inComment(method.getName()) << "' */\n";
  os << "#define " << prefix << "_BUFFER_COUNT " << buffers << "u\n";
  uint64_t planned = 0;
  for (unsigned id = 1; id <= buffers; ++id) {
    os << "#define " << prefix << "_BUFFER_" << id << "_BYTES " << sizes[id]
       << "u\n";
    planned += sizes[id];
  }
  os << "#define " << prefix << "_BUFFER_SIZES {";
  for (unsigned id = 1; id <= buffers; ++id)
    os << (id > 1 ? ", " : "") << sizes[id] << "u";
  os << "}\n";
  os << "#define " << prefix << "_PLANNED_BYTES " << planned << "u\n";
  for (auto [target, bytes] :
       llvm::zip_equal(getRuntimeTargets(), allocatorBytes))
    os << "#define " << prefix << "_METHOD_ALLOCATOR_BYTES_" << target.name
       << " " << bytes << "u\n";
  os << "#define " << prefix << "_METHOD_ALLOCATOR_BYTES EMIT_BY_WORD_SIZE("
     << prefix << "_METHOD_ALLOCATOR_BYTES_)\n";
}

/// One program's array and macros.
static void writeProgram(const CHeaderProgram &program,
                         const CHeaderOptions &options, raw_ostream &os) {
  const ProgramModel &model = *program.model;
  std::string prefix = toMacro(program.name);
  StringRef bytes = model.getFile().getBytes();
  uint64_t alignment = getArrayAlignment(model);
  os << "\n/* "
     << inComment(llvm::sys::path::filename(model.getFile().getName())) << ": "
     << bytes.size() << " bytes, " << model.getMethods().size()
     << " methods */\n";
  os << "#define " << prefix << "_PTE_SIZE " << bytes.size() << "u\n";
  os << "#define " << prefix << "_PTE_ALIGNMENT " << alignment << "u\n";
  os << "#define " << prefix << "_METHOD_COUNT " << model.getMethods().size()
     << "u\n";
  std::vector<uint64_t> most(getRuntimeTargets().size(), 0);
  uint64_t mostPlanned = 0;
  llvm::StringSet<> taken;
  // Each method's macros' prefix, for the list of methods.
  std::vector<std::pair<std::string, StringRef>> methods;
  for (auto [method, allocator] :
       llvm::zip_equal(model.getMethods(), getMethodAllocatorBytes(model))) {
    std::string name = toMacro(toIdentifier(method.getName()));
    // Methods whose names read alike take their index too.
    if (!taken.insert(name).second)
      name += "_" + std::to_string(method.getIndex());
    methods.push_back({prefix + "_" + name, method.getName()});
    writeMethod(method, allocator.second, methods.back().first, os);
    for (auto [bytes, max] : llvm::zip_equal(allocator.second, most))
      max = std::max(max, bytes);
    uint64_t planned = 0;
    for (int64_t size : llvm::drop_begin(method.getBufferSizes()))
      planned += size;
    mostPlanned = std::max(mostPlanned, planned);
  }
  os << "/* the most one method needs: pools reused method after method */\n";
  os << "#define " << prefix << "_MAX_PLANNED_BYTES " << mostPlanned << "u\n";
  for (auto [target, bytes] : llvm::zip_equal(getRuntimeTargets(), most))
    os << "#define " << prefix << "_MAX_METHOD_ALLOCATOR_BYTES_" << target.name
       << " " << bytes << "u\n";
  os << "#define " << prefix << "_MAX_METHOD_ALLOCATOR_BYTES EMIT_BY_WORD_SIZE("
     << prefix << "_MAX_METHOD_ALLOCATOR_BYTES_)\n";
  os << "/* X(PREFIX, \"name\") for each method: PREFIX##_BUFFER_SIZES, ... "
        "*/\n";
  os << "#define " << prefix << "_METHODS(X)";
  for (const auto &[methodPrefix, name] : methods)
    os << " \\\n  X(" << methodPrefix << ", \"" << escapeC(name) << "\")";
  os << "\n";
  os << "EMIT_PTE_ARRAY(" << program.name << "_pte, " << prefix << "_PTE_SIZE, "
     << alignment << ") = {\n";
  writeBytes(bytes, os);
  os << "};\n";
}

LogicalResult memory::checkCHeaderNames(ArrayRef<CHeaderProgram> programs,
                                        std::string &error) {
  llvm::StringSet<> names;
  for (const CHeaderProgram &program : programs)
    if (!names.insert(program.name).second) {
      error = "two programs take the C name '" + program.name +
              "': rename one file";
      return failure();
    }
  return success();
}

void memory::writeCHeader(ArrayRef<CHeaderProgram> programs,
                          const CHeaderOptions &options, raw_ostream &os) {
  std::string guard = options.guard.empty()
                          ? "EMIT_" + toMacro(programs.front().name) + "_H"
                          : options.guard;
  os << "/* ExecuTorch programs as C arrays, with the memory their methods "
        "need.\n   Written by emit-memory --c-header; do not edit. Include it "
        "in one\n   translation unit: each array is defined here. */\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  os << "#include <stdint.h>\n\n";
  os << "/* The bytes load_method takes from the method allocator depend on "
        "the\n   pointer width: _32 for 32-bit targets (Cortex-M, ARMv7), _64 "
        "for 64-bit. */\n";
  os << "#if UINTPTR_MAX == 0xFFFFFFFFu\n"
        "#define EMIT_BY_WORD_SIZE(name) name##32\n"
        "#else\n"
        "#define EMIT_BY_WORD_SIZE(name) name##64\n"
        "#endif\n\n";
  os << "#ifndef EMIT_PTE_SECTION\n#define EMIT_PTE_SECTION \""
     << options.section << "\"\n#endif\n";
  os << "#ifndef EMIT_PTE_ARRAY\n"
        "#if defined(__GNUC__) || defined(__clang__)\n"
        "#define EMIT_PTE_ARRAY(name, size, alignment) \\\n"
        "  static const uint8_t name[size] \\\n"
        "      __attribute__((section(EMIT_PTE_SECTION), aligned(alignment), "
        "used))\n"
        "#elif defined(__cplusplus)\n"
        "#define EMIT_PTE_ARRAY(name, size, alignment) \\\n"
        "  alignas(alignment) static const uint8_t name[size]\n"
        "#else\n"
        "#define EMIT_PTE_ARRAY(name, size, alignment) \\\n"
        "  _Alignas(alignment) static const uint8_t name[size]\n"
        "#endif\n"
        "#endif\n";
  for (const CHeaderProgram &program : programs)
    writeProgram(program, options, os);
  os << "\n/* X(array, PREFIX) for each program */\n#define EMIT_PROGRAMS(X)";
  for (const CHeaderProgram &program : programs)
    os << " \\\n  X(" << program.name << "_pte, " << toMacro(program.name)
       << ")";
  os << "\n\n#endif /* " << guard << " */\n";
}
