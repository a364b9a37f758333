// DTW on float series on the CPU: pairs spread over threads, per pair a row-by-row DP with the
// same operations as the CUDA kernels (dtw_float.cuh). Each row: a vectorisable pass for the
// differences, then a serial pass through the cells.
//
// GCC contracts a * b + c across statements into a fused multiply-add where the target has one;
// the only fused operation here is the explicit std::fma of dtw_float.cuh, so contraction stays off.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <cstdint>
#include <vector>

#include "worker_pool.h"
#include "align/common/distance_checks.h"
#include "dpx/align_distance.h"
#include "dtw_float.cuh"

namespace dpx {
namespace {

struct RowBuffers {
  std::vector<float> prev, cur, diff;
};

template <bool kSquared>
float dtw_pair(const float* a, std::int64_t n, const float* b, std::int64_t m, int band, RowBuffers* buf) {
  using Ops = align::DtwFloatOps<kSquared>;
  const float inf = Ops::infinity();
  if (n == 0 || m == 0) return n == m ? 0.0f : kDtwFloatNoPath;
  if (band >= 0 && std::max(n - m, m - n) > band) return kDtwFloatNoPath;
  const std::int64_t radius = band >= 0 ? band : std::max(n, m);
  buf->prev.assign(m + 1, inf);
  buf->cur.assign(m + 1, inf);
  buf->diff.resize(m + 1);
  float* prev = buf->prev.data();
  float* cur = buf->cur.data();
  float* diff = buf->diff.data();
  prev[0] = 0.0f;
  for (std::int64_t i = 1; i <= n; ++i) {
    const std::int64_t lo = std::max<std::int64_t>(1, i - radius), hi = std::min(m, i + radius);
    const float ai = a[i - 1];
    for (std::int64_t j = lo; j <= hi; ++j) diff[j] = Ops::diff(ai, b[j - 1]);
    std::fill(cur, cur + lo, inf);
    for (std::int64_t j = lo; j <= hi; ++j)
      cur[j] = Ops::from_diff(diff[j], Ops::min3(prev[j - 1], prev[j], cur[j - 1]));
    std::fill(cur + hi + 1, cur + m + 1, inf);
    std::swap(prev, cur);
  }
  return prev[m];
}

}  // namespace

Status dtw_float_cpu(const FloatSeriesBatch& a, const FloatSeriesBatch& b, Pairing pairing,
                     const DtwFloatOptions& options, std::vector<float>* costs, int threads) {
  DPX_RETURN_IF_ERROR(align::check_dtw_float_inputs(a, b, pairing, options, costs, "dtw_float_cpu"));
  const std::size_t pairs = pair_count(a.size(), b.size(), pairing);
  std::vector<float> results(pairs);
  const bool squared = options.cost == DtwCost::kSquared;
  DPX_RETURN_IF_ERROR(runtime::for_each_item<RowBuffers>(
      pairs, runtime::worker_count(threads, pairs), [&](RowBuffers& buf, std::size_t p) {
        const std::size_t ia = pairing == Pairing::kOneToMany ? 0 : p;
        const auto n = static_cast<std::int64_t>(a.length(ia)), m = static_cast<std::int64_t>(b.length(p));
        results[p] = squared ? dtw_pair<true>(a.item(ia), n, b.item(p), m, options.band, &buf)
                             : dtw_pair<false>(a.item(ia), n, b.item(p), m, options.band, &buf);
        return Status::ok();
      }));
  *costs = std::move(results);
  return Status::ok();
}

}  // namespace dpx
