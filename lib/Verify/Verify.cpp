//===- Verify.cpp - Is a program sound, and will the runtime load it ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The findings come from the importers themselves (collecting, see
// Findings.h) and from the check of a program against its data files that
// `--pte-data` runs: one implementation of each check.
//
//===----------------------------------------------------------------------===//

#include "emit/Verify/Verify.h"

#include "KernelChecks.h"
#include "LoadChecks.h"

#include "emit/DelegateCalls/DelegateCalls.h"
#include "emit/Dialect/ET/IR/ETOps.h"
#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/File/BundleFile.h"
#include "emit/File/DataFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Memory/MemoryReport.h"
#include "emit/Pipeline/Pipeline.h"
#include "emit/Support/FileFormat.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace emit;

unsigned VerifyReport::count(Severity severity) const {
  return findings.count(severity);
}

/// Opens `buffer` as a data file, or as a program or bundled program, its
/// findings into `report`; its module when `withIR` and the file builds one
/// (it reads, and breaks none of the dialect's invariants): a bundle's is
/// its program's. Payloads stay views of the buffer: nothing reads them
/// whole.
static OwningOpRef<ModuleOp>
checkFile(std::shared_ptr<const FileBuffer> buffer, bool dataFile, bool withIR,
          MLIRContext &context, VerifyReport &report,
          std::unique_ptr<CheckedFile> *opened = nullptr) {
  report.files.push_back(buffer->getName().str());
  std::unique_ptr<CheckedFile> owned = openFile(
      std::move(buffer), dataFile ? OpenAs::DataFile : OpenAs::ProgramOrBundle);
  const CheckedFile *file = owned.get();
  if (opened)
    *opened = std::move(owned);
  llvm::append_range(report.findings.findings, file->getFindings().findings);
  const ProgramFile *program = getProgramOf(*file);
  const CheckedFile *source = dataFile ? file : program;
  if (!withIR || !source || !source->isReadable() || source->breaksInvariants())
    return nullptr;
  if (dataFile)
    return buildDataFile(cast<DataFile>(*source), &context);
  // Each entry at its own offset: the findings on the IR name entries.
  PTEReadOptions entries;
  entries.entryLocations = true;
  return buildProgram(*program, &context, entries);
}

/// The checks of a program's model (`file`'s, a program or a bundle's)
/// into `report`: what Program::load does with it and, when every table
/// reads, its memory plans and what load_method does with it loaded with
/// `dataFiles`.
static void checkModel(const CheckedFile &file, const ProgramModel &model,
                       ArrayRef<const CheckedFile *> dataFiles,
                       VerifyReport &report) {
  FindingList found;
  if (model.getFile().isReadable()) {
    delegate::DelegateCalls calls(model, dataFiles);
    memory::checkMemory(model, calls, found);
    checkProgramLoad(model, calls, dataFiles.size(), found,
                     report.refusingBackends);
  }
  checkConstantBufferPath(model, found);
  const auto *bundle = dyn_cast<BundleFile>(&file);
  for (Finding &finding : found.findings)
    report.findings.findings.push_back(
        bundle ? bundle->toBundleFinding(std::move(finding))
               : std::move(finding));
}

/// The file at `path`, opened through the context's payload files, or null
/// with the reason in `error`.
static std::shared_ptr<const FileBuffer>
openInput(StringRef path, MLIRContext &context, std::string &error) {
  std::shared_ptr<const FileBuffer> file =
      et::getPayloadFiles(&context).open(path, error);
  if (!file)
    error = cannotRead(path, error);
  return file;
}

/// Checks the program in `module` against the data files at `paths`, as
/// `--pte-data` does, each problem a finding.
static void checkDataFiles(ModuleOp module, ArrayRef<std::string> paths,
                           VerifyReport &report) {
  const FileCheck &check = getFileCheck(Check::ExternalData);
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    Location loc = diag.getLocation();
    std::string path;
    if (auto name = dyn_cast<NameLoc>(loc)) {
      path = name.getName().str();
      loc = name.getChildLoc();
    }
    auto plain = dyn_cast<FileLineColLoc>(loc);
    report.findings.findings.push_back(
        {Severity::Error, &check,
         plain ? plain.getFilename().str() : report.files.front(),
         plain ? plain.getColumn() : 0, path, diag.str(), "", check.runtime,
         ImportEffect::Refuses});
    return success();
  });
  (void)importDataFiles(module, paths, /*embed=*/false);
}

