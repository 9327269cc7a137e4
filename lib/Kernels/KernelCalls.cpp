//===- KernelCalls.cpp - The kernels a program's calls need ---------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/Kernels/KernelCalls.h"

#include "emit/File/CheckedFile.h"
#include "emit/Kernels/KernelLibraries.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace emit;
using namespace emit::kernels;

std::string kernels::getKernelKey(const MethodModel &method,
                                  const InstructionModel &call) {
  std::string key;
  llvm::raw_string_ostream os(key);
  for (int32_t arg : call.args) {
    if (arg < 0 || uint32_t(arg) >= method.getValueCount() ||
        method.getValueKind(arg) != ValueKind::Tensor)
      continue;
    std::optional<TensorModel> tensor = method.getTensor(arg);
    if (!tensor)
      continue;
    os << (key.empty() ? "v1/" : "|") << tensor->rawScalarType << ';';
    llvm::interleave(
        tensor->getDimOrder(), os, [&](uint8_t dim) { os << unsigned(dim); },
        ",");
  }
  return key;
}

std::vector<KernelCallGroup>
kernels::groupKernelCalls(const ProgramModel &model) {
  std::vector<KernelCallGroup> groups;
  for (const MethodModel &method : model.getMethods()) {
    // Per operator index and key, the position of its group.
    llvm::DenseMap<int32_t, llvm::StringMap<size_t>> positions;
    for (const InstructionModel &call : method.getInstructions()) {
      if (call.kind != InstructionKind::Kernel)
        continue;
      const OperatorModel *op = method.getOperator(call);
      if (!op || getFirstPrimRelease(op->qualifiedName))
        continue;
      std::string key = getKernelKey(method, call);
      auto [position, added] =
          positions[call.callee].try_emplace(key, groups.size());
      if (added)
        groups.push_back({&method, &call, 1, op->qualifiedName, key});
      else
        ++groups[position->second].calls;
    }
  }
  return groups;
}

std::vector<const KernelCallGroup *>
kernels::findMissingKernels(ArrayRef<KernelCallGroup> groups,
                            const KernelRegistry &registry) {
  std::vector<const KernelCallGroup *> missing;
  for (const KernelCallGroup &group : groups)
    if (!registry.resolves(group.name, group.key))
      missing.push_back(&group);
  return missing;
}

SmallVector<StringRef, 2> kernels::getLibrariesWith(StringRef name,
                                                    unsigned release) {
  SmallVector<StringRef, 2> libraries;
  for (StringRef library : getLibraryNames())
    if (registers(library, name, release))
      libraries.push_back(library);
  return libraries;
}

unsigned KernelCheck::countMissingCalls() const {
  unsigned calls = 0;
  for (const MissingKernelCalls &group : missing)
    calls += group.calls;
  return calls;
}

KernelCheck kernels::checkKernelCalls(ArrayRef<KernelCallGroup> groups,
                                      const KernelSpec &spec,
                                      unsigned release) {
  KernelCheck check{spec.text, "", 0, {}};
  for (const KernelCallGroup &group : groups)
    check.kernelCalls += group.calls;
  KernelRegistry registry(spec, release);
  for (const KernelCallGroup *group : findMissingKernels(groups, registry)) {
    MissingKernelCalls &calls = check.missing.emplace_back();
    calls.method = group->method->getName().str();
    calls.chain = group->firstCall->chain;
    calls.instruction = group->firstCall->index;
    calls.calls = group->calls;
    calls.name = group->name.str();
    calls.key = group->key;
    for (StringRef library : getLibrariesWith(group->name, release))
      calls.libraries.push_back(library.str());
  }
  return check;
}

llvm::json::Object kernels::getKernelCheckJSON(const KernelCheck &check) {
  llvm::json::Array missing;
  for (const MissingKernelCalls &calls : check.missing) {
    llvm::json::Array libraries;
    for (const std::string &library : calls.libraries)
      libraries.push_back(library);
    missing.push_back(llvm::json::Object{
        {"method", calls.method},
        {"chain", calls.chain},
        {"instruction", calls.instruction},
        {"operator", calls.name},
        {"kernel_key", calls.key},
        {"calls", calls.calls},
        {"libraries", std::move(libraries)},
    });
  }
  return llvm::json::Object{{"build", check.build},
                            {"kernel_calls", check.kernelCalls},
                            {"missing", std::move(missing)},
                            {"release", check.release}};
}

std::string kernels::describeKey(StringRef key) {
  return key.empty() ? "(none: no tensor argument)" : key.str();
}

std::string kernels::describeLibraries(ArrayRef<StringRef> libraries) {
  if (libraries.empty())
    return "; no library emit knows has it";
  return "; " + llvm::join(libraries, ", ") +
         (libraries.size() == 1 ? " has it" : " have it");
}

