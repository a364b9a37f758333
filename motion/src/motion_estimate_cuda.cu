// libdpxmotion's CUDA motion estimation: motion_estimate_run.cuh on the DPX ops (the plain-ops
// instance lives in the internal variants library, motion_variants.cu).
#include "dpx_ops.cuh"
#include "motion_estimate_run.cuh"

namespace dpx {

template Status motion_estimate_cuda_with<ops::Dpx>(const PlaneView&, const PlaneView&, const MotionParams&,
                                                    MotionVector*, std::size_t, cudaStream_t, const MotionPrevious&);

}  // namespace dpx
