// The second stage on the GPU: one warp per block runs refine_block.h, its lanes sharing the
// block's pixels; and the 4x box average of the predictive search, one thread per coarse pixel.
#include <cuda_runtime.h>

#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "refine_block.h"

namespace dpx {
namespace motion_detail {

namespace {

constexpr int kWarpsPerCta = 4;

struct WarpSum {  // every lane gets the warp's total
  __device__ std::uint32_t operator()(std::uint32_t v) const {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    return v;
  }
};

template <typename T>
__global__ void __launch_bounds__(kWarpsPerCta * 32) refine_kernel(RefineJob job) {
  const int block = blockIdx.x * kWarpsPerCta + threadIdx.x / 32;
  if (block >= job.columns * job.rows) return;  // the whole warp leaves together
  const int r = block / job.columns, c = block - r * job.columns;
  refine_block<T>(job, c, r, static_cast<int>(threadIdx.x % 32), 32, WarpSum{});
}

template <typename T>
__global__ void box_average_kernel(PlaneView src, MutablePlaneView dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dst.width || y >= dst.height) return;
  reinterpret_cast<T*>(static_cast<unsigned char*>(dst.data) + static_cast<std::size_t>(y) * dst.pitch)[x] =
      box_average_4x<T>(static_cast<const unsigned char*>(src.data), src.pitch, src.width, src.height, x, y);
}

}  // namespace

Status refine_cuda(const RefineJob& job, SampleType type, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(job.columns) * job.rows;
  const unsigned ctas = static_cast<unsigned>((blocks + kWarpsPerCta - 1) / kWarpsPerCta);
  if (type == SampleType::kU8)
    refine_kernel<std::uint8_t><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job);
  else
    refine_kernel<std::uint16_t><<<ctas, kWarpsPerCta * 32, 0, stream>>>(job);
  DPX_CUDA_CHECK_LAUNCH("refine_kernel");
  return Status::ok();
}

Status box_average_cuda(const PlaneView& src, const MutablePlaneView& dst, cudaStream_t stream) {
  const dim3 threads(32, 8);
  const dim3 grid((dst.width + 31) / 32, (dst.height + 7) / 8);
  if (src.type == SampleType::kU8)
    box_average_kernel<std::uint8_t><<<grid, threads, 0, stream>>>(src, dst);
  else
    box_average_kernel<std::uint16_t><<<grid, threads, 0, stream>>>(src, dst);
  DPX_CUDA_CHECK_LAUNCH("box_average_kernel");
  return Status::ok();
}

}  // namespace motion_detail
}  // namespace dpx
