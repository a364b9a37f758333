// CUDA motion estimation with its ops policy chosen at run time, for dpx-bench and the tests (the
// internal dpxmotion_variants library, CUDA builds only): kDpx is the public call, kPlain the same
// kernels with a plain compare-and-select in place of __vibmin_u32 (dpx::ops::PlainOps), to show
// what the DPX instructions themselves bring. Same checks, same results.
#pragma once

#include <cstddef>

#include "dpx/motion.h"
#include "ops_policy.h"

namespace dpx {
namespace variants {

Status motion_estimate_cuda(OpsPolicy policy, const PlaneView& current, const PlaneView& reference,
                            const MotionParams& params, MotionVector* vectors, std::size_t capacity,
                            cudaStream_t stream, const MotionPrevious& previous = {});

}  // namespace variants
}  // namespace dpx
