//===- LoadChecks.cpp - A program against what it is loaded with ----------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "LoadChecks.h"

#include "emit/DelegateCalls/DelegateCalls.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Twine.h"

using namespace emit;

/// The most keys a finding lists; the rest are counted.
static constexpr size_t kListedKeys = 8;

/// `execution_plan[I] 'NAME'.values[V]`, as findings name a value.
static std::string valuePath(const MethodModel &method, uint32_t value) {
  return ("execution_plan[" + Twine(method.getIndex()) + "] '" +
          method.getName() + "'.values[" + Twine(value) + "]")
      .str();
}

/// The keys of the tensors that take their data from a data file, in
/// order of first use, and where the first is.
static void checkExternalDataGiven(const ProgramModel &model,
                                   FindingList &findings) {
  llvm::SetVector<StringRef> keys;
  std::optional<Finding> first;
  unsigned planned = 0;
  for (const MethodModel &method : model.getMethods())
    for (uint32_t value = 0; value < method.getValueCount(); ++value) {
      if (method.getValueKind(value) != ValueKind::Tensor)
        continue;
      std::optional<TensorModel> tensor = method.getTensor(value);
      if (!tensor || !tensor->external)
        continue;
      planned += tensor->planned;
      keys.insert(tensor->getName());
      if (first)
        continue;
      const FileCheck &check = getFileCheck(Check::ExternalDataMissing);
      first = Finding{Severity::Error,
                      &check,
                      model.getFile().getName().str(),
                      model.getFile().offsetOf(tensor->table),
                      valuePath(method, value),
                      "",
                      "",
                      check.runtime,
                      ImportEffect::Ignores};
      first->method = method.getIndex();
      first->value = value;
    }
  if (!first)
    return;
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "the program takes the data of " << keys.size()
     << (keys.size() == 1 ? " tensor" : " tensors")
     << (planned ? " (trainable or mutable weights among them)" : "")
     << " from a data file (.ptd), and none is given: load_method refuses "
        "the method (InvalidState, or InvalidExternalData for planned "
        "tensors); give --data with the data file that holds ";
  for (auto [index, key] : llvm::enumerate(keys)) {
    if (index == kListedKeys) {
      os << " and " << keys.size() - kListedKeys << " more";
      break;
    }
    os << (index ? ", '" : "'") << key << "'";
  }
  first->message = std::move(message);
  findings.findings.push_back(std::move(*first));
}

/// The program has no constant segment with offsets: the runtime reads its
/// constants from constant_buffer, which builds from 1.3 (CMake, pip) do not
/// compile (ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0).
void emit::checkConstantBufferPath(const ProgramModel &model,
                                   FindingList &findings) {
  if (model.readsConstantSegment())
    return;
  const FileCheck &check = getFileCheck(Check::ConstantBufferPath);
  findings.findings.push_back(
      {Severity::Warning, &check, model.getFile().getName().str(),
       model.getConstantStores().findingOffset, "constant_segment",
       "the program has no constant segment with offsets, so the runtime "
       "reads its constants from the deprecated constant_buffer: builds of "
       "1.3 and later made with CMake (the pip wheel among them) refuse it "
       "at Program::load (InvalidProgram); a build with "
       "ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=1 loads it, and emit-translate "
       "--pte-to-pte --target-runtime=main rewrites it into a constant "
       "segment",
       "", check.runtime, ImportEffect::Ignores});
}

/// `execution_plan[I] 'NAME'.delegates[D]`, as findings name an entry.
static std::string entryPath(const MethodModel &method, size_t entry) {
  return ("execution_plan[" + Twine(method.getIndex()) + "] '" +
          method.getName() + "'.delegates[" + Twine(entry) + "]")
      .str();
}

