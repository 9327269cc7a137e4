//===- InstructionCounts.cpp - The smallest view of a program -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// docs/Architecture.md's recipe for a new view, followed once: instruction
// counts per method, as a report with text and JSON. The view reads the
// program model (no IR, no flatbuffer), is a Report, and its tool offers
// its formats with the shared --format option.
//
//   emit-example-view PROGRAM.pte|.bpte [--format=text|json]
//
//===----------------------------------------------------------------------===//

#include "emit/File/CheckedFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/Report.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"

using namespace emit;
namespace cl = llvm::cl;

namespace {
/// Per method: its instructions, kernel calls and delegate calls.
class InstructionCounts : public Report {
public:
  explicit InstructionCounts(const ProgramModel &model) {
    for (const MethodModel &method : model.getMethods())
      methods.push_back(
          {method.getName().str(), unsigned(method.getInstructions().size()),
           method.getKernelCallCount(), method.getDelegateCallCount()});
  }

  void print(ReportFormat format, raw_ostream &os) const override {
    if (format == ReportFormat::JSON) {
      llvm::json::OStream json(os, 2);
      json.array([&] {
        for (const Counts &method : methods)
          json.object([&] {
            json.attribute("name", method.name);
            json.attribute("instructions", method.instructions);
            json.attribute("kernel_calls", method.kernelCalls);
            json.attribute("delegate_calls", method.delegateCalls);
          });
      });
      os << "\n";
      return;
    }
    for (const Counts &method : methods)
      os << method.name << ": " << counted(method.instructions, "instruction")
         << " (" << counted(method.kernelCalls, "kernel call") << ", "
         << counted(method.delegateCalls, "delegate call") << ")\n";
  }

private:
  struct Counts {
    std::string name;
    unsigned instructions, kernelCalls, delegateCalls;
  };
  std::vector<Counts> methods;
};
} // namespace

static cl::OptionCategory category("emit-example-view options");
static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<program.pte>"),
                                      cl::cat(category));
static FormatOption format("How to print the counts",
                           {{ReportFormat::Text, "a line per method"},
                            {ReportFormat::JSON, "a JSON array"}},
                           category);

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "instruction counts per method\n");
  PayloadFiles files;
  std::string error;
  std::unique_ptr<CheckedFile> file =
      openReadableFile(files, inputPath, OpenAs::ProgramOrBundle, error);
  if (!file) {
    llvm::errs() << "emit-example-view: " << error << "\n";
    return 2;
  }
  InstructionCounts(ProgramModel(*getProgramOf(*file)))
      .print(format, llvm::outs());
  return 0;
}
