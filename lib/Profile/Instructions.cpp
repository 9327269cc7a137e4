//===- Instructions.cpp - What a program says of an instruction -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Instructions.h"

#include "Events.h"

using namespace emit;
using namespace emit::profile;

std::optional<std::string> profile::whyNotInstruction(const MethodModel &method,
                                                      StringRef name,
                                                      bool delegateEvent,
                                                      int64_t chain,
                                                      int64_t instruction) {
  if (chain < 0 || chain >= method.getChainCount())
    return ("chain " + Twine(chain) + " is past the method's " +
            Twine(method.getChainCount()) + " chain(s)")
        .str();
  std::optional<uint32_t> slot = method.getSlot(chain, instruction);
  if (!slot)
    return ("instruction " + Twine(instruction) + " is past chain " +
            Twine(chain) + " (" + Twine(method.getInstructionCount(chain)) +
            " instructions)")
        .str();
  const InstructionModel &found = method.getInstructions()[*slot];
  EventClass event = classifyEvent(name, delegateEvent);
  std::optional<InstructionKind> expected = event.instruction;
  if (event.kind == EventKind::Kernel) {
    StringRef kernel = event.kernel;
    const OperatorModel *op = method.getOperator(found);
    StringRef called = op ? StringRef(op->kernelName) : "";
    if (found.kind == InstructionKind::Kernel && called != kernel)
      return ("instruction " + Twine(instruction) + " of chain " +
              Twine(chain) + " calls " + called + ", not " + kernel)
          .str();
  }
  if (expected && *expected != found.kind)
    return ("instruction " + Twine(instruction) + " of chain " + Twine(chain) +
            " is a " + getInstructionKindName(found.kind) + " call, not a " +
            getInstructionKindName(*expected) + " call")
        .str();
  return std::nullopt;
}

static Operand describeValue(const MethodModel &method, int32_t index) {
  Operand operand{static_cast<uint32_t>(index),
                  ValueKind::Unknown,
                  "",
                  {},
                  0,
                  std::nullopt,
                  0};
  if (index < 0 || static_cast<size_t>(index) >= method.getValueCount())
    return operand;
  operand.kind = method.getValueKind(index);
  std::optional<TensorModel> tensor = method.getTensor(index);
  if (!tensor)
    return operand;
  operand.dtype = tensor->scalarType
                      ? et::stringifyScalarType(*tensor->scalarType).str()
                      : std::to_string(tensor->rawScalarType);
  operand.shape.assign(tensor->getSizes().begin(), tensor->getSizes().end());
  operand.bytes = tensor->getBytes().value_or(0);
  if (tensor->planned) {
    operand.buffer = tensor->memoryId;
    operand.offset = tensor->offset;
  }
  return operand;
}

InstructionInfo profile::describeInstruction(const MethodModel &method,
                                             uint32_t chain,
                                             uint32_t instruction) {
  InstructionInfo info;
  std::optional<uint32_t> slot = method.getSlot(chain, instruction);
  if (!slot)
    return info;
  const InstructionModel &found = method.getInstructions()[*slot];
  info.kind = found.kind;
  info.name = method.getCallee(found).str();
  if (const DelegateModel *delegate = method.getDelegate(found)) {
    info.payloadBytes = delegate->payloadBytes;
    for (const CompileSpecModel &spec : delegate->compileSpecs)
      info.compileSpecs.push_back(spec.key.str());
  }
  for (int32_t arg : found.args)
    info.operands.push_back(describeValue(method, arg));
  return info;
}
