//===- KernelChecks.cpp - A program against the kernels of a build --------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "KernelChecks.h"

#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Kernels/KernelCalls.h"
#include "emit/Kernels/KernelDefects.h"
#include "emit/Kernels/KernelLibraries.h"

#include "llvm/ADT/StringExtras.h"

using namespace emit;
using namespace emit::kernels;

/// `execution_plan[I] 'NAME'.chains[C].instructions[J]`: where `call` of
/// `method` is, as findings name it.
static std::string instructionPath(const MethodModel &method,
                                   const InstructionModel &call) {
  return ("execution_plan[" + Twine(method.getIndex()) + "] '" +
          method.getName() + "'.chains[" + Twine(call.chain) +
          "].instructions[" + Twine(call.index) + "]")
      .str();
}

static std::string callPath(const KernelCallGroup &group) {
  return instructionPath(*group.method, *group.firstCall);
}

/// What a missing kernel is, as a finding and a release reason say it.
static std::string describeMissing(const KernelCallGroup &group,
                                   ArrayRef<StringRef> libraries) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "no kernel for '" << group.name << "' with kernel key '"
     << (group.key.empty() ? "(none: no tensor argument)" : group.key) << "' ("
     << group.calls << (group.calls == 1 ? " call" : " calls") << " in method '"
     << group.method->getName() << "')";
  if (libraries.empty())
    os << "; no library emit knows has it";
  else
    os << "; " << llvm::join(libraries, ", ")
       << (libraries.size() == 1 ? " has" : " have") << " it";
  return text;
}

static Finding getMissingFinding(const ProgramModel &model,
                                 const KernelCallGroup &group,
                                 ArrayRef<StringRef> libraries) {
  const FileCheck &check = getFileCheck(Check::KernelMissing);
  Finding finding{Severity::Error,
                  &check,
                  model.getFile().getName().str(),
                  model.getFile().offsetOf(
                      group.method->getInstructionLocation(*group.firstCall)),
                  callPath(group),
                  "the build has " + describeMissing(group, libraries),
                  ": load_method fails with OperatorMissing (0x14)",
                  check.runtime,
                  ImportEffect::Ignores};
  finding.method = group.method->getIndex();
  finding.chain = group.firstCall->chain;
  finding.instruction = group.firstCall->index;
  return finding;
}

static ReleaseReason getMissingReason(const KernelSpec &spec,
                                      const KernelCallGroup &group,
                                      ArrayRef<StringRef> libraries) {
  return {"kernel-missing",
          "none",
          std::nullopt,
          ReleaseVerdict::Rejects,
          "load_method: OperatorMissing (0x14), the build (" + spec.text +
              ") has " + describeMissing(group, libraries),
          callPath(group) + ": " + group.name.str(),
          "the kernel libraries' yaml files at each release "
          "(scripts/kernels/gen_kernel_libraries.py)",
          /*dependsOnBuild=*/true,
          "",
          LoadStage::Operators};
}

void emit::checkKernels(const ProgramModel &model, const KernelSpec &spec,
                        VerifyReport &report) {
  std::vector<KernelCallGroup> groups = groupKernelCalls(model);
  ReleaseReport &releases = *report.releases;
  unsigned main = releases.releases.size() - 1;
  for (unsigned release = 0; release < main; ++release) {
    KernelRegistry registry(spec, release);
    for (const KernelCallGroup *group : findMissingKernels(groups, registry))
      releases.releases[release].reasons.push_back(getMissingReason(
          spec, *group, getLibrariesWith(group->name, release)));
  }
  // Main's: the verdict's reasons, findings and report.
  KernelRegistry registry(spec, main);
  for (const KernelCallGroup *group : findMissingKernels(groups, registry)) {
    SmallVector<StringRef, 2> libraries = getLibrariesWith(group->name, main);
    releases.releases[main].reasons.push_back(
        getMissingReason(spec, *group, libraries));
    report.findings.findings.push_back(
        getMissingFinding(model, *group, libraries));
  }
  releases.finish();
  report.kernels = checkKernelCalls(groups, spec, main);
  report.kernels->release = releases.releases[main].release.str();
}

static std::string defectPath(const DefectCalls &calls) {
  return instructionPath(*calls.method, *calls.firstCall);
}

/// A release's reason for a defect's calls: it loads them, and the kernel
/// misbehaves when the method runs.
static ReleaseReason getDefectReason(const DefectCalls &calls) {
  return {calls.defect->name,
          "none",
          std::nullopt,
          ReleaseVerdict::Loads,
          "when the method runs, " + describeDefect(calls),
          defectPath(calls) + ": " + calls.name.str(),
          "the kernel defects' table (lib/Kernels/KernelDefects.cpp)",
          /*dependsOnBuild=*/true,
          "",
          LoadStage::Operators};
}

void emit::checkKernelDefects(const ProgramModel &model, const KernelSpec *spec,
                              VerifyReport &report) {
  ReleaseReport &releases = *report.releases;
  unsigned main = releases.releases.size() - 1;
  for (unsigned release = 0; report.showReleases && release < main; ++release)
    for (const DefectCalls &calls : findKernelDefects(model, spec, release))
      releases.releases[release].reasons.push_back(getDefectReason(calls));
  const FileCheck &check = getFileCheck(Check::KernelDefect);
  for (const DefectCalls &calls : findKernelDefects(model, spec, main)) {
    if (report.showReleases)
      releases.releases[main].reasons.push_back(getDefectReason(calls));
    Finding finding{Severity::Warning,
                    &check,
                    model.getFile().getName().str(),
                    model.getFile().offsetOf(
                        calls.method->getInstructionLocation(*calls.firstCall)),
                    defectPath(calls),
                    describeDefect(calls),
                    "",
                    check.runtime,
                    ImportEffect::Ignores};
    finding.method = calls.method->getIndex();
    finding.chain = calls.firstCall->chain;
    finding.instruction = calls.firstCall->index;
    report.findings.findings.push_back(std::move(finding));
  }
}
