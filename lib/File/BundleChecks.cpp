//===- BundleChecks.cpp - A .bpte, and its program --------------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle is read as the runtime's bundled-program reader reads it
// (devtools/bundled_program/bundled_program.cpp at the snapshot): its
// identifier, then the program's bytes (get_program_data, which verifies
// nothing: a bundle that fails verification is one the runtime reads out of
// bounds), then per method the suite of its name, whose test case inputs
// load_bundled_input sets one per method input (reading past a test case
// with fewer) and set_input checks against the method's inputs.
//
//===----------------------------------------------------------------------===//

#include "FindingReport.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/BundleFile.h"
#include "emit/File/ReadScalars.h"
#include "emit/File/bundled_program_generated.h"
#include "emit/File/program_generated.h"
#include "emit/Support/FileFormat.h"
#include "emit/Support/Layout.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace emit;
namespace bp = bundled_program_flatbuffer;
namespace fb = executorch_flatbuffer;

namespace emit {
/// Reads and checks one bundle, filling in its BundleFile.
class BundleChecker : FileChecker<BundleFile> {
public:
  explicit BundleChecker(BundleFile &file) : FileChecker(file) {}
  void run();

private:
  LogicalResult verifyFlatbuffer();
  LogicalResult openProgram();
  /// Warns when the program's start lowers the alignment its segments have
  /// within it.
  void checkProgramAlignment();
  /// Every test value is one the runtime and the import know: a kind the
  /// schema has, a tensor of a scalar type ExecuTorch has; and every vector
  /// the runtime's reader dereferences is there.
  void checkValueKinds();
  /// Reports `vector`, a field of `table` at `where`, when it is absent.
  void checkAbsent(const void *vector, const void *table, const Twine &where);
  void checkValueKind(const bp::Value *value, const Twine &where);
  void checkSuites();
  /// Suite `index`, of a method of `plan`.
  void checkSuite(const bp::BundledMethodTestSuite *suite,
                  const fb::ExecutionPlan *plan, const Twine &where);
  void checkTestCase(const bp::BundledMethodTestCase *testCase,
                     const fb::ExecutionPlan *plan, const Twine &where);
  /// Input `value` of a test case, for the method input `input`.
  void checkInput(const bp::Value *value, const fb::EValue *input,
                  const Twine &where);
  /// A bundled tensor's data holds what its type and sizes need.
  void checkTensorData(const bp::Tensor *tensor, const Twine &where);

  const bp::BundledProgram *bundle = nullptr;
};
} // namespace emit

std::unique_ptr<BundleFile>
BundleFile::open(std::shared_ptr<const FileBuffer> buffer) {
  std::unique_ptr<BundleFile> file(new BundleFile(std::move(buffer)));
  BundleChecker(*file).run();
  return file;
}

Finding BundleFile::toBundleFinding(Finding finding) const {
  finding.file = getName().str();
  finding.offset += programOffset;
  finding.path = finding.path.empty() ? "program" : "program." + finding.path;
  return finding;
}

void BundleChecker::run() {
  if (failed(
          checkIdentifier(sink, bytes, pte::kBundledIdentifier, ".bpte", 8)) ||
      failed(verifyFlatbuffer()) || failed(openProgram())) {
    file.setReadable();
    return;
  }
  for (const Finding &finding : file.program->getFindings().findings)
    sink.report(file.toBundleFinding(finding));
  checkProgramAlignment();
  checkValueKinds();
  checkSuites();
  file.setReadable();
}

LogicalResult BundleChecker::verifyFlatbuffer() {
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(),
      /*_max_depth=*/64, /*_max_tables=*/bytes.size() / 4 + 64);
  if (!bp::VerifyBundledProgramBuffer(verifier))
    return error(Check::Flatbuffer, 0, "BundledProgram")
               .setRuntime(RuntimeLoad::Crashes)
               .detail("; the runtime's bundled-program reader reads it "
                       "unverified, out of bounds")
           << "the flatbuffer fails verification: the file is truncated or "
              "corrupt";
  bundle = bp::GetBundledProgram(bytes.data());
  file.bundle = bundle;
  return success();
}

LogicalResult BundleChecker::openProgram() {
  const flatbuffers::Vector<uint8_t> *program = bundle->program();
  if (!program)
    return error(Check::BundleProgram, offsetOf(bundle), "program")
           << "the bundle holds no program";
  file.programOffset = offsetOf(program->data());
  file.program = ProgramFile::open(
      FileBuffer::slice(file.getBuffer(), file.programOffset, program->size(),
                        (file.getName() + "(program)").str()));
  return success();
}

