// The CUDA entry points in a build without CUDA: arguments are still checked, then the call says
// why it cannot run.
#include "dpx/motion.h"
#include "draw_segment.h"

namespace dpx {

namespace {
Status not_built() { return Status(StatusCode::kNotBuilt, "libdpxmotion was built without CUDA support"); }
}  // namespace

Status motion_estimate_cuda(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                            MotionVector*, std::size_t, cudaStream_t, const MotionPrevious& previous) {
  DPX_RETURN_IF_ERROR(motion_validate(current, reference, params, previous));
  return not_built();
}

Status draw_motion_cuda(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors,
                        cudaStream_t) {
  DPX_RETURN_IF_ERROR(motion_detail::validate_draw(plane, grid, vectors));
  return not_built();
}

}  // namespace dpx