/// Whether `module` (a data file's, or null) holds one in 0.6's layout.
static bool holdsLayout0_6(ModuleOp module) {
  if (!module)
    return false;
  auto files = module.getOps<et::DataFileOp>();
  return !files.empty() && (*files.begin()).getLayout_0_6();
}

/// The data files of `opened` that read, null where one does not.
static SmallVector<const DataFile *>
getDataFiles(ArrayRef<std::unique_ptr<CheckedFile>> opened) {
  SmallVector<const DataFile *> files;
  for (const std::unique_ptr<CheckedFile> &file : opened) {
    const auto *data = dyn_cast_or_null<DataFile>(file.get());
    files.push_back(data && data->isReadable() ? data : nullptr);
  }
  return files;
}

/// The snapshot's runtime reads a data file in 0.6's layout with the
/// current schema: an error when a program is loaded with one (the release
/// verdicts say which releases read it).
static void checkDataLayouts(ArrayRef<OwningOpRef<ModuleOp>> dataFiles,
                             ArrayRef<std::string> paths,
                             VerifyReport &report) {
  const FileCheck &check = getFileCheck(Check::DataFileLayout06);
  for (auto [module, path] : llvm::zip_equal(dataFiles, paths)) {
    if (!holdsLayout0_6(module.get()))
      continue;
    report.findings.findings.push_back(
        {Severity::Error, &check, path, 0, "FlatTensor",
         "the program is loaded with a data file in ExecuTorch 0.6's layout, "
         "which the snapshot's runtime (as every release from 0.7) reads with "
         "the current schema: load_method refuses the external constants or "
         "reads wrong bytes",
         "", RuntimeLoad::Rejects, ImportEffect::Ignores});
  }
}

/// Warns of the keys of the data files no external tensor of the program
/// names, when the program has no delegate entry that could read them.
static void checkUnusedKeys(ModuleOp program, ArrayRef<ModuleOp> dataFiles,
                            ArrayRef<std::string> paths, VerifyReport &report) {
  const FileCheck &check = getFileCheck(Check::UnusedData);
  llvm::StringSet<> names;
  bool delegated = false;
  program.walk([&](Operation *op) {
    if (isa<et::DelegateOp>(op))
      delegated = true;
    if (auto tensor = dyn_cast<et::TensorOp>(op))
      if (et::TensorInfoAttr info = tensor.getInfoAttr())
        if (info.getFqn())
          names.insert(info.getFqn().getValue());
  });
  if (delegated)
    return;
  for (auto [dataFile, path] : llvm::zip_equal(dataFiles, paths))
    ModuleOp(dataFile).walk([&](et::NamedDataOp entry) {
      if (names.contains(entry.getKey()))
        return;
      uint64_t offset = 0;
      std::string where = "named_data";
      if (auto name = dyn_cast<NameLoc>(entry.getLoc())) {
        where = name.getName().str();
        if (auto plain = dyn_cast<FileLineColLoc>(name.getChildLoc()))
          offset = plain.getColumn();
      }
      report.findings.findings.push_back(
          {Severity::Warning, &check, path, offset, where,
           "no tensor of the program names key '" + entry.getKey().str() +
               "', and it has no delegate to read it",
           "", check.runtime, ImportEffect::Ignores});
    });
}

/// What the runtime does with the files: the worst of what it does with
/// each error (but those of check `ignored`).
static RuntimeLoad runtimeLoadOf(
    const FindingList &list, llvm::function_ref<bool(const Finding &)> counts =
                                 [](const Finding &) { return true; }) {
  RuntimeLoad load = RuntimeLoad::Loads;
  for (const Finding &finding : list.findings) {
    if (finding.severity != Severity::Error || !counts(finding))
      continue;
    if (finding.runtime == RuntimeLoad::Crashes)
      return RuntimeLoad::Crashes;
    if (finding.runtime == RuntimeLoad::Rejects)
      load = RuntimeLoad::Rejects;
  }
  return load;
}

