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
  return ("no kernel for '" + group.name + "' with kernel key '" +
          describeKey(group.key) + "' (" + Twine(group.calls) +
          (group.calls == 1 ? " call" : " calls") + " in method '" +
          group.method->getName() + "')" + describeLibraries(libraries))
      .str();
}

/// A finding of check `id` on `call` of `method`, at its instruction.
static Finding getCallFinding(const ProgramModel &model, Check id,
                              Severity severity, const MethodModel &method,
                              const InstructionModel &call, std::string message,
                              std::string detail = "") {
  const FileCheck &check = getFileCheck(id);
  Finding finding{severity,
                  &check,
                  model.getFile().getName().str(),
                  model.getFile().offsetOf(method.getInstructionLocation(call)),
                  instructionPath(method, call),
                  std::move(message),
                  std::move(detail),
                  check.runtime,
                  ImportEffect::Ignores};
  finding.method = method.getIndex();
  finding.chain = call.chain;
  finding.instruction = call.index;
  return finding;
}

static Finding getMissingFinding(const ProgramModel &model,
                                 const KernelCallGroup &group,
                                 ArrayRef<StringRef> libraries) {
  return getCallFinding(model, Check::KernelMissing, Severity::Error,
                        *group.method, *group.firstCall,
                        "the build has " + describeMissing(group, libraries),
                        ": load_method fails with OperatorMissing (0x14)");
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
  for (const DefectCalls &calls : findKernelDefects(model, spec, main)) {
    if (report.showReleases)
      releases.releases[main].reasons.push_back(getDefectReason(calls));
    report.findings.findings.push_back(
        getCallFinding(model, Check::KernelDefect, Severity::Warning,
                       *calls.method, *calls.firstCall, describeDefect(calls)));
  }
}
