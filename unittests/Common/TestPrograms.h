//===- TestPrograms.h - Programs built for unit tests -----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Small programs written with the flatbuffer API, as ExecuTorch's emitter
// lays them out, apart from the readers the tests check: one method, `f`,
// of kernel calls over a few float tensors.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_UNITTESTS_COMMON_TESTPROGRAMS_H
#define EMIT_UNITTESTS_COMMON_TESTPROGRAMS_H

#include "emit/File/program_generated.h"

#include <string>
#include <vector>

namespace emit::test {

/// A kernel call: the operator's index and its arguments.
struct Call {
  int32_t op;
  std::vector<int32_t> args;
};

/// What a test program holds beside its calls.
struct ProgramShape {
  /// Float tensors of two elements, values 0 to tensors - 1; an int (1)
  /// follows them.
  int tensors = 3;
  std::vector<int32_t> inputs = {0, 1};
  std::vector<int32_t> outputs;
};

/// A program of one method, `f`, calling `calls` of the operators `ops`
/// (each with overload `out`).
inline std::string buildProgram(const std::vector<const char *> &ops,
                                const std::vector<Call> &calls,
                                const ProgramShape &shape = {}) {
  namespace fb = executorch_flatbuffer;
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::EValue>> values;
  std::vector<int32_t> sizes = {2}, none;
  std::vector<uint8_t> dimOrder = {0};
  for (int i = 0; i < shape.tensors; ++i)
    values.push_back(fb::CreateEValue(
        fbb, fb::KernelTypes::Tensor,
        fb::CreateTensorDirect(fbb, fb::ScalarType::FLOAT, 0, &sizes, &dimOrder)
            .Union()));
  values.push_back(fb::CreateEValue(fbb, fb::KernelTypes::Int,
                                    fb::CreateInt(fbb, 1).Union()));
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
  for (const Call &call : calls)
    instructions.push_back(fb::CreateInstruction(
        fbb, fb::InstructionArguments::KernelCall,
        fb::CreateKernelCallDirect(fbb, call.op, &call.args).Union()));
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {
      fb::CreateChainDirect(fbb, &none, &none, &instructions)};
  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  for (const char *op : ops)
    operators.push_back(fb::CreateOperatorDirect(fbb, op, "out"));
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
  std::vector<int64_t> buffers = {0};
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {
      fb::CreateExecutionPlanDirect(fbb, "f", 0, &values, &shape.inputs,
                                    &shape.outputs, &chains, &operators,
                                    &delegates, &buffers)};
  fbb.Finish(fb::CreateProgramDirect(fbb, 0, &plans), fb::ProgramIdentifier());
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

} // namespace emit::test

#endif // EMIT_UNITTESTS_COMMON_TESTPROGRAMS_H
