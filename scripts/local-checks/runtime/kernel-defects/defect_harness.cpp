// defect_harness.cpp - runs real portable kernels of an ExecuTorch release
// on contiguous and on channels-last tensors holding the same logical
// values, and prints how far each result is from the logical answer.
//
// Built by kernel_defects.py against a release's own runtime and
// kernels/portable/cpu sources (1.x releases: the kernels' signatures take
// a KernelRuntimeContext). One line per case:
//   CASE <row> <operator> <layout> max_abs_diff=<d> status=<ok|failed>
// where the layout is contiguous or channels_last.

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/platform/runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace torch::executor::native {
using executorch::aten::ArrayRef;
using executorch::aten::Tensor;
Tensor &cat_out(KernelRuntimeContext &ctx, ArrayRef<Tensor> tensors,
                int64_t dim, Tensor &out);
Tensor &flip_out(KernelRuntimeContext &ctx, const Tensor &in,
                 ArrayRef<int64_t> dims, Tensor &out);
} // namespace torch::executor::native

using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
using TensorImpl = executorch::runtime::etensor::TensorImpl;
using ScalarType = executorch::runtime::etensor::ScalarType;

namespace {

/// A 4-d float tensor of logical sizes [n, c, h, w], stored contiguous or
/// channels-last, that owns its storage.
struct Tensor4 {
  std::vector<TensorImpl::SizesType> sizes;
  std::vector<TensorImpl::DimOrderType> dimOrder;
  std::vector<TensorImpl::StridesType> strides;
  std::vector<float> data;
  TensorImpl impl;
  Tensor tensor;

  Tensor4(int n, int c, int h, int w, bool channelsLast)
      : sizes{n, c, h, w},
        dimOrder(channelsLast
                     ? std::vector<TensorImpl::DimOrderType>{0, 2, 3, 1}
                     : std::vector<TensorImpl::DimOrderType>{0, 1, 2, 3}),
        strides(
            channelsLast
                ? std::vector<TensorImpl::StridesType>{c * h * w, 1, w * c, c}
                : std::vector<TensorImpl::StridesType>{c * h * w, h * w, w, 1}),
        data(n * c * h * w, 0.0f),
        impl(ScalarType::Float, 4, sizes.data(), data.data(), dimOrder.data(),
             strides.data()),
        tensor(&impl) {}

  float &at(int n, int c, int h, int w) {
    return data[n * strides[0] + c * strides[1] + h * strides[2] +
                w * strides[3]];
  }
};

/// The logical value at a coordinate: each differs.
float value(int tag, int n, int c, int h, int w) {
  return tag * 1000 + n * 100 + c * 10 + h * 3 + w;
}

void report(const char *row, const char *op, bool channelsLast, double diff,
            bool failed) {
  std::printf("CASE %s %s %s max_abs_diff=%g status=%s\n", row, op,
              channelsLast ? "channels_last" : "contiguous", diff,
              failed ? "failed" : "ok");
}

/// cat of two [1, 2, 2, 3] tensors along dim 1.
void runCat(bool channelsLast) {
  Tensor4 a(1, 2, 2, 3, channelsLast), b(1, 2, 2, 3, channelsLast);
  Tensor4 out(1, 4, 2, 3, channelsLast);
  for (int c = 0; c < 2; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 3; ++w) {
        a.at(0, c, h, w) = value(1, 0, c, h, w);
        b.at(0, c, h, w) = value(2, 0, c, h, w);
      }
  KernelRuntimeContext ctx;
  Tensor inputs[] = {a.tensor, b.tensor};
  torch::executor::native::cat_out(
      ctx, executorch::aten::ArrayRef<Tensor>(inputs, 2), 1, out.tensor);
  double diff = 0;
  for (int c = 0; c < 4; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 3; ++w) {
        float expected =
            c < 2 ? value(1, 0, c, h, w) : value(2, 0, c - 2, h, w);
        diff = std::fmax(diff, std::fabs(out.at(0, c, h, w) - expected));
      }
  report("portable-block-copy-dim-order", "aten::cat.out", channelsLast, diff,
         ctx.failure_state() != executorch::runtime::Error::Ok);
}

/// flip of a [1, 2, 2, 3] tensor along dim 3.
void runFlip(bool channelsLast) {
  Tensor4 in(1, 2, 2, 3, channelsLast), out(1, 2, 2, 3, channelsLast);
  for (int c = 0; c < 2; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 3; ++w)
        in.at(0, c, h, w) = value(1, 0, c, h, w);
  KernelRuntimeContext ctx;
  int64_t dims[] = {3};
  torch::executor::native::flip_out(
      ctx, in.tensor, executorch::aten::ArrayRef<int64_t>(dims, 1), out.tensor);
  double diff = 0;
  for (int c = 0; c < 2; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 3; ++w)
        diff = std::fmax(
            diff, std::fabs(out.at(0, c, h, w) - value(1, 0, c, h, 2 - w)));
  report("portable-coordinate-index-dim-order", "aten::flip.out", channelsLast,
         diff, ctx.failure_state() != executorch::runtime::Error::Ok);
}

} // namespace

int main() {
  executorch::runtime::runtime_init();
  for (bool channelsLast : {false, true}) {
    runCat(channelsLast);
    runFlip(channelsLast);
  }
  return 0;
}
