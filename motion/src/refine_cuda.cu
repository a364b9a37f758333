// The second stage's launches: a warp per block (refine_warp.cuh), built with patch planes for the
// jobs whose sub-pel stage searches them (the sharp filters) and without for the others, each
// build with the shared memory and the registers of its own path; and the 4x box average of the
// predictive search, one thread per coarse pixel.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "refine_warp.cuh"

namespace dpx {
namespace motion_detail {

namespace {

// Warp w of CTA k takes block k * warps + w of the job's grid; a warp past the last leaves whole.
template <typename T, int B, bool Planes>
__global__ void __launch_bounds__(4 * 32) refine_kernel(RefineJob job) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int warp = threadIdx.x / 32, block = blockIdx.x * (blockDim.x / 32) + warp;
  if (block >= job.columns * job.rows) return;
  predictive_refine_warp(job, WarpShared<T, B, Planes>::of(shared, warp), block % job.columns, block / job.columns,
                         threadIdx.x % 32);
}

template <typename T, int B, bool Planes>
__global__ void __launch_bounds__(4 * 32) full_search_subpel_kernel(RefineJob job) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int warp = threadIdx.x / 32, block = blockIdx.x * (blockDim.x / 32) + warp;
  if (block >= job.columns * job.rows) return;
  full_search_subpel_warp(job, WarpShared<T, B, Planes>::of(shared, warp), block % job.columns, block / job.columns,
                          threadIdx.x % 32);
}

template <typename T, int B, bool Planes>
void launch_build(const RefineJob& job, cudaStream_t stream) {
  using Shared = WarpShared<T, B, Planes>;
  const long long blocks = static_cast<long long>(job.columns) * job.rows;
  const unsigned ctas = static_cast<unsigned>((blocks + Shared::kWarps - 1) / Shared::kWarps);
  const unsigned threads = Shared::kWarps * 32;
  const std::size_t bytes = Shared::kWarps * Shared::kBytes;
  if (job.predictive)
    refine_kernel<T, B, Planes><<<ctas, threads, bytes, stream>>>(job);
  else
    full_search_subpel_kernel<T, B, Planes><<<ctas, threads, bytes, stream>>>(job);
}

template <typename T, int B>
void launch_for_block(const RefineJob& job, cudaStream_t stream) {
  if (uses_patch_planes(job))
    launch_build<T, B, true>(job, stream);
  else
    launch_build<T, B, false>(job, stream);
}

template <typename T>
Status launch_refine(const RefineJob& job, cudaStream_t stream) {
  switch (job.block) {
    case 4: launch_for_block<T, 4>(job, stream); break;
    case 8: launch_for_block<T, 8>(job, stream); break;
    case 16: launch_for_block<T, 16>(job, stream); break;
    default: launch_for_block<T, 32>(job, stream); break;  // motion_validate: 4..32
  }
  DPX_CUDA_CHECK_LAUNCH("refine_kernel");
  return Status::ok();
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
  return type == SampleType::kU8 ? launch_refine<std::uint8_t>(job, stream) : launch_refine<std::uint16_t>(job, stream);
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
