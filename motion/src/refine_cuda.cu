// The second stage's launches: a warp per block (refine_launch.cuh), the jobs whose sub-pel stage
// searches patches (the sharp filters) on the frame's phase planes (refine_frame_planes.cu), the
// others built without planes, each build with the registers of its own path; and the 4x box
// average of the predictive search, one thread per coarse pixel.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "refine_frame_planes.h"
#include "refine_launch.cuh"

namespace dpx {
namespace motion_detail {

namespace {

template <typename T>
Status launch_refine(const RefineJob& job, cudaStream_t stream) {
  launch_for_block<T, PlaneSource::kNone>(job, stream);
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
  if (uses_patch_planes(job)) return refine_on_frame_planes(job, type, stream);
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
