//===- TranslateFromBPTE.cpp - Import a .bpte as an et.bundle ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle is its program, imported as a .pte is (over the bytes the bundle
// embeds, payloads referring to the bundle's file), and its test suites,
// kept as the file has them: suites for missing methods and test cases
// that do not fit their method are the file's, and emit-verify reports them.
//
//===----------------------------------------------------------------------===//

#include "FileLayout.h"
#include "ImportReport.h"
#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/BundleFile.h"
#include "emit/File/ReadScalars.h"
#include "emit/File/bundled_program_generated.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace bp = bundled_program_flatbuffer;

namespace {
/// Builds the test suites of one bundle.
class SuiteImporter {
public:
  SuiteImporter(const BundleFile &file, MLIRContext *context,
                const PTEReadOptions &options)
      : file(file), context(context), builder(context),
        fileBytes(context, file.getBuffer(), options.payloadFile),
        fileName(StringAttr::get(context, file.getName())) {}

  /// Appends the suites to `bundle`, after its program.
  LogicalResult build(BundleOp bundle);

private:
  Location locFor(const Twine &path, const void *table) {
    return NameLoc::get(StringAttr::get(context, path),
                        FileLineColLoc::get(fileName, 0, file.offsetOf(table)));
  }
  FailureOr<ArrayAttr>
  buildValues(const flatbuffers::Vector<flatbuffers::Offset<bp::Value>> *values,
              const Twine &path);
  FailureOr<Attribute> buildValue(const bp::Value *value, const Twine &path);
  FailureOr<Attribute> buildTensor(const bp::Tensor *tensor, const Twine &path);

  const BundleFile &file;
  MLIRContext *context;
  OpBuilder builder;
  layout::FileBytes fileBytes;
  StringAttr fileName;
};
} // namespace

LogicalResult SuiteImporter::build(BundleOp bundle) {
  builder.setInsertionPointToEnd(&bundle.getBody().front());
  const auto *suites = file.getBundle()->method_test_suites();
  if (!suites)
    return success();
  for (auto [index, suite] : llvm::enumerate(*suites)) {
    std::string path = ("method_test_suites[" + Twine(index) + "]").str();
    StringRef method =
        suite->method_name() ? suite->method_name()->string_view() : "";
    auto suiteOp =
        compat::create<TestSuiteOp>(builder, locFor(path, suite), method);
    if (!suite->test_cases())
      continue;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&suiteOp.getBody().front());
    for (auto [caseIndex, testCase] : llvm::enumerate(*suite->test_cases())) {
      std::string casePath =
          (path + ".test_cases[" + Twine(caseIndex) + "]").str();
      FailureOr<ArrayAttr> inputs =
          buildValues(testCase->inputs(), casePath + ".inputs");
      FailureOr<ArrayAttr> expected = buildValues(
          testCase->expected_outputs(), casePath + ".expected_outputs");
      if (failed(inputs) || failed(expected))
        return failure();
      compat::create<TestCaseOp>(builder, locFor(casePath, testCase), *inputs,
                                 *expected);
    }
  }
  return success();
}

FailureOr<ArrayAttr> SuiteImporter::buildValues(
    const flatbuffers::Vector<flatbuffers::Offset<bp::Value>> *values,
    const Twine &path) {
  SmallVector<Attribute> result;
  if (values)
    for (auto [index, value] : llvm::enumerate(*values)) {
      FailureOr<Attribute> built =
          buildValue(value, path + "[" + Twine(index) + "]");
      if (failed(built))
        return failure();
      result.push_back(*built);
    }
  return builder.getArrayAttr(result);
}

FailureOr<Attribute> SuiteImporter::buildValue(const bp::Value *value,
                                               const Twine &path) {
  switch (value->val_type()) {
  case bp::ValueUnion::NONE:
    return Attribute(UnitAttr::get(context));
  case bp::ValueUnion::Tensor:
    return buildTensor(value->val_as_Tensor(), path);
  case bp::ValueUnion::Int:
    return Attribute(builder.getI64IntegerAttr(value->val_as_Int()->int_val()));
  case bp::ValueUnion::Bool:
    return Attribute(builder.getBoolAttr(value->val_as_Bool()->bool_val()));
  case bp::ValueUnion::Double:
    return Attribute(
        builder.getF64FloatAttr(value->val_as_Double()->double_val()));
  }
  return emitError(FileLineColLoc::get(fileName, 0, 0))
         << "at byte " << file.offsetOf(value) << " (" << path
         << ".val_type): value kind " << static_cast<int>(value->val_type())
         << " is none a bundle has (tensor, int, bool, double)";
}

FailureOr<Attribute> SuiteImporter::buildTensor(const bp::Tensor *tensor,
                                                const Twine &path) {
  std::optional<ScalarType> type =
      symbolizeScalarType(static_cast<uint32_t>(tensor->scalar_type()));
  if (!type)
    return emitError(FileLineColLoc::get(fileName, 0, 0))
           << "at byte " << file.offsetOf(tensor) << " (" << path
           << ".scalar_type): scalar type "
           << static_cast<int>(tensor->scalar_type())
           << " is none ExecuTorch has";
  SmallVector<int32_t> sizes = readScalars(tensor->sizes());
  SmallVector<int32_t> dimOrder;
  if (tensor->dim_order())
    dimOrder.assign(tensor->dim_order()->begin(), tensor->dim_order()->end());
  ArrayRef<char> bytes;
  if (tensor->data())
    bytes = {reinterpret_cast<const char *>(tensor->data()->data()),
             tensor->data()->size()};
  return Attribute(TestTensorAttr::get(context, *type, sizes, dimOrder,
                                       fileBytes.get("test_tensor", bytes)));
}

OwningOpRef<ModuleOp> emit::importBundle(const BundleFile &file,
                                         MLIRContext *context,
                                         const PTEReadOptions &options) {
  context->loadDialect<ETDialect>();
  const ProgramFile *programFile = file.getProgram();
  if (!programFile) {
    if (succeeded(reportImportFindings(file, context, std::nullopt)))
      emitError(FileLineColLoc::get(context, file.getName(), 0, 0))
          << "the bundle holds no program that can be read";
    return nullptr;
  }
  // The program's findings, at their offsets in it; then the bundle's own.
  OwningOpRef<ModuleOp> module = importProgram(*programFile, context, options);
  if (!module ||
      failed(reportImportFindings(file, context, std::nullopt,
                                  programFile->getFindings().findings.size())))
    return nullptr;
  ProgramOp program = *module->getOps<ProgramOp>().begin();

  OpBuilder builder = OpBuilder::atBlockBegin(module->getBody());
  auto bundle = compat::create<BundleOp>(
      builder, FileLineColLoc::get(context, file.getName(), 0, 0),
      llvm::sys::path::stem(file.getName()));
  if (uint32_t version = file.getBundle()->version())
    bundle.setVersion(version);
  program->remove();
  bundle.getBody().front().push_back(program);
  if (failed(SuiteImporter(file, context, options).build(bundle)))
    return nullptr;
  return module;
}
