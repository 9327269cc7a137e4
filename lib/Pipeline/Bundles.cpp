//===- Bundles.cpp - Unwrap a bundled program, or wrap one ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Pipeline/Bundles.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/BundleFile.h"
#include "emit/Support/MLIRCompat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace emit;
using namespace emit::et;
using Kind = BundledValue::Kind;

LogicalResult emit::unwrapBundle(ModuleOp module) {
  auto bundles = llvm::to_vector(module.getOps<BundleOp>());
  if (bundles.size() != 1)
    return emitError(module.getLoc(), "expected one 'et.bundle' to unwrap, "
                                      "found ")
           << bundles.size();
  BundleOp bundle = bundles.front();
  ProgramOp program = bundle.getProgram();
  program->moveBefore(bundle);
  bundle->erase();
  return success();
}

/// A test value of the IR as the fit rule sees it.
static BundledValue describeTestValue(Attribute value) {
  if (auto tensor = dyn_cast<TestTensorAttr>(value))
    return BundledValue::tensor(static_cast<int32_t>(tensor.getScalarType()),
                                SmallVector<int32_t>(tensor.getSizes()),
                                SmallVector<int32_t>(tensor.getDimOrder()));
  if (auto flag = dyn_cast<BoolAttr>(value))
    return BundledValue::ofBool(flag.getValue());
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return BundledValue::ofInt(integer.getValue().getSExtValue());
  if (auto real = dyn_cast<FloatAttr>(value))
    return BundledValue::ofDouble(real.getValueAsDouble());
  return {}; // `unit`: a value of no kind.
}

/// A method input as the fit rule sees it.
static BundledValue describeMethodInput(Value input) {
  Operation *decl = input.getDefiningOp();
  if (auto tensor = dyn_cast<TensorOp>(decl)) {
    std::optional<ShapeDynamism> dynamism = tensor.getShapeDynamism();
    return BundledValue::tensor(static_cast<int32_t>(tensor.getScalarType()),
                                SmallVector<int32_t>(tensor.getSizes()),
                                SmallVector<int32_t>(tensor.getDimOrder()),
                                dynamism && *dynamism != ShapeDynamism::Static);
  }
  if (auto integer = dyn_cast<IntOp>(decl))
    return BundledValue::ofInt(integer.getValue());
  if (auto flag = dyn_cast<BoolOp>(decl))
    return BundledValue::ofBool(flag.getValue());
  if (auto real = dyn_cast<DoubleOp>(decl))
    return BundledValue::ofDouble(real.getValue().convertToDouble());
  return {isa<NullOp>(decl) ? Kind::None : Kind::Other};
}

/// Checks one test case against `method`; `where` names it.
static LogicalResult checkTestCase(TestCaseOp testCase, MethodOp method,
                                   const std::string &where) {
  SignatureOp signature = method.getSignature();
  auto count = [&](StringRef what, size_t has, size_t takes) {
    return testCase.emitError()
           << where << " has " << has << " " << what << ", method '"
           << method.getSymName() << "' " << takes;
  };
  if (testCase.getInputs().size() != signature.getInputs().size())
    return count("inputs", testCase.getInputs().size(),
                 signature.getInputs().size());
  if (testCase.getExpected().size() != signature.getOutputs().size())
    return count("expected outputs", testCase.getExpected().size(),
                 signature.getOutputs().size());
  for (auto [index, value, input] :
       llvm::enumerate(testCase.getInputs(), signature.getInputs()))
    if (std::optional<InputMismatch> mismatch = getInputMismatch(
            describeTestValue(value), describeMethodInput(input)))
      return testCase.emitError()
             << where << ", input " << index << ": " << mismatch->message;
  return success();
}

LogicalResult emit::checkTestSuites(BundleOp bundle) {
  ProgramOp program = bundle.getProgram();
  llvm::StringMap<unsigned> seen;
  for (auto [index, suite] : llvm::enumerate(bundle.getTestSuites())) {
    StringRef name = suite.getMethod();
    auto method = program.lookupSymbol<MethodOp>(name);
    if (!method)
      return suite.emitError("test suite ")
             << index << " is for method '" << name
             << "', which the program does not have";
    auto [it, inserted] = seen.try_emplace(name, index);
    if (!inserted)
      return suite.emitError("test suite ")
             << index << " is for method '" << name << "', as test suite "
             << it->second << " is; the runtime's reader uses the first";
    for (auto [caseIndex, testCase] : llvm::enumerate(suite.getTestCases()))
      if (failed(checkTestCase(
              testCase, method,
              ("test case " + Twine(caseIndex) + " of '" + name + "'").str())))
        return failure();
  }
  return success();
}

LogicalResult emit::wrapInBundle(ModuleOp module, BundleOp suites) {
  SmallVector<ProgramOp> programs = getPrograms(module);
  if (programs.size() != 1)
    return emitError(module.getLoc(), "expected one program to bundle, found ")
           << programs.size();
  ProgramOp program = programs.front();
  auto bundle = dyn_cast<BundleOp>(program->getParentOp());
  bool created = !bundle;
  if (created) {
    OpBuilder builder(program);
    bundle = compat::create<BundleOp>(builder, program.getLoc(),
                                      program.getSymName());
    program->moveBefore(&bundle.getBody().front(),
                        bundle.getBody().front().end());
  }
  // The new suites after the old, which go once the new ones fit.
  SmallVector<TestSuiteOp> old = llvm::to_vector(bundle.getTestSuites());
  auto builder = OpBuilder::atBlockEnd(&bundle.getBody().front());
  SmallVector<Operation *> added;
  for (TestSuiteOp suite : suites.getTestSuites())
    added.push_back(builder.clone(*suite));
  std::optional<int64_t> version = bundle.getVersion();
  bundle.setVersion(suites.getVersion());
  for (TestSuiteOp suite : old)
    suite->remove();
  if (succeeded(checkTestSuites(bundle))) {
    for (TestSuiteOp suite : old)
      suite->destroy();
    return success();
  }
  // Undo: the module as it was.
  for (Operation *op : added)
    op->erase();
  for (TestSuiteOp suite : old)
    bundle.getBody().front().push_back(suite);
  bundle.setVersion(version);
  if (created) {
    program->moveBefore(bundle);
    bundle->erase();
  }
  return failure();
}
