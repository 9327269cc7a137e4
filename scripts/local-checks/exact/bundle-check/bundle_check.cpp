// bundle_check: what ExecuTorch's bundled-program reader does with a .bpte.
//
//   bundle_check FILE.bpte
//
// get_program_data, Program::load with full verification, then per method
// load_method (no-op kernels and stub backends stand in for the real ones)
// and load_bundled_input for every test case of its suite. One line per
// step: "program: Ok", "method NAME: load_method Ok",
// "method NAME: test case I: load_bundled_input Ok" (or the error's code);
// the verdicts of two files compare line by line. Exit 0 when every step
// succeeded, 1 otherwise, 2 for bad usage.
//
// Built by build.sh against the runtime objects of ../shared/tools/pte-check.

#include <executorch/devtools/bundled_program/bundled_program.h>
#include <executorch/devtools/bundled_program/schema/bundled_program_schema_generated.h>
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/runtime.h>
#include <executorch/schema/program_generated.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace rt = executorch::runtime;
namespace bp = executorch::bundled_program;

namespace {

// A backend that accepts every payload and does nothing.
class NoOpBackend final : public rt::BackendInterface {
public:
  bool is_available() const override { return true; }
  rt::Result<rt::DelegateHandle *>
  init(rt::BackendInitContext &, rt::FreeableBuffer *processed,
       rt::ArrayRef<rt::CompileSpec>) const override {
    processed->Free();
    return reinterpret_cast<rt::DelegateHandle *>(1);
  }
  rt::Error execute(rt::BackendExecutionContext &, rt::DelegateHandle *,
                    rt::Span<rt::EValue *>) const override {
    return rt::Error::Ok;
  }
};

void noOpKernel(rt::KernelRuntimeContext &, rt::Span<rt::EValue *>) {}

// Registration keeps pointers to names and backends: they live here.
std::deque<std::string> names;
std::deque<NoOpBackend> backends;

bool kernelRegistered(const std::string &name) {
  for (const rt::Kernel &kernel : rt::get_registered_kernels())
    if (name == kernel.name_)
      return true;
  return false;
}

// No-op kernels for the operators the runtime has none of, and a no-op
// backend for every delegate id, as found in the program's tables.
void registerStandIns(const executorch_flatbuffer::Program *program) {
  for (const auto *plan : *program->execution_plan()) {
    if (plan->operators())
      for (const auto *op : *plan->operators()) {
        std::string name = op->name()->str();
        if (op->overload() && op->overload()->size())
          name += "." + op->overload()->str();
        if (kernelRegistered(name))
          continue;
        names.push_back(name);
        rt::Kernel kernel(names.back().c_str(), noOpKernel);
        (void)rt::register_kernels({&kernel, 1});
      }
    if (plan->delegates())
      for (const auto *delegate : *plan->delegates()) {
        std::string id = delegate->id()->str();
        if (rt::get_backend_class(id.c_str()))
          continue;
        names.push_back(id);
        backends.emplace_back();
        (void)rt::register_backend({names.back().c_str(), &backends.back()});
      }
  }
}

const char *verdict(rt::Error error) {
  static char text[32];
  if (error == rt::Error::Ok)
    return "Ok";
  std::snprintf(text, sizeof(text), "Error 0x%x", static_cast<unsigned>(error));
  return text;
}

// Loads method `name` and sets the inputs of each of its test cases.
bool checkMethod(rt::Program &program, const char *name, const void *bundle,
                 size_t testCases) {
  auto meta = program.method_meta(name);
  if (!meta.ok()) {
    std::printf("method %s: method_meta %s\n", name, verdict(meta.error()));
    return false;
  }
  std::vector<std::vector<uint8_t>> planned(meta->num_memory_planned_buffers());
  std::vector<rt::Span<uint8_t>> spans;
  for (size_t i = 0; i < planned.size(); ++i) {
    planned[i].resize(meta->memory_planned_buffer_size(i).get());
    spans.push_back({planned[i].data(), planned[i].size()});
  }
  rt::HierarchicalAllocator plannedMemory({spans.data(), spans.size()});
  std::vector<uint8_t> pool(64 << 20), temp(16 << 20);
  rt::MemoryAllocator methodAllocator(pool.size(), pool.data());
  rt::MemoryAllocator tempAllocator(temp.size(), temp.data());
  rt::MemoryManager memory(&methodAllocator, &plannedMemory, &tempAllocator);
  auto method = program.load_method(name, &memory);
  std::printf("method %s: load_method %s\n", name,
              verdict(method.ok() ? rt::Error::Ok : method.error()));
  if (!method.ok())
    return false;
  bool ok = true;
  for (size_t i = 0; i < testCases; ++i) {
    rt::Error error = bp::load_bundled_input(*method, bundle, i);
    std::printf("method %s: test case %zu: load_bundled_input %s\n", name, i,
                verdict(error));
    ok &= error == rt::Error::Ok;
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bundle_check FILE.bpte\n");
    return 2;
  }
  FILE *file = std::fopen(argv[1], "rb");
  if (!file) {
    std::perror(argv[1]);
    return 2;
  }
  std::fseek(file, 0, SEEK_END);
  size_t size = std::ftell(file);
  std::fseek(file, 0, SEEK_SET);
  // As a file mapped at a page boundary.
  void *data = std::aligned_alloc(4096, (size + 4095) / 4096 * 4096);
  if (std::fread(data, 1, size, file) != size) {
    std::perror(argv[1]);
    return 2;
  }
  std::fclose(file);
  rt::runtime_init();

  const void *programData = nullptr;
  size_t programSize = 0;
  rt::Error error =
      bp::get_program_data(data, size, &programData, &programSize);
  std::printf("get_program_data: %s\n", verdict(error));
  if (error != rt::Error::Ok)
    return 1;
  executorch::extension::BufferDataLoader loader(programData, programSize);
  auto program = rt::Program::load(
      &loader, rt::Program::Verification::InternalConsistency);
  std::printf("program: %s\n",
              verdict(program.ok() ? rt::Error::Ok : program.error()));
  if (!program.ok())
    return 1;
  registerStandIns(executorch_flatbuffer::GetProgram(programData));

  // Each method with the test cases of its suite (the first of its name).
  const auto *bundle = bundled_program_flatbuffer::GetBundledProgram(data);
  bool ok = true;
  for (size_t i = 0; i < program->num_methods(); ++i) {
    const char *name = program->get_method_name(i).get();
    size_t testCases = 0;
    if (bundle->method_test_suites())
      for (const auto *suite : *bundle->method_test_suites())
        if (suite->method_name() && suite->method_name()->str() == name) {
          testCases = suite->test_cases() ? suite->test_cases()->size() : 0;
          break;
        }
    ok &= checkMethod(*program, name, data, testCases);
  }
  return ok ? 0 : 1;
}
