//===- emit-translate.cpp - emit's translation driver -----------*- C++ -*-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-translate for emit's translations (`--to-pte`, `--from-pte`,
// `--pte-to-pte`, ...), with a driver of its own for one reason: a `.pte` or
// `.ptd` input is mapped, never copied. MLIR 19's driver reads an input
// whose size is a multiple of the page size into the heap (it wants a NUL
// after the end), MLIR 22's copies every input that does not end in one: a
// multi-GiB program would then be resident in full.
//
// It also creates the run's emit::PayloadFiles, through which it opens its
// input and payload references resolve (against the IR's directory).
//
//===----------------------------------------------------------------------===//

#include "emit/Dialect/ET/Utils/Payloads.h"
#include "emit/InitAll.h"
#include "emit/Pipeline/TranslateRegistration.h"
#include "emit/Support/AtomicOutput.h"
#include "emit/Support/HugePageHeap.h"
#include "emit/Support/MappedMemory.h"
#include "emit/Support/PayloadFiles.h"
#include "emit/Support/Version.h"
#include "emit/Target/PTE/PTE.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<input file>"), cl::init("-"));
static cl::opt<std::string> outputFilename("o", cl::desc("Output filename"),
                                           cl::value_desc("filename"),
                                           cl::init("-"));
static cl::opt<bool>
    splitInputFile("split-input-file",
                   cl::desc("Split MLIR input at '// -----' lines and "
                            "translate each part on its own"),
                   cl::init(false));
static cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("Check that emitted diagnostics match expected-* lines on the "
             "corresponding line"),
    cl::init(false));

/// The input: a program file mapped as it is, once, through `files` (so that
/// its bytes are read with pread, and the translation finds it open),
/// anything else (MLIR) as the MLIR parser wants it, with a NUL after the
/// end.
static std::unique_ptr<llvm::MemoryBuffer>
openInput(bool programFile, emit::PayloadFiles &files, std::string &error) {
  if (!programFile)
    return openInputFile(inputFilename, &error);
  if (inputFilename == "-") {
    auto buffer = llvm::MemoryBuffer::getSTDIN();
    if (!buffer) {
      error = "cannot read standard input: " + buffer.getError().message();
      return nullptr;
    }
    return std::move(*buffer);
  }
  std::shared_ptr<const emit::FileBuffer> file =
      files.open(inputFilename, error);
  if (!file) {
    error = "cannot open input file '" + inputFilename + "': " + error;
    return nullptr;
  }
  return file->getView();
}

/// Runs `translation` on `buffer` in a context of its own, whose payload
/// references resolve through `files`.
static LogicalResult translate(const Translation &translation,
                               std::unique_ptr<llvm::MemoryBuffer> buffer,
                               std::shared_ptr<emit::PayloadFiles> files,
                               raw_ostream &os) {
  MLIRContext context;
  emit::et::setPayloadFiles(&context, std::move(files));
  context.printOpOnDiagnostic(!verifyDiagnostics);
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (verifyDiagnostics) {
    // Whether the translation fails is not the question, but whether its
    // diagnostics are the expected ones.
    SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context);
    (void)translation(sourceMgr, os, &context);
    return handler.verify();
  }
  SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
  return translation(sourceMgr, os, &context);
}

/// The name the chosen translation was registered under.
static StringRef
nameOf(cl::opt<const Translation *, false, TranslationParser> &option) {
  const auto &parser = option.getParser();
  for (unsigned i = 0, e = parser.getNumOptions(); i < e; ++i)
    if (static_cast<const cl::OptionValue<const Translation *> &>(
            parser.getOptionValue(i))
            .getValue() == option.getValue())
      return parser.getOption(i);
  return StringRef();
}

static LogicalResult runTranslate(int argc, char **argv) {
  cl::opt<const Translation *, false, TranslationParser> translation(
      "", cl::desc("Translation to perform"), cl::Required);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  emit::registerPayloadFileOptions();
  emit::setVersionPrinter();
  cl::ParseCommandLineOptions(argc, argv, "emit translation driver\n");

  StringRef name = nameOf(translation);
  bool programFile = emit::readsProgramFile(name);
  // The IR whose payload references resolve against its directory: the
  // one written, or the one read.
  StringRef irFile = emit::writesIR(name) ? StringRef(outputFilename)
                     : programFile        ? StringRef("-")
                                          : StringRef(inputFilename);
  std::string error;
  auto files = std::make_shared<emit::PayloadFiles>();
  if (!emit::applyPayloadFileOptions(*files, irFile, error)) {
    llvm::errs() << "error: " << error << "\n";
    return failure();
  }
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInput(programFile, *files, error);
  if (!input) {
    llvm::errs() << error << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return failure();
  }
  auto process = [&](std::unique_ptr<llvm::MemoryBuffer> buffer,
                     raw_ostream &os) {
    return translate(*translation, std::move(buffer), files, os);
  };
  if (splitInputFile && !programFile) {
    if (failed(splitAndProcessBuffer(std::move(input), process, output->os(),
                                     kDefaultSplitMarker, kDefaultSplitMarker)))
      return failure();
  } else if (failed(process(std::move(input), output->os()))) {
    return failure();
  }
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  emit::restartWithHugePageHeap(argv);
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::setBugReportMsg("PLEASE submit a bug report to the emit project "
                        "and include the crash backtrace.\n");
  emit::registerAllTranslations();
  emit::registerAllPasses(); // For --pte-to-pte's pipeline.
  // A failed run never leaves a partial file or clobbers an existing one.
  emit::AtomicOutput output(argc, argv);
  if (output.failed())
    return 1;
  return output.finish(failed(runTranslate(argc, argv)));
}
