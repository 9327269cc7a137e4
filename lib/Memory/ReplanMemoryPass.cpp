//===- ReplanMemoryPass.cpp - Re-plan the memory of a module's programs ---===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The plan is made on the file model, so that the lifetimes are the very
// ones emit-memory and emit-verify read (one data flow): each program is
// written in memory as the runtime would read it, modelled, re-planned, and
// the new places set on its tensors by value index (an `et.method` declares
// its values in the file's order).
//
//===----------------------------------------------------------------------===//

#include "emit/Memory/Passes.h"

#include "emit/DelegateCalls/DelegateCalls.h"
#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Support/FileBuffer.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/Builders.h"

namespace emit::memory {
#define GEN_PASS_DEF_REPLANMEMORY
#include "emit/Memory/Passes.h.inc"
} // namespace emit::memory

using namespace mlir;
using namespace emit;
using namespace emit::memory;

/// Sets `plan`'s places and buffer sizes on `method`.
static void applyPlan(et::MethodOp method, const MethodPlan &plan) {
  Builder builder(method.getContext());
  // A method the plan leaves as it is keeps its attribute as it is (absent
  // stays absent).
  if (plan.isUnchanged())
    return;
  method.setBuffersAttr(builder.getDenseI64ArrayAttr(plan.bufferSizes));
  SmallVector<Operation *> decls = method.getValueDecls();
  for (const Placement &placement : plan.placements) {
    auto tensor = cast<et::TensorOp>(decls[placement.value]);
    tensor.setMemoryIdAttr(builder.getI32IntegerAttr(placement.memoryId));
    tensor.setMemoryOffsetAttr(builder.getI64IntegerAttr(placement.offset));
  }
}

/// Re-plans `program`, whose file is `file`, as `options` says, adding the
/// report to `reports`.
static LogicalResult replanProgram(et::ProgramOp program,
                                   const ProgramFile &file,
                                   const ReplanOptions &options,
                                   std::vector<ReplanReport> *reports) {
  ProgramModel model(file);
  delegate::DelegateCalls calls(model, {});
  std::string error;
  FailureOr<ReplanReport> report = replanMemory(model, calls, options, error);
  if (failed(report))
    return emitError(program.getLoc(), "cannot re-plan memory: ") << error;
  SmallVector<et::MethodOp> methods(program.getOps<et::MethodOp>());
  for (const MethodPlan &plan : report->methods)
    applyPlan(methods[plan.index], plan);
  if (reports)
    reports->push_back(std::move(*report));
  return success();
}

/// Re-plans `program` from the file it writes, as the runtime would read it.
static LogicalResult replanProgram(et::ProgramOp program,
                                   const ReplanOptions &options,
                                   std::vector<ReplanReport> *reports) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (failed(translateToPTE(program, os)))
    return failure();
  os.flush();
  std::string error;
  std::unique_ptr<CheckedFile> file = openReadableFile(
      FileBuffer::view(bytes, program.getSymName()), OpenAs::Program, error);
  if (!file)
    return emitError(program.getLoc(), "cannot re-plan memory: ") << error;
  return replanProgram(program, *getProgramOf(*file), options, reports);
}

LogicalResult memory::replanModule(ModuleOp module,
                                   const ReplanOptions &options,
                                   std::vector<ReplanReport> *reports,
                                   const ProgramFile *origin) {
  // Top-level programs and those bundles embed.
  SmallVector<et::ProgramOp> programs;
  module.walk([&](et::ProgramOp program) {
    programs.push_back(program);
    return WalkResult::skip();
  });
  if (origin && programs.size() == 1)
    return replanProgram(programs.front(), *origin, options, reports);
  for (et::ProgramOp program : programs)
    if (failed(replanProgram(program, options, reports)))
      return failure();
  return success();
}

namespace {
struct ReplanMemoryPass
    : public memory::impl::ReplanMemoryBase<ReplanMemoryPass> {
  using ReplanMemoryBase::ReplanMemoryBase;
  ReplanMemoryPass(const ReplanOptions &options,
                   std::vector<ReplanReport> *reports)
      : given(options), reports(reports) {}

  void runOnOperation() override {
    std::optional<ReplanOptions> options = getOptions();
    if (!options)
      return signalPassFailure();
    if (failed(replanModule(getOperation(), *options, reports)))
      return signalPassFailure();
  }

  /// The options given to the constructor, or those of the pass's textual
  /// options (emit-opt), checked.
  std::optional<ReplanOptions> getOptions() {
    if (given)
      return given;
    ReplanOptions options;
    if (alignment == 0 || (alignment & (alignment - 1))) {
      emitError(getOperation().getLoc(), "et-replan-memory: alignment ")
          << alignment.getValue() << " is not a power of two";
      return std::nullopt;
    }
    options.alignment = alignment;
    std::string error;
    if (!fastMemory.empty() &&
        failed(parseFastMemory(fastMemory, options, error))) {
      emitError(getOperation().getLoc(), "et-replan-memory: fast-memory=")
          << error;
      return std::nullopt;
    }
    return options;
  }

  std::optional<ReplanOptions> given;
  std::vector<ReplanReport> *reports = nullptr;
};
} // namespace

std::unique_ptr<Pass>
memory::createReplanMemoryPass(const ReplanOptions &options,
                               std::vector<ReplanReport> *reports) {
  return std::make_unique<ReplanMemoryPass>(options, reports);
}
