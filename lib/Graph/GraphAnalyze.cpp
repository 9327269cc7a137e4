//===- GraphAnalyze.cpp - emit-graph's job: a program's graphs
//-------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The library's entry: opens a program (or a bundle's) and its data files,
// builds the program model and reads its payloads once, builds each drawn
// method's graph from them and puts the overlays asked for on it.
//
//===----------------------------------------------------------------------===//

#include "GraphBuild.h"

#include "emit/DelegateCalls/DelegateCalls.h"
#include "emit/File/BundleFile.h"
#include "emit/File/CheckedFile.h"
#include "emit/File/ETDumpFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/Profile/ProfileReport.h"
#include "emit/Support/PayloadFiles.h"

using namespace emit;
using namespace emit::graph;

/// The graph of the methods of `all` (every method of a program) that
/// `options` names, its delegate calls as `calls` reads them.
static FailureOr<GraphReport> buildGraph(const ProgramModel &all,
                                         delegate::DelegateCalls &calls,
                                         const GraphOptions &options,
                                         std::string &error) {
  const ProgramFile &file = all.getFile();
  if (failed(checkMethodsExist(all, options.methods, error)))
    return failure();
  GraphReport report;
  report.file = file.getName().str();
  report.bytes = file.getBuffer();
  SmallVector<unsigned> indices;
  for (const MethodModel &method : all.getMethods()) {
    if (!options.methods.empty() &&
        !llvm::is_contained(options.methods, method.getName()))
      continue;
    buildMethodGraph(all, method, calls, report.methods.emplace_back(),
                     options.details);
    indices.push_back(method.getIndex());
  }
  placeFindings(file.getFindings(), indices, report);
  if (options.memory)
    addPeaks(all, calls, options, report);
  if (options.kernels)
    addMissingKernels(all, *options.kernels, report);
  return report;
}

FailureOr<GraphReport> graph::analyzeGraph(const ProgramFile &program,
                                           const GraphOptions &options,
                                           std::string &error) {
  if (!program.getProgram()) {
    error = "its flatbuffer does not verify";
    return failure();
  }
  ProgramModel all(program);
  delegate::DelegateCalls calls(all, {});
  return buildGraph(all, calls, options, error);
}

FailureOr<GraphReport>
graph::analyzeGraph(std::shared_ptr<const FileBuffer> input,
                    PayloadFiles &files, const GraphOptions &options,
                    std::string &error) {
  std::unique_ptr<CheckedFile> file =
      openFile(std::move(input), OpenAs::ProgramOrBundle);
  const ProgramFile *program = getProgramOf(*file);
  if (!program || !program->getProgram()) {
    error = describeRefusal(*file, "cannot be drawn");
    return failure();
  }
  FailureOr<std::vector<std::unique_ptr<CheckedFile>>> dataFiles =
      openDataFiles(files, options.dataFiles, error);
  if (failed(dataFiles))
    return failure();
  SmallVector<const CheckedFile *> given;
  for (const std::unique_ptr<CheckedFile> &dataFile : *dataFiles)
    given.push_back(dataFile.get());
  // The model and the payloads read once, for the graph and every overlay.
  ProgramModel all(*program);
  delegate::DelegateCalls calls(all, given);
  FailureOr<GraphReport> report = buildGraph(all, calls, options, error);
  if (failed(report))
    return failure();
  report->file = file->getName().str();
  if (options.profile.empty())
    return report;
  // Joined to the program already open: no second reading of it.
  std::unique_ptr<CheckedFile> etdump =
      openReadableFile(files, options.profile, OpenAs::ETDump, error);
  if (!etdump)
    return failure();
  profile::ProfileOptions join;
  join.methods = options.methods;
  // Joined to the methods drawn: the graph's model, or a view of it.
  std::optional<ProgramModel> some;
  if (!options.methods.empty())
    some.emplace(all, [&](StringRef name) {
      return llvm::is_contained(options.methods, name);
    });
  FailureOr<profile::ProfileReport> timed = profile::analyzeProfile(
      cast<ETDumpFile>(*etdump), some ? *some : all, join, StringRef(), error);
  if (failed(timed))
    return failure();
  if (!timed->fits()) {
    error = describeMisfit(*timed, options.profile, file->getName());
    return failure();
  }
  addTimes(*timed, *report);
  return report;
}
