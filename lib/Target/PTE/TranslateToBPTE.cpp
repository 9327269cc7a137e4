//===- TranslateToBPTE.cpp - Write an et.bundle as a .bpte ------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle is one flatbuffer whose `program` vector holds a whole .pte. The
// program is laid out first (its size and the alignment its start needs are
// then known), the suites are built into a flatbuffer whose last object is
// an empty `program` vector, and the file is that flatbuffer up to the
// vector, padding that puts the vector's data where the program keeps its
// alignment, the program's length, and the program streamed: payloads go
// file to file, never through a copy of the program in memory.
//
//===----------------------------------------------------------------------===//

#include "emit/Target/PTE/PTE.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/bundled_program_generated.h"
#include "emit/Support/FileFormat.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace emit;
using namespace emit::et;
namespace bp = bundled_program_flatbuffer;
using flatbuffers::Offset;

/// The alignment the schema forces on the program vector.
static constexpr uint64_t kProgramVectorAlignment = 32;
/// The alignment the schema forces on a test tensor's data.
static constexpr uint64_t kTensorDataAlignment = 16;

namespace {
/// Builds the flatbuffer of one bundle, its program vector empty and last.
class BundleBuilder {
public:
  explicit BundleBuilder(BundleOp bundle) : bundle(bundle) {}

  /// Builds and finishes the flatbuffer.
  LogicalResult build();
  ArrayRef<char> getBuffer() const {
    return {reinterpret_cast<const char *>(builder.GetBufferPointer()),
            builder.GetSize()};
  }
  /// Where, in getBuffer(), the root table's offset to the program vector
  /// is.
  uint64_t getProgramFieldOffset() const;

private:
  FailureOr<Offset<flatbuffers::Vector<Offset<bp::Value>>>>
  buildValues(TestCaseOp testCase, ArrayAttr values);
  FailureOr<Offset<bp::Value>> buildValue(TestCaseOp testCase, Attribute value);
  FailureOr<Offset<bp::Tensor>> buildTensor(TestCaseOp testCase,
                                            TestTensorAttr tensor);

  BundleOp bundle;
  flatbuffers::FlatBufferBuilder builder{4096};
  SplatStorage splats;
};
} // namespace

LogicalResult BundleBuilder::build() {
  // Created first, so that it ends the buffer.
  auto program = builder.CreateVector(static_cast<const uint8_t *>(nullptr), 0);
  std::vector<Offset<bp::BundledMethodTestSuite>> suites;
  for (TestSuiteOp suite : bundle.getTestSuites()) {
    std::vector<Offset<bp::BundledMethodTestCase>> cases;
    for (TestCaseOp testCase : suite.getTestCases()) {
      auto inputs = buildValues(testCase, testCase.getInputs());
      auto expected = buildValues(testCase, testCase.getExpected());
      if (failed(inputs) || failed(expected))
        return failure();
      cases.push_back(
          bp::CreateBundledMethodTestCase(builder, *inputs, *expected));
    }
    auto name = builder.CreateString(suite.getMethod().data(),
                                     suite.getMethod().size());
    suites.push_back(bp::CreateBundledMethodTestSuite(
        builder, name, builder.CreateVector(cases)));
  }
  auto root = bp::CreateBundledProgram(builder, bundle.getVersion().value_or(0),
                                       builder.CreateVector(suites), program);
  builder.Finish(root, pte::kBundledIdentifier);
  return success();
}

uint64_t BundleBuilder::getProgramFieldOffset() const {
  const auto *root = reinterpret_cast<const flatbuffers::Table *>(
      bp::GetBundledProgram(builder.GetBufferPointer()));
  return root->GetAddressOf(bp::BundledProgram::VT_PROGRAM) -
         builder.GetBufferPointer();
}

FailureOr<Offset<flatbuffers::Vector<Offset<bp::Value>>>>
BundleBuilder::buildValues(TestCaseOp testCase, ArrayAttr values) {
  std::vector<Offset<bp::Value>> built;
  for (Attribute value : values) {
    FailureOr<Offset<bp::Value>> one = buildValue(testCase, value);
    if (failed(one))
      return failure();
    built.push_back(*one);
  }
  return builder.CreateVector(built);
}

