// The kernel and launcher of the one-pass cross / ellipse schedule (morph_shape.h); the device code
// is in morph_shape.cuh.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.h"
#include "morph_shape.cuh"
#include "morph_shape.h"

namespace dpx {
namespace morph {
namespace {

template <typename T, bool kMax>
__global__ void __launch_bounds__(kShapeThreads) shape_pass_kernel(ShapePassArgs a) {
  extern __shared__ uint4 shape_staged[];  // a.staged_rows * a.staged_words words
  shape_pass<T, kMax>(a, reinterpret_cast<std::uint32_t*>(shape_staged), blockIdx.x, blockIdx.y);
}

template <typename T, bool kMax>
Status launch(const ShapePassArgs& a, const ShapeLaunch& s, cudaStream_t stream) {
  constexpr std::size_t kDefaultShared = 48 * 1024;  // what a launch gets without opting in
  const auto kernel = shape_pass_kernel<T, kMax>;
  if (s.shared_bytes > kDefaultShared) {
    DPX_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(s.shared_bytes)));
  }
  kernel<<<dim3(s.blocks_x, s.blocks_y), kShapeThreads, s.shared_bytes, stream>>>(a);
  DPX_CUDA_CHECK_LAUNCH("shape_pass_kernel");
  return Status::ok();
}

}  // namespace

Status shape_pass(const PlaneView& in, const MutablePlaneView& out, const std::vector<Bar>& bars, bool dilate,
                  BorderMode border, cudaStream_t stream) {
  ShapeLaunch s;
  const ShapePassArgs a = shape_pass_args(in, out, bars, border, &s);
  if (s.blocks_y > 65535) {
    return Status(StatusCode::kUnsupported, "morphology: plane too tall for the one-pass shape schedule");
  }
  if (in.type == SampleType::kU8) {
    return dilate ? launch<std::uint8_t, true>(a, s, stream) : launch<std::uint8_t, false>(a, s, stream);
  }
  return dilate ? launch<std::uint16_t, true>(a, s, stream) : launch<std::uint16_t, false>(a, s, stream);
}

}  // namespace morph
}  // namespace dpx
