//===- SuiteDiff.cpp - Compare the test suites of two bundles ---*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Suites are matched by method name, the first of a name on each side as
// the runtime's reader takes it; test cases by position. Tensors compare by
// type, shape and bytes, wherever the bytes lie in either file.
//
//===----------------------------------------------------------------------===//

#include "DiffInternal.h"

#include "emit/Dialect/ET/IR/ETOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace emit;
using namespace emit::diff;
using namespace emit::et;

/// The first suite of each method name of `side`, in order.
static SmallVector<TestSuiteOp> firstSuites(Side &side) {
  SmallVector<TestSuiteOp> suites;
  if (!side.bundle)
    return suites;
  llvm::StringSet<> seen;
  for (TestSuiteOp suite : side.bundle.getTestSuites())
    if (seen.insert(suite.getMethod()).second)
      suites.push_back(suite);
  return suites;
}

static unsigned countCases(TestSuiteOp suite) {
  return llvm::range_size(suite.getTestCases());
}

/// Whether two test values are the same: a tensor's type, shape and bytes.
static bool sameValue(Attribute oldValue, Attribute newValue, Side &oldSide,
                      Side &newSide, ByteComparator &bytes) {
  auto oldTensor = dyn_cast<TestTensorAttr>(oldValue);
  auto newTensor = dyn_cast<TestTensorAttr>(newValue);
  if (!oldTensor || !newTensor)
    return oldValue == newValue;
  if (oldTensor.getScalarType() != newTensor.getScalarType() ||
      oldTensor.getSizes() != newTensor.getSizes() ||
      oldTensor.getDimOrder() != newTensor.getDimOrder())
    return false;
  std::optional<ArrayRef<char>> oldBytes = oldSide.bytesOf(oldTensor.getData());
  std::optional<ArrayRef<char>> newBytes = newSide.bytesOf(newTensor.getData());
  return oldBytes && newBytes && bytes.equal(*oldBytes, *newBytes);
}

/// The first difference between two lists of values, named `what`.
static std::optional<std::string>
firstDifference(ArrayAttr oldValues, ArrayAttr newValues, StringRef what,
                Side &oldSide, Side &newSide, ByteComparator &bytes) {
  if (oldValues.size() != newValues.size())
    return (Twine(oldValues.size()) + " -> " + Twine(newValues.size()) + " " +
            what + "s")
        .str();
  for (auto [index, oldValue, newValue] : llvm::enumerate(oldValues, newValues))
    if (!sameValue(oldValue, newValue, oldSide, newSide, bytes))
      return (what + " " + Twine(index) + " differs").str();
  return std::nullopt;
}

/// The first difference between two suites of one method, or empty.
static std::string compareSuite(TestSuiteOp oldSuite, TestSuiteOp newSuite,
                                Side &oldSide, Side &newSide,
                                ByteComparator &bytes) {
  for (auto [index, oldCase, newCase] :
       llvm::enumerate(oldSuite.getTestCases(), newSuite.getTestCases())) {
    std::optional<std::string> difference =
        firstDifference(oldCase.getInputs(), newCase.getInputs(), "input",
                        oldSide, newSide, bytes);
    if (!difference)
      difference = firstDifference(oldCase.getExpected(), newCase.getExpected(),
                                   "expected output", oldSide, newSide, bytes);
    if (difference)
      return "test case " + std::to_string(index) + ": " + *difference;
  }
  unsigned oldCases = countCases(oldSuite), newCases = countCases(newSuite);
  if (oldCases != newCases)
    return "test cases " + std::to_string(std::min(oldCases, newCases)) +
           (oldCases < newCases ? " on added" : " on removed");
  return "";
}

void diff::compareTestSuites(Side &oldSide, Side &newSide,
                             ByteComparator &bytes, DiffReport &report) {
  SmallVector<TestSuiteOp> oldSuites = firstSuites(oldSide);
  SmallVector<TestSuiteOp> newSuites = firstSuites(newSide);
  llvm::StringMap<TestSuiteOp> newByMethod;
  for (TestSuiteOp suite : newSuites)
    newByMethod[suite.getMethod()] = suite;
  for (TestSuiteOp oldSuite : oldSuites) {
    TestSuiteOp newSuite = newByMethod.lookup(oldSuite.getMethod());
    TestSuiteDiff diff{DiffChange::Removed, oldSuite.getMethod().str(),
                       countCases(oldSuite), 0, ""};
    if (newSuite) {
      diff.change = DiffChange::Changed;
      diff.newCases = countCases(newSuite);
      diff.firstDifference =
          compareSuite(oldSuite, newSuite, oldSide, newSide, bytes);
      if (diff.firstDifference.empty())
        continue;
    }
    report.testSuites.push_back(std::move(diff));
  }
  llvm::StringSet<> oldMethods;
  for (TestSuiteOp suite : oldSuites)
    oldMethods.insert(suite.getMethod());
  for (TestSuiteOp newSuite : newSuites)
    if (!oldMethods.contains(newSuite.getMethod()))
      report.testSuites.push_back({DiffChange::Added,
                                   newSuite.getMethod().str(), 0,
                                   countCases(newSuite), ""});
}