namespace {
/// The checks of the payloads a program's delegate entries hand their
/// backends, each payload once however many entries share it.
class PayloadCheck {
public:
  PayloadCheck(const ProgramModel &model, delegate::DelegateCalls &calls,
               unsigned dataFileCount, FindingList &findings,
               std::vector<std::string> &refusing)
      : model(model), calls(calls), dataFileCount(dataFileCount),
        findings(findings), refusing(refusing) {}
  void run();

private:
  /// A finding at `entry` of `method`, of its payload's byte `offset`.
  void add(Severity severity, Check check, RuntimeLoad runtime,
           const MethodModel &method, size_t entry, uint64_t offset,
           std::string message);
  void checkEntry(const MethodModel &method, size_t entry);

  const ProgramModel &model;
  delegate::DelegateCalls &calls;
  unsigned dataFileCount;
  FindingList &findings;
  std::vector<std::string> &refusing;
  /// The payloads checked, by what they decoded to.
  llvm::DenseSet<const delegate::DecodedPayload *> checked;
};
} // namespace

void PayloadCheck::add(Severity severity, Check id, RuntimeLoad runtime,
                       const MethodModel &method, size_t entry, uint64_t offset,
                       std::string message) {
  const FileCheck &check = getFileCheck(id);
  Finding finding{severity,
                  &check,
                  model.getFile().getName().str(),
                  offset,
                  entryPath(method, entry),
                  std::move(message),
                  "",
                  runtime,
                  ImportEffect::Ignores};
  finding.method = method.getIndex();
  findings.findings.push_back(std::move(finding));
  StringRef backend = method.getDelegates()[entry].backend;
  if (severity == Severity::Error && !llvm::is_contained(refusing, backend))
    refusing.push_back(backend.str());
}

void PayloadCheck::checkEntry(const MethodModel &method, size_t entry) {
  const DelegateModel &delegate = method.getDelegates()[entry];
  std::shared_ptr<const delegate::DecodedPayload> payload =
      calls.decode(delegate);
  if (!checked.insert(payload.get()).second)
    return;
  StringRef bytes = model.getPayload(delegate);
  uint64_t start = bytes.empty() ? 0 : model.getFile().offsetOf(bytes.data());
  std::string backend = ("backend '" + delegate.backend + "'").str();
  for (const delegate::PayloadProblem &problem : payload->problems) {
    std::string message = backend + " (" + payload->decoder +
                          " payload), at its byte " +
                          std::to_string(problem.offset) + ": " + problem.text;
    switch (problem.effect) {
    case delegate::ProblemEffect::Refuses:
      add(Severity::Error, Check::DelegatePayload, RuntimeLoad::Rejects, method,
          entry, start + problem.offset,
          message + "; the core runtime loads the program, and the backend's "
                    "init refuses the payload");
      break;
    case delegate::ProblemEffect::Undefined:
      add(Severity::Error, Check::DelegatePayload, RuntimeLoad::Crashes, method,
          entry, start + problem.offset, std::move(message));
      break;
    case delegate::ProblemEffect::Unknown:
      add(Severity::Note, Check::DelegatePayload, RuntimeLoad::Loads, method,
          entry, start + problem.offset, std::move(message));
      break;
    }
  }
  for (const delegate::MissingKey &missing : calls.findMissingKeys(*payload))
    add(Severity::Error, Check::DelegateNamedData, RuntimeLoad::Rejects, method,
        entry, start,
        backend + "'s payload names key '" + missing.key + "' (" +
            missing.namedBy +
            ") that neither the program's named data nor a data file " +
            (dataFileCount ? "given" : "(none is given)") +
            " holds: the core runtime loads the program, and the backend's "
            "init fails to load the key" +
            (dataFileCount ? ""
                           : "; give --data with the data file that "
                             "holds it"));
}

void PayloadCheck::run() {
  for (const MethodModel &method : model.getMethods())
    for (size_t entry = 0; entry < method.getDelegates().size(); ++entry)
      checkEntry(method, entry);
}

void emit::checkProgramLoad(const ProgramModel &model,
                            delegate::DelegateCalls &calls,
                            unsigned dataFileCount, FindingList &findings,
                            std::vector<std::string> &refusingBackends) {
  if (dataFileCount == 0)
    checkExternalDataGiven(model, findings);
  PayloadCheck(model, calls, dataFileCount, findings, refusingBackends).run();
}