/// What emit's checks say the snapshot's runtime does, as a release
/// verdict.
static ReleaseVerdict getReleaseVerdict(RuntimeLoad load) {
  switch (load) {
  case RuntimeLoad::Crashes:
    return ReleaseVerdict::Crashes;
  case RuntimeLoad::Rejects:
    return ReleaseVerdict::Rejects;
  default:
    return ReleaseVerdict::Loads;
  }
}

/// The findings whose release table rows say what each release does: not
/// a defect every release meets.
static constexpr Check kReleaseRows[] = {Check::DataFileLayout06,
                                         Check::ExternalDataMissing};

static bool isCheck(const Finding &finding, ArrayRef<Check> checks) {
  return llvm::any_of(checks, [&](Check check) {
    return finding.check == &getFileCheck(check);
  });
}

/// Whether `finding` is of a data file (one of `paths`), or of the program
/// against them: releases before 0.6 read no data file and never meet it.
static bool isOfDataFiles(const Finding &finding, ArrayRef<std::string> paths) {
  return isCheck(finding, Check::ExternalData) ||
         llvm::is_contained(paths, finding.file);
}

/// What `judgement` (main's) says of the runtime, as a finding's load.
static RuntimeLoad getRuntimeLoad(const ReleaseJudgement &judgement) {
  switch (judgement.verdict) {
  case ReleaseVerdict::Crashes:
    return RuntimeLoad::Crashes;
  case ReleaseVerdict::Rejects:
    return RuntimeLoad::Rejects;
  default:
    return RuntimeLoad::Loads;
  }
}

/// Whether the runtime refuses the files only because backends fail on
/// their payloads: every error that refuses or crashes is a delegate's.
static bool isRefusedByBackendsAlone(const VerifyReport &report) {
  if (report.runtimeLoad == RuntimeLoad::Loads ||
      report.refusingBackends.empty())
    return false;
  return llvm::all_of(report.findings.findings, [](const Finding &finding) {
    return finding.severity != Severity::Error ||
           finding.runtime == RuntimeLoad::Loads ||
           finding.check == &getFileCheck(Check::DelegatePayload) ||
           finding.check == &getFileCheck(Check::DelegateNamedData);
  });
}

/// How the runtime loads `file`: a data file beside a program, a bundle's
/// embedded program, or a program.
static LoadedAs getLoadedAs(const CheckedFile *file, bool dataFile) {
  if (dataFile)
    return LoadedAs::DataFile;
  return file && isa<BundleFile>(file) ? LoadedAs::BundledProgram
                                       : LoadedAs::Program;
}

namespace {
/// The data files a program is verified with, each checked on its own.
struct CheckedDataFiles {
  std::vector<OwningOpRef<ModuleOp>> modules;
  std::vector<std::unique_ptr<CheckedFile>> files;
  /// Whether every one reads without an error: the program is then checked
  /// against them.
  bool sound = true;
};
} // namespace

/// Opens and checks each of `paths`, its findings into `report`; failure
/// (the reason in `error`) when one cannot be read.
static FailureOr<CheckedDataFiles>
checkDataFilesAlone(ArrayRef<std::string> paths, MLIRContext &context,
                    VerifyReport &report, std::string &error) {
  CheckedDataFiles data;
  for (const std::string &path : paths) {
    std::shared_ptr<const FileBuffer> buffer = openInput(path, context, error);
    if (!buffer)
      return failure();
    size_t before = report.findings.findings.size();
    data.files.emplace_back();
    data.modules.push_back(checkFile(std::move(buffer), /*dataFile=*/true,
                                     /*withIR=*/true, context, report,
                                     &data.files.back()));
    data.sound &=
        data.modules.back() &&
        llvm::none_of(ArrayRef(report.findings.findings).drop_front(before),
                      [](const Finding &finding) {
                        return finding.severity == Severity::Error;
                      });
  }
  return data;
}