std::string kernels::describeMissingCalls(const MissingKernelCalls &calls) {
  SmallVector<StringRef, 2> libraries(calls.libraries.begin(),
                                      calls.libraries.end());
  return (calls.name + " " + describeKey(calls.key) + ": " +
          Twine(calls.calls) + (calls.calls == 1 ? " call" : " calls") +
          " in '" + calls.method + "'" + describeLibraries(libraries))
      .str();
}

void KernelUses::add(const ProgramModel &model, StringRef programName) {
  programs.push_back(programName.str());
  for (const MethodModel &method : model.getMethods())
    for (const InstructionModel &call : method.getInstructions()) {
      if (call.kind != InstructionKind::Kernel)
        continue;
      const OperatorModel *op = method.getOperator(call);
      if (!op)
        continue;
      OperatorUse &use = operators[op->qualifiedName];
      use.keys.insert(getKernelKey(method, call));
      if (use.programs.empty() || use.programs.back() != programs.size() - 1)
        use.programs.push_back(programs.size() - 1);
    }
}

FailureOr<KernelUses> kernels::collectKernelUses(PayloadFiles &files,
                                                 ArrayRef<std::string> paths,
                                                 std::string &error) {
  KernelUses uses;
  for (const std::string &path : paths) {
    std::unique_ptr<CheckedFile> file =
        openReadableFile(files, path, OpenAs::ProgramOrBundle, error);
    if (!file)
      return failure();
    const ProgramFile *program = getProgramOf(*file);
    if (!program) {
      error =
          "'" + path + "' is not a program: a selective build is of programs";
      return failure();
    }
    uses.add(ProgramModel(*program), path);
  }
  return uses;
}

/// A YAML plain scalar where PyYAML writes one plain (names and keys are
/// letters, digits and `_:./;,|-`), else single-quoted.
static void printScalar(StringRef text, raw_ostream &os) {
  bool plain = !text.empty() && llvm::all_of(text, [](char c) {
    return llvm::isAlnum(c) || StringRef("_:./;,|-").contains(c);
  });
  if (plain && !StringRef("-:").contains(text.front()))
    os << text;
  else
    os << "'" << llvm::join(llvm::split(text, "'"), "''") << "'";
}

/// Per library, the operators of `uses` it registers at `release`, as
/// comments: `EXECUTORCH_SELECT_OPS_LIST` for its selective build.
static void printSelectOpsLists(const KernelUses &uses,
                                ArrayRef<std::string> libraries,
                                unsigned release, raw_ostream &os) {
  for (const std::string &library : libraries) {
    SmallVector<StringRef> names;
    for (const auto &entry : uses.operators)
      if (registers(library, entry.first, release))
        names.push_back(entry.first);
    os << "# " << library << " (" << names.size()
       << (names.size() == 1 ? " operator" : " operators")
       << "): EXECUTORCH_SELECT_OPS_LIST=\"" << llvm::join(names, ",")
       << "\"\n";
  }
}

void kernels::writeSelectedOperators(const KernelUses &uses,
                                     ArrayRef<std::string> libraries,
                                     unsigned release, raw_ostream &os) {
  os << "# The operators and kernel keys of " << llvm::join(uses.programs, ", ")
     << ", written by emit-verify --write-selected-ops.\n";
  printSelectOpsLists(uses, libraries, release, os);
  // The keys PyYAML's safe_dump sorts, as gen_oplist.py writes them.
  os << "build_features: []\ncustom_classes: []\n";
  os << "debug_info:\n";
  for (const std::string &program : uses.programs) {
    os << "- ";
    printScalar(program, os);
    os << "\n";
  }
  // PyYAML sorts mappings' keys; so does the map.
  const auto &sorted = uses.operators;
  os << "et_kernel_metadata:" << (sorted.empty() ? " {}\n" : "\n");
  for (const auto &[name, use] : sorted) {
    os << "  ";
    printScalar(name, os);
    os << ":\n";
    for (StringRef key : use.keys) {
      // A call with no tensor argument has no key: "default", as
      // gen_oplist.py writes operators it knows no key of.
      os << "  - ";
      printScalar(key.empty() ? "default" : key, os);
      os << "\n";
    }
  }
  os << "include_all_non_op_selectives: false\ninclude_all_operators: false\n"
        "kernel_metadata: {}\n";
  os << "operators:" << (sorted.empty() ? " {}\n" : "\n");
  for (const auto &entry : sorted) {
    os << "  ";
    printScalar(entry.first, os);
    os << ":\n    debug_info:\n";
    for (unsigned program : entry.second.programs) {
      os << "    - ";
      printScalar(uses.programs[program], os);
      os << "\n";
    }
    os << "    include_all_overloads: false\n    is_root_operator: true\n"
          "    is_used_for_training: true\n";
  }
}
