// DTW on CUDA: the DPX launch sequence of dtw_launch.cuh and the host-batch form.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "align/common/pair_upload.cuh"
#include "dpx/align_distance.h"
#include "dtw_cuda.h"
#include "dtw_launch.cuh"

namespace dpx {
namespace align {

Status launch_dtw(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing, const DtwOptions& options,
                  std::size_t max_length, std::int64_t* costs, cudaStream_t stream) {
  return launch_dtw_ops<ops::Dpx>(a, b, pairing, options, max_length, costs, stream);
}

Status dtw_cuda_launch(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
                       std::vector<DtwResult>* out, cudaStream_t stream) {
  if (cuda_device_count() == 0) return Status(StatusCode::kNoDevice, "dtw_cuda: no usable CUDA device");
  const std::size_t pairs = pair_count(a.size(), b.size(), pairing);
  std::vector<DtwResult> results(pairs);
  if (pairs > 0) {
    const std::size_t longest = std::max(a.max_length(), b.max_length());
    std::vector<std::int64_t> host(pairs);
    DPX_RETURN_IF_ERROR(run_host_batch(a, b, pairing, &host, stream,
                                       [&](const PairBatchView<std::int32_t>& view, std::int64_t* costs) {
                                         return launch_dtw_view<ops::Dpx>(view, options, longest, costs, stream);
                                       }));
    for (std::size_t p = 0; p < pairs; ++p) results[p].cost = host[p];
  }
  *out = std::move(results);
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
