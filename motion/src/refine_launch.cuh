// The second stage's kernels, a warp per block (refine_warp.cuh), and the launch of one build:
// refine_cuda.cu launches the build without planes, refine_frame_planes.cu the build that reads
// the frame's phase planes. CUDA only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "refine_warp.cuh"

namespace dpx {
namespace motion_detail {

// Warp w of CTA k takes block k * warps + w of the job's grid: after a predictive coarse search
// the whole second stage, after a full search its sub-pel stage. A warp past the last leaves whole.
template <typename T, int B, PlaneSource P, bool Predictive>
__device__ __forceinline__ void refine_cta_warp(const RefineJob& job) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int warp = threadIdx.x / 32, block = blockIdx.x * (blockDim.x / 32) + warp;
  if (block >= job.columns * job.rows) return;
  const WarpShared<T, B, P> mem = WarpShared<T, B, P>::of(shared, warp);
  if constexpr (Predictive)
    predictive_refine_warp(job, mem, block % job.columns, block / job.columns, threadIdx.x % 32);
  else
    full_search_subpel_warp(job, mem, block % job.columns, block / job.columns, threadIdx.x % 32);
}

// The CTAs an SM must hold at once, as refine_kernel tells ptxas (0: nothing, ptxas's own choice
// of registers). Left to itself, ptxas holds the predictive build on frame planes to 56 registers
// for 4x4 and 8x8 blocks and spills; 6 CTAs allow it 80 (ptxas -v).
template <PlaneSource P, int B>
constexpr int kRefineMinCtas = P == PlaneSource::kFrame && B < 16 ? 6 : 0;

template <typename T, int B, PlaneSource P>
__global__ void __launch_bounds__(4 * 32, (kRefineMinCtas<P, B>)) refine_kernel(RefineJob job) {
  refine_cta_warp<T, B, P, true>(job);
}

template <typename T, int B, PlaneSource P>
__global__ void __launch_bounds__(4 * 32) full_search_subpel_kernel(RefineJob job) {
  refine_cta_warp<T, B, P, false>(job);
}

template <typename T, int B, PlaneSource P>
void launch_build(const RefineJob& job, cudaStream_t stream) {
  using Shared = WarpShared<T, B, P>;
  const long long blocks = static_cast<long long>(job.columns) * job.rows;
  const unsigned ctas = static_cast<unsigned>((blocks + Shared::kWarps - 1) / Shared::kWarps);
  const unsigned threads = Shared::kWarps * 32;
  const std::size_t bytes = Shared::kWarps * Shared::kBytes;
  if (job.predictive)
    refine_kernel<T, B, P><<<ctas, threads, bytes, stream>>>(job);
  else
    full_search_subpel_kernel<T, B, P><<<ctas, threads, bytes, stream>>>(job);
}

// The build P for the job's block size (motion_validate: 4..32).
template <typename T, PlaneSource P>
void launch_for_block(const RefineJob& job, cudaStream_t stream) {
  switch (job.block) {
    case 4:
      launch_build<T, 4, P>(job, stream);
      break;
    case 8:
      launch_build<T, 8, P>(job, stream);
      break;
    case 16:
      launch_build<T, 16, P>(job, stream);
      break;
    default:
      launch_build<T, 32, P>(job, stream);
      break;
  }
}

}  // namespace motion_detail
}  // namespace dpx
