// header_harness.cpp - loads and runs every program of a header that
// `emit-memory --c-header` wrote, from its arrays, with exactly the memory
// its macros say: each method's planned buffers of its _BUFFER_SIZES and a
// method allocator of its _METHOD_ALLOCATOR_BYTES (the 32-bit figure on a
// 32-bit build). Built by replan_check.py, for the host and with the ARM
// cross compiler (run under qemu-user):
//   g++ -DEMIT_HEADER='"models.h"' header_harness.cpp ...
//   header_harness [FILL [SHRINK]]   (SHRINK: bytes fewer per method allocator)
// Prints what replan_runner.cpp prints, and `ALIGNED <array> <yes|no>`.

#include <executorch/extension/data_loader/buffer_data_loader.h>

#include <cstdlib>
#include <string>

#include "run_with_kernels.h"

#include EMIT_HEADER

using executorch::extension::BufferDataLoader;

namespace {
/// Runs every method of the program in `bytes`; false if one fails.
bool runProgram(const char *array, const uint8_t *bytes, size_t size,
                size_t alignment, int fill,
                void (*forEachMethod)(rt::Program &, int, bool &)) {
  printf("ALIGNED %s %s\n", array,
         reinterpret_cast<uintptr_t>(bytes) % alignment ? "no" : "yes");
  BufferDataLoader loader(bytes, size);
  auto program = rt::Program::load(
      &loader, rt::Program::Verification::InternalConsistency);
  if (!program.ok()) {
    printf("RESULT %s program_load_failed\n", array);
    return false;
  }
  bool ok = true;
  forEachMethod(*program, fill, ok);
  return ok;
}
} // namespace

#define RUN_METHOD(PREFIX, NAME)                                               \
  {                                                                            \
    const char *result =                                                       \
        runMethod(program, NAME, std::vector<size_t> PREFIX##_BUFFER_SIZES,    \
                  PREFIX##_METHOD_ALLOCATOR_BYTES - shrink, fill);             \
    printf("RESULT %s %s\n", NAME, result);                                    \
    ok = ok && std::string(result) == "ok";                                    \
  }
#define RUN_PROGRAM(ARRAY, PREFIX)                                             \
  ok = runProgram(#ARRAY, ARRAY, PREFIX##_PTE_SIZE, PREFIX##_PTE_ALIGNMENT,    \
                  fill,                                                        \
                  [](rt::Program &program, int fill, bool &ok) {               \
                    PREFIX##_METHODS(RUN_METHOD)                               \
                  }) &&                                                        \
       ok;

/// Bytes taken off each method allocator: a second run with some shows
/// the macros are what load_method takes, not padded.
static size_t shrink = 0;

int main(int argc, char **argv) {
  int fill = argc > 1 ? atoi(argv[1]) : 0;
  shrink = argc > 2 ? atoi(argv[2]) : 0;
  rt::runtime_init();
  if (!registerPortableKernels())
    return 2;
  bool ok = true;
  EMIT_PROGRAMS(RUN_PROGRAM)
  return ok ? 0 : 1;
}