void BundleChecker::checkProgramAlignment() {
  const ProgramFile &program = *file.program;
  if (!program.isReadable())
    return;
  // What the program's segments show of their alignment, as an import
  // records it.
  uint64_t needed = program.getInlineDataAlignment();
  SmallVector<SegmentPlacement> segments = program.getSegmentPlacements();
  layout::InferredSegments inferred =
      layout::inferSegmentAlignments(program.getSegmentBase(), segments);
  for (auto [segment, alignment] :
       llvm::zip_equal(segments, inferred.alignments))
    if (segment.size) // An empty segment's start says nothing.
      needed = std::max(needed, alignment.value_or(1));
  if (file.programOffset % needed == 0)
    return;
  // The largest power of two dividing the offset (less than `needed`).
  uint64_t has = uint64_t(1) << llvm::countr_zero(file.programOffset);
  error(Check::BundleProgramAlignment, file.programOffset, "program").warning()
      << "the program starts at byte " << file.programOffset << ", aligned to "
      << has << ", but its segments are aligned to " << needed
      << " within it: in this bundle they are aligned to " << has << " only";
}

void BundleChecker::checkAbsent(const void *vector, const void *table,
                                const Twine &where) {
  if (vector)
    return;
  error(Check::BundleTestCase, offsetOf(table), where)
          .setImport(ImportEffect::Inexact)
          .detail("; the runtime's bundled-program reader dereferences it "
                  "(a crash when the test runs), and the import would "
                  "write it present")
      << "the field is absent";
}

void BundleChecker::checkValueKinds() {
  const auto *suites = bundle->method_test_suites();
  checkAbsent(suites, bundle, "method_test_suites");
  if (!suites)
    return;
  for (auto [index, suite] : llvm::enumerate(*suites)) {
    std::string path = ("method_test_suites[" + Twine(index) + "]").str();
    checkAbsent(suite->method_name(), suite, path + ".method_name");
    checkAbsent(suite->test_cases(), suite, path + ".test_cases");
    if (!suite->test_cases())
      continue;
    for (auto [caseIndex, testCase] : llvm::enumerate(*suite->test_cases())) {
      std::string where =
          (path + ".test_cases[" + Twine(caseIndex) + "]").str();
      for (auto [name, values] :
           {std::pair("inputs", testCase->inputs()),
            std::pair("expected_outputs", testCase->expected_outputs())}) {
        checkAbsent(values, testCase, where + "." + name);
        if (values)
          for (auto [valueIndex, value] : llvm::enumerate(*values))
            checkValueKind(value,
                           where + "." + name + "[" + Twine(valueIndex) + "]");
      }
    }
  }
}

void BundleChecker::checkValueKind(const bp::Value *value, const Twine &where) {
  if (value->val_type() > bp::ValueUnion::MAX) {
    error(Check::BundleValue, offsetOf(value), where + ".val_type")
            .detail("; load_bundled_input refuses it")
        << "value kind " << static_cast<int>(value->val_type())
        << " is none a bundle has (tensor, int, bool, double)";
    return;
  }
  const bp::Tensor *tensor = value->val_as_Tensor();
  if (!tensor)
    return;
  checkAbsent(tensor->sizes(), tensor, where + ".sizes");
  checkAbsent(tensor->data(), tensor, where + ".data");
  checkAbsent(tensor->dim_order(), tensor, where + ".dim_order");
  if (!et::symbolizeScalarType(static_cast<uint32_t>(tensor->scalar_type())))
    error(Check::BundleValue, offsetOf(tensor), where + ".scalar_type")
            .detail("; the runtime cannot make a tensor of it")
        << "scalar type " << static_cast<int>(tensor->scalar_type())
        << " is none ExecuTorch has";
}

/// The method of `program` named `name`, if any.
static const fb::ExecutionPlan *findMethod(const fb::Program *program,
                                           StringRef name) {
  for (const fb::ExecutionPlan *plan : *program->execution_plan())
    if (plan->name() && StringRef(plan->name()->string_view()) == name)
      return plan;
  return nullptr;
}

void BundleChecker::checkSuites() {
  const auto *suites = bundle->method_test_suites();
  const fb::Program *program = file.program->getProgram();
  if (!suites || !program || !file.program->isReadable())
    return;
  llvm::StringMap<unsigned> seen;
  for (auto [index, suite] : llvm::enumerate(*suites)) {
    std::string where = ("method_test_suites[" + Twine(index) + "]").str();
    StringRef name;
    if (suite->method_name())
      name = suite->method_name()->string_view();
    const fb::ExecutionPlan *plan = findMethod(program, name);
    auto [it, inserted] = seen.try_emplace(name, index);
    if (!plan || !inserted) {
      FindingReport report =
          error(Check::BundleMethod, offsetOf(suite), where + ".method_name");
      report.importIgnores();
      if (!plan)
        report << "the program has no method '" << name
               << "'; the runtime's reader finds no suite for any method of "
                  "that name";
      else
        report << "method '" << name << "' also has method_test_suites["
               << it->second << "]; the runtime's reader uses the first";
      continue;
    }
    checkSuite(suite, plan, where + " '" + name + "'");
  }
}