/// Where a finding's defect is met: a delegate's payload (its backend's
/// init), the data files (releases that read them), or the program.
enum class DefectPlace { Program, DataFiles, Backends };

static DefectPlace getDefectPlace(const Finding &finding,
                                  ArrayRef<std::string> dataPaths) {
  if (isCheck(finding, {Check::DelegatePayload, Check::DelegateNamedData}))
    return DefectPlace::Backends;
  return isOfDataFiles(finding, dataPaths) ? DefectPlace::DataFiles
                                           : DefectPlace::Program;
}

/// The verdict: main's row of the release table, of `file` (a data file
/// alone, or a program with `model` where its flatbuffer verifies) loaded
/// with `data` (at `dataPaths`). The findings' errors are defects, each met
/// where it is (FileDefects); the table's rows say what its features do.
static void judge(const CheckedFile *file, const ProgramModel *model,
                  const CheckedDataFiles &data, ArrayRef<std::string> dataPaths,
                  VerifyReport &report) {
  auto defect = [&](DefectPlace place) {
    return getReleaseVerdict(
        runtimeLoadOf(report.findings, [&](const Finding &finding) {
          return !isCheck(finding, kReleaseRows) &&
                 getDefectPlace(finding, dataPaths) == place;
        }));
  };
  if (const auto *alone = dyn_cast_or_null<DataFile>(file);
      alone && alone->isReadable() &&
      runtimeLoadOf(report.findings) == RuntimeLoad::Loads) {
    report.releases = judgeDataFileReleases(*alone);
  } else if (model) {
    report.releases = judgeReleases(
        *model, countDataFiles(getDataFiles(data.files)),
        {defect(DefectPlace::Program), defect(DefectPlace::DataFiles),
         defect(DefectPlace::Backends)});
  } else {
    report.releases =
        judgeReleases(nullptr, DataFileCounts(),
                      {getReleaseVerdict(runtimeLoadOf(report.findings))});
  }
  report.runtimeLoad = getRuntimeLoad(report.releases->releases.back());
  if (!isRefusedByBackendsAlone(report))
    report.refusingBackends.clear();
}

/// The checks of `model`'s kernel calls (`file`'s program, or a bundle's):
/// the known kernel defects, and with `kernels` the calls that build has
/// no kernel for, which then decide the verdict too. A bundle's findings
/// point into the bundle.
static void checkKernelCalls(const CheckedFile &file, const ProgramModel &model,
                             const kernels::KernelSpec *kernels,
                             VerifyReport &report) {
  size_t before = report.findings.findings.size();
  checkKernelDefects(model, kernels, report);
  if (kernels) {
    checkKernels(model, *kernels, report);
    report.runtimeLoad = getRuntimeLoad(report.releases->releases.back());
    if (!isRefusedByBackendsAlone(report))
      report.refusingBackends.clear();
  }
  if (const auto *bundle = dyn_cast<BundleFile>(&file))
    for (Finding &finding :
         MutableArrayRef(report.findings.findings).drop_front(before))
      finding = bundle->toBundleFinding(std::move(finding));
}

