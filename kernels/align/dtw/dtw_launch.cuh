// The int32 DTW launch sequence as a template on the op policy: the library instantiates it for
// DPX (dtw_cuda.cu), the internal variants library for plain two-operand min (dtw_variants.cu).
// Every pair runs in 32-bit cells (three-way min) when its value range proves the costs fit,
// otherwise in 64-bit cells; 32-bit pairs whose shorter series fits a warp's registers run one per
// warp (dtw_warp.cuh), the strip launches take the rest, each skipping others' pairs.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.h"
#include "dtw_cells.cuh"
#include "dtw_warp.cuh"
#include "align/common/group_launch.cuh"

namespace dpx {
namespace align {
namespace dtw_detail {

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

}  // namespace dtw_detail

// Arguments already checked (check_dtw_device_inputs).
template <class Ops>
Status launch_dtw_view(const PairBatchView<std::int32_t>& view, const DtwOptions& options, std::size_t max_length,
                       std::int64_t* costs, cudaStream_t stream) {
  const auto longest = static_cast<std::int64_t>(max_length);
  return options.band >= 0 ? dtw_detail::launch_dtw_with<Ops, true>(view, options.band, longest, costs, stream)
                           : dtw_detail::launch_dtw_with<Ops, false>(view, options.band, longest, costs, stream);
}

template <class Ops>
Status launch_dtw_ops(const DeviceSeriesBatch& a, const DeviceSeriesBatch& b, Pairing pairing, const DtwOptions& options,
                      std::size_t max_length, std::int64_t* costs, cudaStream_t stream) {
  return launch_dtw_view<Ops>(make_device_view(a, b, pairing), options, max_length, costs, stream);
}

}  // namespace align
}  // namespace dpx
