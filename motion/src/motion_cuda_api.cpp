// The CUDA entry points of libdpxmotion, in both builds: arguments are checked, then the CUDA
// backend runs them or the call says it was not built.
#include "block_match_cuda.h"
#include "cuda_backend.h"
#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "draw_segment.h"

namespace dpx {

Status motion_estimate_cuda(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                            MotionVector* vectors, std::size_t capacity, cudaStream_t stream,
                            const MotionPrevious& previous) {
  DPX_RETURN_IF_ERROR(motion_validate(current, reference, params, previous));
  DPX_CUDA_BACKEND("motion_estimate_cuda", motion_estimate_cuda_with<ops::Dpx>(current, reference, params, vectors,
                                                                               capacity, stream, previous));
}

Status draw_motion_cuda(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors,
                        cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(motion_detail::validate_draw(plane, grid, vectors));
  DPX_CUDA_BACKEND("draw_motion_cuda", motion_detail::draw_motion_launch(plane, grid, vectors, stream));
}

}  // namespace dpx