FailureOr<VerifyReport>
emit::verifyBuffer(std::shared_ptr<const FileBuffer> input,
                   ArrayRef<std::string> dataFiles, MLIRContext &context,
                   std::string &error, bool withReleases,
                   const kernels::KernelSpec *kernels) {
  bool dataFile = isDataFileBuffer(input->getBytes());
  if (dataFile && !dataFiles.empty()) {
    error = ("'" + input->getName() +
             "' is a data file (.ptd); --data goes with a program (.pte)")
                .str();
    return failure();
  }
  VerifyReport report;
  report.showReleases = withReleases;
  // Only the check against data files reads the program's IR; without
  // them, the program's tables are only read and checked.
  std::unique_ptr<CheckedFile> file;
  OwningOpRef<ModuleOp> module =
      checkFile(std::move(input), dataFile, /*withIR=*/!dataFiles.empty(),
                context, report, &file);
  report.loadedAs = getLoadedAs(file.get(), dataFile);
  // Each data file on its own first, then, when every file is sound, the
  // program against them.
  FailureOr<CheckedDataFiles> data =
      checkDataFilesAlone(dataFiles, context, report, error);
  if (failed(data))
    return failure();
  // One model of a program whose flatbuffer verifies, for every check and
  // verdict on it (the release table needs no more; the checks of a model
  // need every table to read).
  const ProgramFile *program = file ? getProgramOf(*file) : nullptr;
  std::optional<ProgramModel> model;
  if (program && program->getProgram()) {
    model.emplace(*program);
    SmallVector<const CheckedFile *> given;
    for (const std::unique_ptr<CheckedFile> &dataFile : data->files)
      given.push_back(dataFile.get());
    checkModel(*file, *model, given, report);
  }
  if (data->sound && module && isa<et::ProgramOp>(module->getBody()->front())) {
    SmallVector<ModuleOp> modules;
    for (OwningOpRef<ModuleOp> &dataModule : data->modules)
      modules.push_back(*dataModule);
    checkUnusedKeys(*module, modules, dataFiles, report);
  }
  if (module && data->sound && !dataFiles.empty()) {
    checkDataFiles(*module, dataFiles, report);
    checkDataLayouts(data->modules, dataFiles, report);
  }
  judge(file.get(), model ? &*model : nullptr, *data, dataFiles, report);
  if (model && model->getFile().isReadable())
    checkKernelCalls(*file, *model, kernels, report);
  return report;
}

FailureOr<VerifyReport> emit::verifyFiles(StringRef path,
                                          ArrayRef<std::string> dataFiles,
                                          MLIRContext &context,
                                          std::string &error, bool withReleases,
                                          const kernels::KernelSpec *kernels) {
  std::shared_ptr<const FileBuffer> file = openInput(path, context, error);
  if (!file)
    return failure();
  return verifyBuffer(std::move(file), dataFiles, context, error, withReleases,
                      kernels);
}

/// The releases `report` prints: all, or the one asked for.
static ArrayRef<ReleaseJudgement>
getPrintedReleases(const VerifyReport &report) {
  ArrayRef<ReleaseJudgement> all = report.releases->releases;
  if (report.printedRelease)
    return all.slice(*report.printedRelease, 1);
  return all;
}

/// A release's verdict and, under it, its reasons.
static void printReleaseText(const ReleaseJudgement &judgement,
                             raw_ostream &os) {
  os << "  " << judgement.release << ": "
     << getReleaseVerdictName(judgement.verdict) << "\n";
  for (const ReleaseReason &reason : judgement.reasons) {
    os << "    " << reason.feature << " (honoured from " << reason.firstRelease;
    if (reason.lastRelease)
      os << " to " << *reason.lastRelease;
    os << (reason.dependsOnBuild ? "; this build" : "")
       << "): " << getReleaseVerdictName(reason.verdict) << ", "
       << reason.effect << "; " << reason.where << " [" << reason.source
       << "]\n";
  }
}

static void printReleasesText(const VerifyReport &report, raw_ostream &os) {
  os << "runtime releases ("
     << (report.kernels ? kReleaseBuildWithKernels : kReleaseBuild) << "):\n";
  for (const ReleaseJudgement &judgement : getPrintedReleases(report))
    printReleaseText(judgement, os);
  os << "releases that load it: " << report.releases->describeLoading() << "\n";
}

/// The build's kernels against the calls, one line.
static void printKernelsText(const kernels::KernelCheck &kernels,
                             raw_ostream &os) {
  os << "kernels (" << kernels.build << ", " << kernels.release
     << "): " << kernels.kernelCalls << " kernel calls besides prim ops, "
     << kernels.countMissingCalls() << " with no kernel in the build\n";
}

StringRef emit::getLoadedAsName(LoadedAs loadedAs) {
  switch (loadedAs) {
  case LoadedAs::Program:
    return "program";
  case LoadedAs::BundledProgram:
    return "bundled_program";
  case LoadedAs::DataFile:
    return "data_file";
  }
  llvm_unreachable("unknown way of loading");
}

