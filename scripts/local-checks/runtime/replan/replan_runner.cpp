// replan_runner.cpp - runs every method of a program in the real ExecuTorch
// runtime with real portable kernels, and prints a digest of each output.
//
// Built by replan_check.py against the runtime objects of pte-check's build
// (../shared/tools/pte-check) and the same revision's kernels/portable/cpu
// sources (relu, add, mul, copy_, and the prim ops the runtime registers).
// The planned buffers are filled with a byte given on the command line
// before each method loads, so a result that reads bytes no one wrote
// differs between fills:
//   replan_runner FILE.pte [FILL]
// One line per output:
//   OUTPUT <method> <index> bytes=<n> fnv1a=<hex>
// and `RESULT <method> <status>` per method.

#include <executorch/extension/data_loader/file_data_loader.h>

#include <cstdlib>

#include "run_with_kernels.h"

using executorch::extension::FileDataLoader;

namespace {
/// The planned buffers' sizes the runtime reads off `name`'s plan.
std::vector<size_t> getBufferSizes(rt::Program &program, const char *name) {
  std::vector<size_t> sizes;
  auto meta = program.method_meta(name);
  if (meta.ok())
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i)
      sizes.push_back(meta->memory_planned_buffer_size(i).get());
  return sizes;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: replan_runner FILE.pte [FILL]\n");
    return 2;
  }
  int fill = argc > 2 ? atoi(argv[2]) : 0;
  rt::runtime_init();
  if (!registerPortableKernels())
    return 2;
  auto loader = FileDataLoader::from(argv[1]);
  if (!loader.ok())
    return 2;
  auto program = rt::Program::load(
      &loader.get(), rt::Program::Verification::InternalConsistency);
  if (!program.ok()) {
    printf("RESULT - program_load_failed\n");
    return 1;
  }
  for (size_t i = 0; i < program->num_methods(); ++i) {
    const char *name = program->get_method_name(i).get();
    printf("RESULT %s %s\n", name,
           runMethod(*program, name, getBufferSizes(*program, name), 64 << 20,
                     fill));
  }
  return 0;
}
