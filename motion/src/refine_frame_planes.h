// The second stage with the sharp filters' sub-pel search on frame-wide phase planes
// (frame_planes.h): the planes of the reference built once by one kernel, then the warps read
// their candidates' samples there instead of building a patch's planes each (refine_launch.cuh,
// PlaneSource::kFrame). The same vectors and SADs as refine_cuda. A variant for dpx-bench and the
// tests (motion_variants.h), in the internal variants library. CUDA builds only.
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

// refine_cuda with the jobs that search patch planes reading the reference's frame planes, built
// into stream-ordered scratch (scratch.h) first; other jobs, and frames whose planes do not
// frame_planes_fit, go to refine_cuda itself.
Status refine_cuda_frame_planes(const RefineJob& job, SampleType type, cudaStream_t stream);

}  // namespace motion_detail
}  // namespace dpx
