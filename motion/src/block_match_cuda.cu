// libdpxmotion's CUDA full search: block_match_launch.cuh on the DPX ops.
#include "block_match_launch.cuh"
#include "dpx_ops.cuh"

namespace dpx {
namespace motion_detail {

template Status full_search_cuda<ops::Dpx>(const PlaneView&, const PlaneView&, const MotionParams&, const CostModel&,
                                           MotionVector*, cudaStream_t);

}  // namespace motion_detail
}  // namespace dpx