/// How the runtime the verdict is of loads the file.
static StringRef describeLoading(LoadedAs loadedAs, bool withKernels) {
  switch (loadedAs) {
  case LoadedAs::Program:
    return withKernels ? "Program::load with full verification, then "
                         "load_method of every method, with the kernels "
                         "--kernels names"
                       : "Program::load with full verification, then "
                         "load_method of every method, operators other than "
                         "prim ops taken as registered";
  case LoadedAs::BundledProgram:
    return withKernels
               ? "the bundle's embedded program, as extension/module loads a "
                 "bundle: Program::load with full verification, then "
                 "load_method of every method, with the kernels --kernels "
                 "names"
               : "the bundle's embedded program, as extension/module loads a "
                 "bundle: Program::load with full verification, then "
                 "load_method of every method, operators other than prim ops "
                 "taken as registered";
  case LoadedAs::DataFile:
    return "FlatTensorDataMap::load of the data file, as a program's "
           "external data map";
  }
  llvm_unreachable("unknown way of loading");
}

void emit::printVerifyText(const VerifyReport &report, raw_ostream &os) {
  for (const Finding &finding : report.findings.findings)
    printFinding(finding, os);
  if (report.showReleases)
    printReleasesText(report, os);
  if (report.kernels)
    printKernelsText(*report.kernels, os);
  unsigned errors = report.count(Severity::Error);
  unsigned warnings = report.count(Severity::Warning);
  os << "runtime: " << getRuntimeLoadName(report.runtimeLoad) << " ("
     << kMainBuild << "; "
     << describeLoading(report.loadedAs, report.kernels.has_value()) << ")";
  if (!report.refusingBackends.empty())
    os << ": the core runtime loads the program, and backend"
       << (report.refusingBackends.size() == 1 ? " '" : "s '")
       << llvm::join(report.refusingBackends, "', '") << "' fail"
       << (report.refusingBackends.size() == 1 ? "s" : "")
       << " on its payload at init";
  os << "\n";
  os << errors << (errors == 1 ? " error, " : " errors, ") << warnings
     << (warnings == 1 ? " warning" : " warnings");
  if (unsigned notes = report.count(Severity::Note))
    os << ", " << notes << (notes == 1 ? " note" : " notes");
  os << "\n";
}

// The reports below stream their findings one object at a time: a tree of
// every finding (llvm::json::Array copies its elements as it grows) took
// 2 GiB for 50,000 findings. Keys are written in the sorted order a
// json::Object prints them in.

/// A release's verdict as JSON: `release`, `verdict`, `reasons`.
static llvm::json::Object getReleaseJSON(const ReleaseJudgement &judgement) {
  llvm::json::Array reasons;
  for (const ReleaseReason &reason : judgement.reasons) {
    llvm::json::Object object{
        {"feature", reason.feature},
        {"first_release", reason.firstRelease},
        {"verdict", getReleaseVerdictName(reason.verdict)},
        {"effect", reason.effect},
        {"where", reason.where},
        {"source", reason.source},
        {"depends_on_build", reason.dependsOnBuild},
    };
    if (reason.lastRelease)
      object["last_release"] = *reason.lastRelease;
    if (!reason.rewrite.empty())
      object["rewrite"] = reason.rewrite;
    reasons.push_back(std::move(object));
  }
  return llvm::json::Object{
      {"release", judgement.release},
      {"verdict", getReleaseVerdictName(judgement.verdict)},
      {"reasons", std::move(reasons)},
  };
}

/// The release verdicts' keys, in the sorted order of the report's.
static void printReleasesJSON(const VerifyReport &report,
                              llvm::json::OStream &json) {
  const ReleaseReport &releases = *report.releases;
  auto optional = [](std::optional<StringRef> name) -> llvm::json::Value {
    return name ? llvm::json::Value(*name) : llvm::json::Value(nullptr);
  };
  json.attribute("newest", optional(releases.newest));
  json.attribute("oldest", optional(releases.oldest));
  json.attribute("runtime_build",
                 report.kernels ? kReleaseBuildWithKernels : kReleaseBuild);
}

