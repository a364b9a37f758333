// The CUDA block matcher with its op policy as a template parameter: the public
// motion_estimate_cuda() is motion_estimate_cuda_with<dpx::ops::Dpx> (libdpxmotion); the internal
// variants library instantiates dpx::ops::PlainOps, the same kernel with a plain compare-and-select
// in place of __vibmin_u32 (motion_variants.h). Also the other launchers of the pipeline.
#pragma once

#include <cstddef>

#include "dpx/motion.h"
#include "motion_cost.h"
#include "refine_block.h"

namespace dpx {

namespace motion_detail {

// One exhaustive integer search on checked device planes, ranked by `cost` (params.subpel, search
// and lambda are not read), into `vectors`.
template <typename Ops>
Status full_search_cuda(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                        const CostModel& cost, MotionVector* vectors, cudaStream_t stream);

// The second stage (refine_block.h), one warp per block; a job that uses_patch_planes carries
// the device memory of its reference's phase planes in `phases` (refine_frame_planes.h).
Status refine_cuda(const RefineJob& job, SampleType type, cudaStream_t stream);

// The 4x box average of `src` into `dst` (its size: ceil(src / 4)).
Status box_average_cuda(const PlaneView& src, const MutablePlaneView& dst, cudaStream_t stream);


// draw_motion_cuda() after validate_draw(): the device-memory checks and the launch.
Status draw_motion_launch(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors,
                          cudaStream_t stream);

}  // namespace motion_detail

// The whole search on the stream.
template <typename Ops>
Status motion_estimate_cuda_with(const PlaneView& current, const PlaneView& reference,
                                 const MotionParams& params, MotionVector* vectors,
                                 std::size_t capacity, cudaStream_t stream, const MotionPrevious& previous = {});

}  // namespace dpx
