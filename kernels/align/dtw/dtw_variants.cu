// DTW with the op policy chosen at run time, for dpx-bench and the tests: kDpx is the library's
// launch, kPlain the same sequence on plain two-operand min.
#include "align/common/distance_checks.h"
#include "dtw_cuda.h"
#include "align/common/align_variants.h"
#include "dtw_launch.cuh"

namespace dpx {
namespace variants {

Status launch_dtw(OpsPolicy policy, const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing,
                  const DtwOptions& options, std::size_t max_length, std::int64_t* costs, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(
      align::check_dtw_device_inputs(a.size(), b.size(), pairing, options, max_length, costs, "dtw_cuda_async"));
  if (policy == OpsPolicy::kDpx) return align::launch_dtw(a, b, pairing, options, max_length, costs, stream);
  return align::launch_dtw_ops<ops::PlainOps>(a, b, pairing, options, max_length, costs, stream);
}

}  // namespace variants
}  // namespace dpx
