//===- BundleFile.h - A .bpte, open and checked -----------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The file layer's view of a bundled program (`BP08`): a program stored as
// bytes inside the flatbuffer, with test suites per method (inputs and
// expected outputs). Opening one verifies the flatbuffer, opens the embedded
// program as a ProgramFile (every check of a .pte), and checks each suite
// against the program as the runtime's bundled-program reader
// (`load_bundled_input`) uses it. The embedded program's findings are also
// the bundle's, at their offsets in the bundle, their paths under
// `program`.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_FILE_BUNDLEFILE_H
#define EMIT_FILE_BUNDLEFILE_H

#include "emit/File/ProgramFile.h"

#include <memory>

namespace bundled_program_flatbuffer {
struct BundledProgram;
} // namespace bundled_program_flatbuffer

namespace emit {

/// One value of a test case, or the method input it is for, as much as
/// deciding whether one fits the other needs: the rule is written once, for
/// the file layer's checks and for wrapping a program in a bundle's suites.
struct BundledValue {
  enum class Kind { None, Tensor, Int, Bool, Double, Other };
  Kind kind = Kind::None;
  int32_t scalarType = 0;
  SmallVector<int32_t> sizes, dimOrder;
  bool dynamic = false; // A method input whose sizes may change.
  int64_t intValue = 0;
  bool boolValue = false;
  double doubleValue = 0;

  static BundledValue tensor(int32_t scalarType, SmallVector<int32_t> sizes,
                             SmallVector<int32_t> dimOrder,
                             bool dynamic = false) {
    BundledValue value{Kind::Tensor, scalarType, std::move(sizes),
                       std::move(dimOrder)};
    value.dynamic = dynamic;
    return value;
  }
  static BundledValue ofInt(int64_t v) {
    BundledValue value{Kind::Int};
    value.intValue = v;
    return value;
  }
  static BundledValue ofBool(bool v) {
    BundledValue value{Kind::Bool};
    value.boolValue = v;
    return value;
  }
  static BundledValue ofDouble(double v) {
    BundledValue value{Kind::Double};
    value.doubleValue = v;
    return value;
  }
};

/// Why the runtime's load_bundled_input refuses test case input `input` for
/// a method input `methodInput` (set_input checks kind, scalar type, rank,
/// static sizes, and that a scalar equals the one the method was traced
/// with), or why its data would be read in another layout (dim order); and
/// the field it concerns (`scalar_type`, `sizes`, `dim_order`; empty for
/// the value). std::nullopt when it fits.
struct InputMismatch {
  std::string field, message;
};
std::optional<InputMismatch> getInputMismatch(const BundledValue &input,
                                              const BundledValue &methodInput);

/// A bundled program, open and checked.
class BundleFile : public CheckedFile {
public:
  /// Reads and checks the bundle in `buffer`, and the program it embeds.
  static std::unique_ptr<BundleFile>
  open(std::shared_ptr<const FileBuffer> buffer);

  FileKind getKind() const override { return FileKind::Bundle; }
  static bool classof(const CheckedFile *file) {
    return file->getKind() == FileKind::Bundle;
  }

  /// The verified flatbuffer; null when verification failed.
  const bundled_program_flatbuffer::BundledProgram *getBundle() const {
    return bundle;
  }
  /// The embedded program, open and checked; null when the bundle holds
  /// none that can be opened.
  const ProgramFile *getProgram() const { return program.get(); }
  /// Where the embedded program starts in the bundle.
  uint64_t getProgramOffset() const { return programOffset; }
  /// `finding`, of the embedded program, as the bundle's: at its offset in
  /// the bundle, its path under `program`.
  Finding toBundleFinding(Finding finding) const;

  /// A bundle's own segments: none (its program's are the program's).

private:
  friend class BundleChecker;
  using CheckedFile::CheckedFile;

  const bundled_program_flatbuffer::BundledProgram *bundle = nullptr;
  std::unique_ptr<ProgramFile> program;
  uint64_t programOffset = 0;
};

} // namespace emit

#endif // EMIT_FILE_BUNDLEFILE_H
