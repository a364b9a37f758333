// DTW on CUDA: every pair runs in 32-bit cells (DPX three-way min) when its value range proves the
// costs fit, otherwise in 64-bit cells. 32-bit pairs whose shorter series fits a warp's registers
// run one per warp (dtw_warp.cuh); the strip launches take the rest, each skipping others' pairs.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_check.h"
#include "distance_checks.h"
#include "distance_launch.h"
#include "dpx/align_distance.h"
#include "dtw_cells.cuh"
#include "dtw_warp.cuh"
#include "group_launch.cuh"

namespace dpx {
namespace align {
namespace {

constexpr int kNarrowRows = 16;
constexpr int kWideRows = 8;  // 64-bit values take two registers each

template <int R, class Ops, typename V, bool kBanded>
Status launch_width(const PairBatchView<std::int32_t>& view, int band, std::int64_t max_length, bool report_rejected,
                    std::int64_t* costs, cudaStream_t stream) {
  DtwFactory<Ops, V, kBanded> factory;
  factory.batch = view;
  factory.band = band;
  factory.max_length = max_length;
  factory.report_rejected = report_rejected;
  factory.warp_rows = kWarpDtwMaxRows;
  factory.out = costs;
  return launch_batch<R>(factory, max_length, max_length, stream);
}

template <class Ops, bool kBanded>
Status launch_dtw_with(const PairBatchView<std::int32_t>& view, int band, std::int64_t max_length, std::int64_t* costs,
                       cudaStream_t stream) {
  using Narrow = DtwNarrowOps<Ops>;
  DPX_RETURN_IF_ERROR(
      (launch_warp_dtw<Narrow, kBanded>(WarpDtwLaunch<Narrow>::of(view, max_length, band, costs), stream)));
  DPX_RETURN_IF_ERROR((launch_width<kNarrowRows, Ops, std::int32_t, kBanded>(view, band, max_length, true, costs, stream)));
  return launch_width<kWideRows, Ops, std::int64_t, kBanded>(view, band, max_length, false, costs, stream);
}

}  // namespace

Status launch_dtw(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing, const DtwOptions& options,
                  std::size_t max_length, std::int64_t* costs, OpsPolicy policy, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(check_band(options.band, "dtw_cuda_async"));
  DPX_RETURN_IF_ERROR(check_device_inputs(a.size(), b.size(), pairing, max_length, costs, "dtw_cuda_async"));
  const PairBatchView<std::int32_t> view = make_device_view(a, b, pairing);
  const auto longest = static_cast<std::int64_t>(max_length);
  const bool banded = options.band >= 0;
  if (policy == OpsPolicy::kDpx) {
    return banded ? launch_dtw_with<ops::Dpx, true>(view, options.band, longest, costs, stream)
                  : launch_dtw_with<ops::Dpx, false>(view, options.band, longest, costs, stream);
  }
  return banded ? launch_dtw_with<ops::PlainOps, true>(view, options.band, longest, costs, stream)
                : launch_dtw_with<ops::PlainOps, false>(view, options.band, longest, costs, stream);
}

}  // namespace align

Status dtw_cuda_async(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing,
                      const DtwOptions& options, std::size_t max_length, std::int64_t* costs, cudaStream_t stream) {
  return align::launch_dtw(a, b, pairing, options, max_length, costs, OpsPolicy::kDpx, stream);
}

Status dtw_cuda(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
                std::vector<DtwResult>* out, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::check_dtw_inputs(a, b, pairing, options, out, "dtw_cuda"));
  if (cuda_device_count() == 0) return Status(StatusCode::kNoDevice, "dtw_cuda: no usable CUDA device");
  const std::size_t pairs = pair_count(a.size(), b.size(), pairing);
  std::vector<DtwResult> results(pairs);
  if (pairs > 0) {
    DeviceSeriesBatch da, db;
    DPX_RETURN_IF_ERROR(da.upload(a, stream));
    DPX_RETURN_IF_ERROR(db.upload(b, stream));
    DeviceBuffer costs;
    DPX_RETURN_IF_ERROR(costs.allocate(pairs * sizeof(std::int64_t)));
    const std::size_t longest = std::max(a.max_length(), b.max_length());
    DPX_RETURN_IF_ERROR(dtw_cuda_async(da, db, pairing, options, longest, costs.as<std::int64_t>(), stream));
    std::vector<std::int64_t> host(pairs);
    DPX_CUDA_TRY(cudaMemcpyAsync(host.data(), costs.data(), pairs * sizeof(std::int64_t), cudaMemcpyDeviceToHost,
                                 stream));
    DPX_CUDA_TRY(cudaStreamSynchronize(stream));
    for (std::size_t p = 0; p < pairs; ++p) results[p].cost = host[p];
  }
  *out = std::move(results);
  return Status::ok();
}

}  // namespace dpx