void BundleChecker::checkSuite(const bp::BundledMethodTestSuite *suite,
                               const fb::ExecutionPlan *plan,
                               const Twine &where) {
  if (!suite->test_cases())
    return;
  for (auto [index, testCase] : llvm::enumerate(*suite->test_cases()))
    checkTestCase(testCase, plan, where + ".test_cases[" + Twine(index) + "]");
}

void BundleChecker::checkTestCase(const bp::BundledMethodTestCase *testCase,
                                  const fb::ExecutionPlan *plan,
                                  const Twine &where) {
  uint32_t inputs = testCase->inputs() ? testCase->inputs()->size() : 0;
  uint32_t methodInputs = plan->inputs()->size();
  if (inputs != methodInputs) {
    error(Check::BundleTestCase, offsetOf(testCase), where + ".inputs")
            .importIgnores()
            .detail(inputs < methodInputs
                        ? "; load_bundled_input reads past the test case's "
                          "inputs"
                        : "; load_bundled_input sets the first ones only")
        << "the test case has " << inputs << " inputs, the method "
        << methodInputs;
  }
  uint32_t outputs =
      testCase->expected_outputs() ? testCase->expected_outputs()->size() : 0;
  if (outputs == 0 && plan->outputs()->size() > 0)
    error(Check::BundleTestCase, offsetOf(testCase),
          where + ".expected_outputs")
            .importIgnores()
            .detail("; verify_method_outputs fails for it")
        << "the test case expects no outputs; the method has "
        << plan->outputs()->size();
  const auto *values = plan->values();
  for (uint32_t index = 0, end = std::min(inputs, methodInputs); index < end;
       ++index) {
    int32_t input = plan->inputs()->Get(index);
    if (input >= 0 && static_cast<uint32_t>(input) < values->size())
      checkInput(testCase->inputs()->Get(index), values->Get(input),
                 where + ".inputs[" + Twine(index) + "]");
  }
  if (testCase->expected_outputs())
    for (auto [index, output] : llvm::enumerate(*testCase->expected_outputs()))
      if (const bp::Tensor *tensor = output->val_as_Tensor())
        checkTensorData(tensor,
                        where + ".expected_outputs[" + Twine(index) + "]");
}

using Kind = BundledValue::Kind;

/// The kind of a bundled value, as messages name it.
static StringRef getKindName(Kind kind) {
  switch (kind) {
  case Kind::Tensor:
    return "a tensor";
  case Kind::Int:
    return "an int";
  case Kind::Bool:
    return "a bool";
  case Kind::Double:
    return "a double";
  default:
    return "no value";
  }
}

static std::string joinSizes(ArrayRef<int32_t> sizes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(sizes, os);
  return text;
}

static std::string getScalarTypeName(int32_t type) {
  if (auto known = et::symbolizeScalarType(static_cast<uint32_t>(type)))
    return et::stringifyScalarType(*known).str();
  return std::to_string(type);
}

static std::string formatDouble(double value) {
  return llvm::formatv("{0}", value).str();
}

/// Whether set_input takes double `given` for one traced as `traced`: equal
/// within its tolerances, NaN to NaN, an infinity to one of its sign.
static bool doublesMatch(double given, double traced) {
  if (std::isnan(given) || std::isnan(traced))
    return std::isnan(given) && std::isnan(traced);
  if (!std::isfinite(given) || !std::isfinite(traced))
    return given == traced;
  return std::fabs(given - traced) <= 1e-4 + 1e-5 * std::fabs(traced);
}

