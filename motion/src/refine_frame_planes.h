// The second stage of the sharp filters' sub-pel search on frame-wide phase planes
// (frame_planes.h): the planes of the reference built once by one kernel, then the warps read
// their candidates' samples there (refine_launch.cuh, PlaneSource::kFrame). refine_cuda runs it
// for the jobs that search patches (uses_patch_planes). CUDA builds only.
#pragma once

#include "dpx/motion.h"
#include "frame_planes.h"
#include "refine_block.h"

namespace dpx {
namespace motion_detail {

// The phase planes of the checked device plane `reference` by the filter of `mode` (h264 or hevc)
// into `planes` (frame_planes_layout of its size and sample type), on the stream.
Status build_frame_planes_cuda(const PlaneView& reference, MotionInterpolation mode,
                               const PhasePlanes& planes, cudaStream_t stream);

// A job that uses_patch_planes, its `phases` device memory of frame_planes_layout(width, height,
// sample size): the planes of its reference built there, then the second stage reading them.
Status refine_on_frame_planes(const RefineJob& job, SampleType type, cudaStream_t stream);

}  // namespace motion_detail
}  // namespace dpx