FailureOr<Offset<bp::Value>> BundleBuilder::buildValue(TestCaseOp testCase,
                                                       Attribute value) {
  if (auto tensor = dyn_cast<TestTensorAttr>(value)) {
    FailureOr<Offset<bp::Tensor>> built = buildTensor(testCase, tensor);
    if (failed(built))
      return failure();
    return bp::CreateValue(builder, bp::ValueUnion::Tensor, built->Union());
  }
  if (auto flag = dyn_cast<BoolAttr>(value))
    return bp::CreateValue(builder, bp::ValueUnion::Bool,
                           bp::CreateBool(builder, flag.getValue()).Union());
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return bp::CreateValue(
        builder, bp::ValueUnion::Int,
        bp::CreateInt(builder, integer.getValue().getSExtValue()).Union());
  if (auto real = dyn_cast<FloatAttr>(value))
    return bp::CreateValue(
        builder, bp::ValueUnion::Double,
        bp::CreateDouble(builder, real.getValueAsDouble()).Union());
  return bp::CreateValue(builder); // `unit`: a value of no kind.
}

FailureOr<Offset<bp::Tensor>>
BundleBuilder::buildTensor(TestCaseOp testCase, TestTensorAttr tensor) {
  std::optional<ArrayRef<char>> bytes =
      getPayloadBytes(tensor.getData(), splats);
  if (!bytes)
    return testCase.emitOpError("has a test tensor whose bytes are not "
                                "available (an elided or released resource)");
  auto sizes =
      builder.CreateVector(tensor.getSizes().data(), tensor.getSizes().size());
  builder.ForceVectorAlignment(bytes->size(), 1, kTensorDataAlignment);
  auto data = builder.CreateVector(
      reinterpret_cast<const uint8_t *>(bytes->data()), bytes->size());
  std::vector<uint8_t> dimOrder(tensor.getDimOrder().begin(),
                                tensor.getDimOrder().end());
  return bp::CreateTensor(
      builder,
      static_cast<executorch_flatbuffer::ScalarType>(tensor.getScalarType()),
      sizes, data, builder.CreateVector(dimOrder));
}

LogicalResult emit::translateToBundle(BundleOp bundle, raw_ostream &os,
                                      const PTEWriteOptions &options) {
  if (options.verify && failed(verify(bundle)))
    return failure();
  if (failed(checkPayloadFiles(bundle)))
    return failure();
  PTEWriteOptions programOptions = options;
  programOptions.verify = false;
  FailureOr<PreparedPTE> program =
      preparePTE(bundle.getProgram(), programOptions);
  BundleBuilder builder(bundle);
  if (failed(program) || failed(builder.build()))
    return failure();

  // Everything before the program vector's length, then padding that puts
  // the program where it keeps its alignment.
  ArrayRef<char> buffer = builder.getBuffer();
  uint64_t head = buffer.size() - 4;
  uint64_t alignment =
      std::lcm(kProgramVectorAlignment, program->getStartAlignment());
  uint64_t programStart = llvm::alignTo(head + 4, alignment);
  uint64_t padding = programStart - (head + 4);
  uint64_t fileSize = programStart + program->getSize();
  if (fileSize > options.maxFlatbufferSize)
    return bundle.emitError("the bundle is ")
           << fileSize << " bytes, over the limit of "
           << options.maxFlatbufferSize
           << " bytes for one flatbuffer (the program is " << program->getSize()
           << "); nothing was written";

  // The root's offset to the vector moves with the padding.
  uint64_t field = builder.getProgramFieldOffset();
  uint32_t target = llvm::support::endian::read32le(buffer.data() + field);
  os.write(buffer.data(), field);
  writeLE32(os, target + padding);
  os.write(buffer.data() + field + 4, head - field - 4);
  os.write_zeros(padding);
  writeLE32(os, program->getSize());
  program->write(os);
  return success();
}
