//===- ImportLocations.cpp - Where imported ops come from -------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "ImportLocations.h"

#include "emit/File/program_generated.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace emit;
namespace fb = executorch_flatbuffer;

ImportLocations::ImportLocations(const ProgramFile &file, MLIRContext *context,
                                 bool entryLocations)
    : file(file), context(context), entryLocations(entryLocations),
      fileNameAttr(StringAttr::get(context, file.getName())),
      fileLoc(FileLineColLoc::get(fileNameAttr, 0, 0)) {}

Location ImportLocations::locFor(const Twine &where, const void *table) {
  return NameLoc::get(
      StringAttr::get(context, where),
      FileLineColLoc::get(fileNameAttr, 0, table ? file.offsetOf(table) : 0));
}

void ImportLocations::setPlanPath(unsigned plan, StringRef path) {
  if (planPaths.size() <= plan)
    planPaths.resize(plan + 1);
  planPaths[plan] = path.str();
}

Location ImportLocations::entryLocFor(const void *table, TablePath path) {
  if (entryLocations) {
    uint64_t offset = file.offsetOf(table);
    plainPaths.push_back({static_cast<unsigned>(offset), path});
    return FileLineColLoc::get(fileNameAttr, 0, offset);
  }
  const void *whole = tableOf(path);
  auto [it, inserted] = tableLocs.try_emplace(whole, fileLoc);
  if (inserted)
    it->second = locFor(spell(path, /*entry=*/false), whole);
  return it->second;
}

std::optional<std::string> ImportLocations::pathAt(unsigned column) {
  if (!plainPathsSorted) {
    llvm::stable_sort(plainPaths, [](const auto &a, const auto &b) {
      return a.first < b.first;
    });
    plainPathsSorted = true;
  }
  auto it = llvm::partition_point(
      plainPaths, [&](const auto &entry) { return entry.first < column; });
  if (it == plainPaths.end() || it->first != column)
    return std::nullopt;
  return spell(it->second, /*entry=*/true);
}

std::string ImportLocations::spell(const TablePath &path, bool entry) const {
  std::string plan =
      path.plan < planPaths.size() ? planPaths[path.plan] : std::string();
  std::string table;
  switch (path.kind) {
  case TablePath::Segment:
    table = "segments";
    break;
  case TablePath::InlineData:
    table = "backend_delegate_data";
    break;
  case TablePath::Value:
    table = plan + ".values";
    break;
  case TablePath::Delegate:
    table = plan + ".delegates";
    break;
  case TablePath::Instruction:
    table = (plan + ".chains[" + Twine(path.chain) + "].instructions").str();
    break;
  }
  return entry ? (table + "[" + Twine(path.index) + "]").str() : table;
}

const void *ImportLocations::tableOf(const TablePath &path) const {
  const fb::Program *program = file.getProgram();
  switch (path.kind) {
  case TablePath::Segment:
    return program->segments();
  case TablePath::InlineData:
    return program->backend_delegate_data();
  default:
    break;
  }
  const fb::ExecutionPlan *plan = program->execution_plan()->Get(path.plan);
  if (path.kind == TablePath::Value)
    return plan->values();
  if (path.kind == TablePath::Delegate)
    return plan->delegates();
  return plan->chains()->Get(path.chain)->instructions();
}

std::optional<std::string> ImportLocations::pathOf(Location loc) {
  auto name = dyn_cast<NameLoc>(loc);
  auto plain = dyn_cast<FileLineColLoc>(name ? name.getChildLoc() : loc);
  if (!plain || plain.getFilename() != fileNameAttr || plain.getLine() != 0)
    return std::nullopt;
  if (name)
    return name.getName().str();
  return pathAt(plain.getColumn());
}

LogicalResult ImportLocations::verify(ModuleOp module) {
  // What the runtime would reject and the structure does not show (tensor
  // data out of range, planned tensors past their buffer, ...).
  // Diagnostics printers show only a name location's child, so the path of
  // the offending table is added to the message.
  ScopedDiagnosticHandler addPath(context, [&](Diagnostic &diag) {
    if (std::optional<std::string> path = pathOf(diag.getLocation()))
      diag << " (in " << *path << ")";
    return failure(); // Let the enclosing handler report it.
  });
  return mlir::verify(module);
}