void emit::printVerifyJSON(const VerifyReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attributeArray("backends_refusing", [&] {
      for (const std::string &backend : report.refusingBackends)
        json.value(backend);
    });
    json.attributeArray("files", [&] {
      for (const std::string &file : report.files)
        json.value(file);
    });
    json.attributeArray("findings", [&] {
      for (const Finding &finding : report.findings.findings)
        json.value(getFindingJSON(finding));
    });
    if (report.kernels)
      json.attribute("kernels", kernels::getKernelCheckJSON(*report.kernels));
    json.attribute("loaded_as", getLoadedAsName(report.loadedAs));
    if (report.showReleases)
      printReleasesJSON(report, json);
    json.attribute("runtime_load", getRuntimeLoadName(report.runtimeLoad));
    json.attribute("runtime_load_build", kMainBuild);
    if (report.showReleases)
      json.attributeArray("runtimes", [&] {
        for (const ReleaseJudgement &judgement : getPrintedReleases(report))
          json.value(getReleaseJSON(judgement));
      });
    json.attribute("schema", "emit-verify-1");
  });
  os << "\n";
}

/// A finding as a SARIF result of the rule `ruleIndex`.
static llvm::json::Object getSARIFResult(const Finding &finding,
                                         unsigned ruleIndex) {
  llvm::json::Object location{
      {"physicalLocation",
       llvm::json::Object{
           {"artifactLocation", llvm::json::Object{{"uri", finding.file}}},
           {"region", llvm::json::Object{{"byteOffset", static_cast<int64_t>(
                                                            finding.offset)}}},
       }},
  };
  if (!finding.path.empty())
    location["logicalLocations"] = llvm::json::Array{
        llvm::json::Object{{"fullyQualifiedName", finding.path}}};
  return llvm::json::Object{
      {"ruleId", finding.check->name},
      {"ruleIndex", ruleIndex},
      {"level", getSeverityName(finding.severity)},
      {"message", llvm::json::Object{{"text", finding.text()}}},
      {"locations", llvm::json::Array{std::move(location)}},
      {"properties", llvm::json::Object{{"runtime_load",
                                         getRuntimeLoadName(finding.runtime)}}},
  };
}

/// SARIF's run: the tool with its rules (the checks that found something,
/// in the order of the catalogue), the files and a result per finding.
static void printSARIFRun(const VerifyReport &report,
                          llvm::json::OStream &json) {
  llvm::SetVector<const FileCheck *> used;
  for (const Finding &finding : report.findings.findings)
    used.insert(finding.check);
  llvm::json::Array rules;
  llvm::DenseMap<const FileCheck *, unsigned> ruleIndex;
  for (const FileCheck &check : getFileChecks()) {
    if (!used.contains(&check))
      continue;
    ruleIndex[&check] = rules.size();
    rules.push_back(llvm::json::Object{
        {"id", check.name},
        {"shortDescription", llvm::json::Object{{"text", check.summary}}},
        {"properties", llvm::json::Object{{"runtime_load",
                                           getRuntimeLoadName(check.runtime)}}},
    });
  }
  json.object([&] {
    json.attributeArray("artifacts", [&] {
      for (const std::string &file : report.files)
        json.value(llvm::json::Object{
            {"location", llvm::json::Object{{"uri", file}}}});
    });
    json.attributeObject("properties", [&] {
      json.attribute("runtime_load", getRuntimeLoadName(report.runtimeLoad));
    });
    json.attributeArray("results", [&] {
      for (const Finding &finding : report.findings.findings)
        json.value(getSARIFResult(finding, ruleIndex.lookup(finding.check)));
    });
    json.attributeObject("tool", [&] {
      json.attributeObject("driver", [&] {
        json.attribute("name", "emit-verify");
        json.attribute("rules", std::move(rules));
      });
    });
  });
}

void emit::printVerifySARIF(const VerifyReport &report, raw_ostream &os) {
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    json.attributeArray("runs", [&] { printSARIFRun(report, json); });
    json.attribute("version", "2.1.0");
  });
  os << "\n";
}

void VerifyReport::print(ReportFormat format, raw_ostream &os) const {
  switch (format) {
  case ReportFormat::JSON:
    return printVerifyJSON(*this, os);
  case ReportFormat::SARIF:
    return printVerifySARIF(*this, os);
  default:
    return printVerifyText(*this, os);
  }
}
