// DTW on the CPU: pairs spread over threads; per pair a row-by-row DP in int64 (exact, the same
// integers the CUDA kernels produce in 32- or 64-bit). Each row: a vectorisable pass over the
// diagonal and up neighbours and the costs, then a short serial pass for the left neighbour.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "worker_pool.h"
#include "align/common/distance_checks.h"
#include "dpx/align_distance.h"
#include "dtw_cells.cuh"

namespace dpx {
namespace {

using Wide = align::DtwValue<std::int64_t>;

struct RowBuffers {
  std::vector<std::int64_t> prev, cur, best, cost;
};

std::int64_t dtw_pair(const std::int32_t* a, std::int64_t n, const std::int32_t* b, std::int64_t m, int band,
                      RowBuffers* buf) {
  if (n == 0 || m == 0) return n == m ? 0 : kDtwNoPath;
  if (band >= 0 && std::max(n - m, m - n) > band) return kDtwNoPath;
  const std::int64_t radius = band >= 0 ? band : std::max(n, m);
  buf->prev.assign(m + 1, Wide::kInf);
  buf->cur.assign(m + 1, Wide::kInf);
  buf->best.resize(m + 1);
  buf->cost.resize(m + 1);
  std::int64_t* prev = buf->prev.data();
  std::int64_t* cur = buf->cur.data();
  std::int64_t* best = buf->best.data();
  std::int64_t* cost = buf->cost.data();
  prev[0] = 0;
  for (std::int64_t i = 1; i <= n; ++i) {
    // In-band columns of row i; the rest stays infinite.
    const std::int64_t lo = std::max<std::int64_t>(1, i - radius), hi = std::min(m, i + radius);
    const std::int32_t ai = a[i - 1];
    for (std::int64_t j = lo; j <= hi; ++j) {
      cost[j] = Wide::cost(ai, b[j - 1]);
      best[j] = std::min(prev[j - 1], prev[j]);
    }
    std::fill(cur, cur + lo, Wide::kInf);
    for (std::int64_t j = lo; j <= hi; ++j) cur[j] = cost[j] + std::min(best[j], cur[j - 1]);
    std::fill(cur + hi + 1, cur + m + 1, Wide::kInf);
    std::swap(prev, cur);
  }
  return prev[m] >= Wide::kInf ? kDtwNoPath : prev[m];
}

}  // namespace

Status dtw_cpu(const SeriesBatch& a, const SeriesBatch& b, Pairing pairing, const DtwOptions& options,
               std::vector<DtwResult>* out, int threads) {
  DPX_RETURN_IF_ERROR(align::check_dtw_inputs(a, b, pairing, options, out, "dtw_cpu"));
  const std::size_t pairs = pair_count(a.size(), b.size(), pairing);
  std::vector<DtwResult> results(pairs);
  DPX_RETURN_IF_ERROR(runtime::for_each_item<RowBuffers>(
      pairs, threads, [&](RowBuffers& buf, std::size_t p) {
        const std::size_t ia = pairing == Pairing::kOneToMany ? 0 : p;
        results[p].cost = dtw_pair(a.item(ia), static_cast<std::int64_t>(a.length(ia)), b.item(p),
                                   static_cast<std::int64_t>(b.length(p)), options.band, &buf);
        return Status::ok();
      }));
  *out = std::move(results);
  return Status::ok();
}

}  // namespace dpx
