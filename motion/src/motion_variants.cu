// The motion variants: kDpx runs the public call, kPlain the same pipeline on PlainOps.
#include "dpx_ops.cuh"
#include "motion_estimate_run.cuh"
#include "motion_variants.h"

namespace dpx {
namespace variants {

Status motion_estimate_cuda(OpsPolicy policy, const PlaneView& current, const PlaneView& reference,
                            const MotionParams& params, MotionVector* vectors, std::size_t capacity,
                            cudaStream_t stream, const MotionPrevious& previous) {
  if (policy == OpsPolicy::kDpx)
    return dpx::motion_estimate_cuda(current, reference, params, vectors, capacity, stream, previous);
  return motion_estimate_cuda_with<ops::PlainOps>(current, reference, params, vectors, capacity, stream, previous);
}

}  // namespace variants
}  // namespace dpx
