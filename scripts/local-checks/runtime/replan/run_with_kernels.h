// run_with_kernels.h - what replan_runner.cpp and header_harness.cpp share:
// real portable kernels registered as the runtime calls them, and a method
// run with planned buffers and a method allocator of given sizes, printing
// a digest of each output.

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace torch::executor::native {
using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
Tensor &relu_out(KernelRuntimeContext &ctx, const Tensor &in, Tensor &out);
Tensor &add_out(KernelRuntimeContext &ctx, const Tensor &a, const Tensor &b,
                const Scalar &alpha, Tensor &out);
Tensor &mul_out(KernelRuntimeContext &ctx, const Tensor &a, const Tensor &b,
                Tensor &out);
Tensor &copy_(KernelRuntimeContext &ctx, Tensor &in, const Tensor &src,
              bool non_blocking);
} // namespace torch::executor::native

namespace native = torch::executor::native;
namespace rt = executorch::runtime;
using rt::EValue;
using rt::KernelRuntimeContext;
using rt::Span;

namespace {

// The boxed calls, as torchgen's generated unboxing makes them: arguments
// in schema order, the out argument (or an in-place result) last.
void relu(KernelRuntimeContext &ctx, Span<EValue *> stack) {
  native::relu_out(ctx, stack[0]->toTensor(), stack[1]->toTensor());
}
void add(KernelRuntimeContext &ctx, Span<EValue *> stack) {
  native::add_out(ctx, stack[0]->toTensor(), stack[1]->toTensor(),
                  stack[2]->toScalar(), stack[3]->toTensor());
}
void mul(KernelRuntimeContext &ctx, Span<EValue *> stack) {
  native::mul_out(ctx, stack[0]->toTensor(), stack[1]->toTensor(),
                  stack[2]->toTensor());
}
void copyInPlace(KernelRuntimeContext &ctx, Span<EValue *> stack) {
  auto &self = stack[0]->toTensor();
  native::copy_(ctx, self, stack[1]->toTensor(), stack[2]->toBool());
  *stack[3] = EValue(self);
}

uint64_t fnv1a(const uint8_t *bytes, size_t size) {
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

bool registerPortableKernels() {
  static rt::Kernel kernels[] = {
      rt::Kernel("aten::relu.out", relu), rt::Kernel("aten::add.out", add),
      rt::Kernel("aten::mul.out", mul), rt::Kernel("aten::copy_", copyInPlace)};
  return rt::register_kernels({kernels, 4}) == rt::Error::Ok;
}

/// Loads method `name` with planned buffers of `bufferSizes` bytes filled
/// with `fill` and a method allocator of `allocatorBytes` (64-byte aligned,
/// as the runtime's examples give it), runs it on fixed inputs and prints
/// its outputs' digests; what went wrong otherwise.
const char *runMethod(rt::Program &program, const char *name,
                      const std::vector<size_t> &bufferSizes,
                      size_t allocatorBytes, int fill) {
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<Span<uint8_t>> spans;
  for (size_t size : bufferSizes)
    buffers.emplace_back(size, fill);
  for (auto &buffer : buffers)
    spans.emplace_back(buffer.data(), buffer.size());
  rt::HierarchicalAllocator planned({spans.data(), spans.size()});
  static std::vector<uint8_t> temp(16 << 20);
  std::vector<uint8_t> pool(allocatorBytes + 64);
  uint8_t *base =
      pool.data() + (64 - reinterpret_cast<uintptr_t>(pool.data()) % 64) % 64;
  rt::MemoryAllocator methodAllocator(allocatorBytes, base);
  rt::MemoryAllocator tempAllocator(temp.size(), temp.data());
  rt::MemoryManager memory(&methodAllocator, &planned, &tempAllocator);
  auto method = program.load_method(name, &memory);
  if (!method.ok())
    return "load_method failed";
  for (size_t i = 0; i < method->inputs_size(); ++i) {
    EValue &input = method->mutable_input(i);
    if (!input.isTensor())
      continue;
    auto &tensor = input.toTensor();
    float *data = tensor.mutable_data_ptr<float>();
    for (ssize_t e = 0; e < tensor.numel(); ++e)
      data[e] = float((i * 131 + e * 7) % 23) * 0.25f - 2.0f;
  }
  if (method->execute() != rt::Error::Ok)
    return "execute failed";
  for (size_t i = 0; i < method->outputs_size(); ++i) {
    const EValue &output = method->get_output(i);
    if (!output.isTensor())
      continue;
    const auto &tensor = output.toTensor();
    printf("OUTPUT %s %zu bytes=%zu fnv1a=%016llx\n", name, i, tensor.nbytes(),
           (unsigned long long)fnv1a(
               static_cast<const uint8_t *>(tensor.const_data_ptr()),
               tensor.nbytes()));
  }
  return "ok";
}

} // namespace