std::optional<InputMismatch>
emit::getInputMismatch(const BundledValue &input,
                       const BundledValue &methodInput) {
  auto mismatch = [](StringRef field, const Twine &message) {
    return InputMismatch{field.str(), message.str()};
  };
  if (methodInput.kind == Kind::None || methodInput.kind == Kind::Other)
    return std::nullopt; // An input set_input takes no bundled value for.
  if (input.kind != methodInput.kind)
    return mismatch("", "the input is " + getKindName(input.kind) +
                            ", the method's " + getKindName(methodInput.kind));
  switch (input.kind) {
  case Kind::Tensor:
    if (input.scalarType != methodInput.scalarType)
      return mismatch("scalar_type",
                      "scalar type " + getScalarTypeName(input.scalarType) +
                          ", the method's input " +
                          getScalarTypeName(methodInput.scalarType));
    if (input.sizes.size() != methodInput.sizes.size() ||
        (!methodInput.dynamic && input.sizes != methodInput.sizes))
      return mismatch(
          "sizes",
          "sizes [" + joinSizes(input.sizes) + "], the method's input [" +
              joinSizes(methodInput.sizes) + "]" +
              (methodInput.dynamic ? " (dynamic: the same rank)" : ""));
    if (input.dimOrder != methodInput.dimOrder)
      return mismatch("dim_order",
                      "dim order [" + joinSizes(input.dimOrder) +
                          "], the method's input [" +
                          joinSizes(methodInput.dimOrder) +
                          "]: set_input copies the bytes as they are, in "
                          "the method's layout");
    return std::nullopt;
  case Kind::Int:
    if (input.intValue != methodInput.intValue)
      return mismatch("", "int " + Twine(input.intValue) +
                              ", the method was traced with " +
                              Twine(methodInput.intValue));
    return std::nullopt;
  case Kind::Bool:
    if (input.boolValue != methodInput.boolValue)
      return mismatch("", Twine("bool ") +
                              (input.boolValue ? "true" : "false") +
                              ", the method was traced with " +
                              (methodInput.boolValue ? "true" : "false"));
    return std::nullopt;
  case Kind::Double:
    if (!doublesMatch(input.doubleValue, methodInput.doubleValue))
      return mismatch("", "double " + formatDouble(input.doubleValue) +
                              ", the method was traced with " +
                              formatDouble(methodInput.doubleValue));
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// A bundled value as the fit rule sees it.
static BundledValue describe(const bp::Value *value) {
  switch (value->val_type()) {
  case bp::ValueUnion::NONE:
    return {};
  case bp::ValueUnion::Tensor: {
    const bp::Tensor *tensor = value->val_as_Tensor();
    SmallVector<int32_t> dimOrder;
    if (tensor->dim_order())
      dimOrder.assign(tensor->dim_order()->begin(), tensor->dim_order()->end());
    return BundledValue::tensor(static_cast<int32_t>(tensor->scalar_type()),
                                readScalars(tensor->sizes()), dimOrder);
  }
  case bp::ValueUnion::Int:
    return BundledValue::ofInt(value->val_as_Int()->int_val());
  case bp::ValueUnion::Bool:
    return BundledValue::ofBool(value->val_as_Bool()->bool_val());
  case bp::ValueUnion::Double:
    return BundledValue::ofDouble(value->val_as_Double()->double_val());
  default:
    return {Kind::Other};
  }
}

/// A method input as the fit rule sees it.
static BundledValue describe(const fb::EValue *input) {
  switch (input->val_type()) {
  case fb::KernelTypes::Tensor: {
    const fb::Tensor *tensor = input->val_as_Tensor();
    return BundledValue::tensor(
        static_cast<int32_t>(tensor->scalar_type()),
        readScalars(tensor->sizes()),
        SmallVector<int32_t>(tensor->dim_order()->begin(),
                             tensor->dim_order()->end()),
        tensor->shape_dynamism() != fb::TensorShapeDynamism::STATIC);
  }
  case fb::KernelTypes::Int:
    return BundledValue::ofInt(input->val_as_Int()->int_val());
  case fb::KernelTypes::Bool:
    return BundledValue::ofBool(input->val_as_Bool()->bool_val());
  case fb::KernelTypes::Double:
    return BundledValue::ofDouble(input->val_as_Double()->double_val());
  case fb::KernelTypes::Null:
    return {};
  default:
    return {Kind::Other};
  }
}

void BundleChecker::checkInput(const bp::Value *value, const fb::EValue *input,
                               const Twine &where) {
  if (std::optional<InputMismatch> mismatch =
          getInputMismatch(describe(value), describe(input))) {
    const void *table = value;
    if (!mismatch->field.empty())
      table = value->val_as_Tensor();
    error(Check::BundleValue, offsetOf(table),
          mismatch->field.empty() ? where.str()
                                  : (where + "." + mismatch->field).str())
            .importIgnores()
            .detail(mismatch->field == "dim_order" ? ""
                                                   : "; set_input refuses it")
        << mismatch->message;
    if (mismatch->field.empty())
      return; // Not a tensor of the method's: its data says nothing.
  }
  if (const bp::Tensor *tensor = value->val_as_Tensor())
    checkTensorData(tensor, where);
}

void BundleChecker::checkTensorData(const bp::Tensor *tensor,
                                    const Twine &where) {
  auto type =
      et::symbolizeScalarType(static_cast<uint32_t>(tensor->scalar_type()));
  if (!type)
    return;
  // 0 when the count overflows: nothing to check it against.
  uint64_t needed =
      et::getTensorByteSize(*type, readScalars(tensor->sizes())).value_or(0);
  uint64_t has = tensor->data() ? tensor->data()->size() : 0;
  if (!needed || has >= needed)
    return;
  error(Check::BundleValue, offsetOf(tensor), where + ".data")
          .importIgnores()
          .detail("; the runtime reads past it")
      << "the tensor's data holds " << has << " bytes; its type and sizes "
      << "need " << needed;
}
