//===- InternalizeData.cpp - The linker's internalize as a pass -*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// et-internalize-data: Linker::internalizeData over the one program of a
// module and the data files beside it, as --pte-to-pte imports them.
//
//===----------------------------------------------------------------------===//

#include "emit/Link/Passes.h"

#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Transforms/Passes.h"
#include "emit/Link/Link.h"

#include "mlir/Pass/PassManager.h"

namespace emit::link {
#define GEN_PASS_DEF_INTERNALIZEDATA
#include "emit/Link/Passes.h.inc"
} // namespace emit::link

using namespace mlir;
using namespace emit;
using namespace emit::link;

/// The file an op was read from, for messages; else its container's name.
static std::string getOrigin(Operation *op, StringRef name) {
  Location loc = op->getLoc();
  if (auto named = dyn_cast<NameLoc>(loc))
    loc = named.getChildLoc();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file.getFilename().str();
  return ("@" + name).str();
}

namespace {
struct InternalizeDataPass
    : public link::impl::InternalizeDataBase<InternalizeDataPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<et::ProgramOp> programs = et::getPrograms(module);
    if (programs.size() != 1) {
      module.emitError("et-internalize-data moves data files into one "
                       "program; the module holds ")
          << programs.size();
      return signalPassFailure();
    }
    // The linker reads keys as the current layout holds them.
    OpPassManager convert(ModuleOp::getOperationName());
    convert.addPass(et::createPTDToCurrentLayout());
    if (failed(runPipeline(convert, module)))
      return signalPassFailure();
    SmallVector<DataInput> dataFiles;
    for (et::DataFileOp dataFile : module.getOps<et::DataFileOp>())
      dataFiles.push_back(
          {getOrigin(dataFile, dataFile.getSymName()), dataFile});
    et::ProgramOp program = programs.front();
    Linker linker;
    if (failed(linker.internalizeData(
            {getOrigin(program, program.getSymName()), program}, dataFiles)))
      return signalPassFailure();
  }
};
} // namespace
