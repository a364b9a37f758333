// DTW on float series on CUDA: pairs whose shorter series has at most 1,024 elements run one per
// warp with the column in registers (dtw_warp.cuh); the rest (longer pairs, empty series, pairs
// over the declared length) run on the strip wavefront.
//
// The cell is written with _rn intrinsics (one __fmaf_rn for the squared cost, dtw_float.cuh), which
// nvcc never contracts further, so the results equal the CPU's bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "align/common/pair_upload.cuh"
#include "dpx/align_distance.h"
#include "dtw_cuda.h"
#include "dtw_float.cuh"
#include "dtw_warp.cuh"
#include "align/common/group_launch.cuh"

namespace dpx {
namespace align {
namespace {

constexpr int kStripRows = 16;

template <bool kSquared, bool kBanded>
Status launch_with(const PairBatchView<float>& view, int band, std::int64_t max_length, float* costs,
                   cudaStream_t stream) {
  using Ops = DtwFloatOps<kSquared>;
  DPX_RETURN_IF_ERROR((launch_warp_dtw<Ops, kBanded>(WarpDtwLaunch<Ops>::of(view, max_length, band, costs), stream)));
  DtwFloatFactory<kSquared, kBanded> strips;
  strips.batch = view;
  strips.band = band;
  strips.max_length = max_length;
  strips.warp_rows = kWarpDtwMaxRows;
  strips.out = costs;
  // Within the register kernel's rows the strips only see empty and over-long pairs: no scratch.
  const std::int64_t strip_rows = max_length <= kWarpDtwMaxRows ? 0 : max_length;
  return launch_batch<kStripRows>(strips, strip_rows, max_length, stream);
}

Status launch_view(const PairBatchView<float>& view, const DtwFloatOptions& options, std::size_t max_length,
                   float* costs, cudaStream_t stream) {
  const auto longest = static_cast<std::int64_t>(max_length);
  const bool banded = options.band >= 0, squared = options.cost == DtwCost::kSquared;
  if (squared) {
    return banded ? launch_with<true, true>(view, options.band, longest, costs, stream)
                  : launch_with<true, false>(view, options.band, longest, costs, stream);
  }
  return banded ? launch_with<false, true>(view, options.band, longest, costs, stream)
                : launch_with<false, false>(view, options.band, longest, costs, stream);
}

}  // namespace

Status launch_dtw_float(const DeviceFloatSeriesBatch& a, const DeviceFloatSeriesBatch& b, Pairing pairing,
                        const DtwFloatOptions& options, std::size_t max_length, float* costs, cudaStream_t stream) {
  return launch_view(make_device_view(a, b, pairing), options, max_length, costs, stream);
}

Status dtw_float_cuda_launch(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                             const DtwFloatOptions& options, std::vector<float>* costs, cudaStream_t stream) {
  if (cuda_device_count() == 0) return Status(StatusCode::kNoDevice, "dtw_float_cuda: no usable CUDA device");
  const std::size_t pairs = pair_count(a.size(), b.size(), pairing);
  std::vector<float> results(pairs);
  if (pairs > 0) {
    const std::size_t longest = std::max(a.max_length(), b.max_length());
    DPX_RETURN_IF_ERROR(run_host_batch(a, b, pairing, &results, stream,
                                       [&](const PairBatchView<float>& view, float* out) {
                                         return launch_view(view, options, longest, out, stream);
                                       }));
  }
  *costs = std::move(results);
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
