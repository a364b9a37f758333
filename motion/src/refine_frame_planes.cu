// The frame-wide phase planes on the GPU: the builder kernel, a CTA a tile of every plane
// (frame_planes.h), and the second stage's build that reads them (refine_launch.cuh), compiled
// apart from the build without planes (refine_cuda.cu).
#include "refine_frame_planes.h"

#include <cuda_runtime.h>

#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "refine_launch.cuh"

namespace dpx {
namespace motion_detail {

namespace {

// The filter is made here from the sample type, so that its shifts and clip are constants.
template <typename T>
__global__ void __launch_bounds__(FramePlaneTile::kThreads)
    frame_planes_kernel(FrameSamples<T> frame, MotionInterpolation mode, FramePlanes<T> planes) {
  __shared__ T tile[FramePlaneTile::kSamples];
  stage_plane_tile(frame, blockIdx.x, blockIdx.y, threadIdx.x, tile);
  __syncthreads();
  build_plane_tile(subpel_filter(mode, sizeof(T)), planes, frame.width, frame.height, blockIdx.x, blockIdx.y,
                   threadIdx.x, tile);
}

template <typename T>
void launch_frame_planes(const PlaneView& reference, MotionInterpolation mode, const PhasePlanes& planes,
                         cudaStream_t stream) {
  const auto* ref = static_cast<const unsigned char*>(reference.data);
  const FrameSamples<T> frame{ref, ref, reference.pitch, reference.pitch, reference.width, reference.height};
  const dim3 grid(FramePlaneTile::columns(reference.width), FramePlaneTile::rows(reference.height));
  frame_planes_kernel<T>
      <<<grid, FramePlaneTile::kThreads, 0, stream>>>(frame, mode, FramePlanes<T>::of(planes));
}

}  // namespace

Status build_frame_planes_cuda(const PlaneView& reference, MotionInterpolation mode,
                               const PhasePlanes& planes, cudaStream_t stream) {
  if (reference.type == SampleType::kU8)
    launch_frame_planes<std::uint8_t>(reference, mode, planes, stream);
  else
    launch_frame_planes<std::uint16_t>(reference, mode, planes, stream);
  DPX_CUDA_CHECK_LAUNCH("frame_planes_kernel");
  return Status::ok();
}

Status refine_on_frame_planes(const RefineJob& job, SampleType type, cudaStream_t stream) {
  const PlaneView reference{job.ref, job.width, job.height, job.ref_pitch, 1, type};
  DPX_RETURN_IF_ERROR(build_frame_planes_cuda(reference, job.filter.mode, job.phases, stream));
  if (type == SampleType::kU8)
    launch_for_block<std::uint8_t, PlaneSource::kFrame>(job, stream);
  else
    launch_for_block<std::uint16_t, PlaneSource::kFrame>(job, stream);
  DPX_CUDA_CHECK_LAUNCH("refine_kernel");
  return Status::ok();
}

}  // namespace motion_detail
}  // namespace dpx
