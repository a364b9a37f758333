// CPU full search: every block visits the candidates in tie order (match_key.h), so the running
// best keeps the earlier candidate on equal costs — the update is the predicate-returning min of
// dpx_ops.cuh (its host side), the same operation the CUDA kernel uses. Block rows are spread over
// threads of the worker pool. The cost is the SAD plus the penalty of motion_cost.h (zero when
// lambda is 0).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "block_match_cpu.h"
#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "match_key.h"
#include "motion_cost.h"
#include "worker_pool.h"

namespace dpx {

namespace {

struct Offset {
  int dx, dy;
};

// Every (dx, dy) with |dx|, |dy| <= range, in tie order.
std::vector<Offset> candidates_in_tie_order(int range) {
  std::vector<Offset> c;
  for (int dy = -range; dy <= range; ++dy)
    for (int dx = -range; dx <= range; ++dx) c.push_back(Offset{dx, dy});
  std::sort(c.begin(), c.end(), [range](const Offset& a, const Offset& b) {
    return motion_detail::tie_key(a.dx, a.dy, range) < motion_detail::tie_key(b.dx, b.dy, range);
  });
  return c;
}

template <typename T>
std::uint32_t row_sad(const T* a, const T* b, int n) {
  std::uint32_t s = 0;
  for (int j = 0; j < n; ++j) s += static_cast<std::uint32_t>(std::abs(int(a[j]) - int(b[j])));
  return s;
}

template <typename T>
const T* pixel(const PlaneView& p, int x, int y) {
  return reinterpret_cast<const T*>(p.row(y)) + x;
}

// SAD of the bw x bh block at (x0, y0) against the reference displaced by (dx, dy). Stops once the
// partial sum exceeds `bound`: such a candidate cannot win, and any value above bound says so.
template <typename T>
std::uint32_t block_sad(const PlaneView& cur, const PlaneView& ref, int x0, int y0, int bw, int bh,
                        Offset d, std::uint32_t bound) {
  std::uint32_t sum = 0;
  for (int i = 0; i < bh && sum <= bound; ++i)
    sum += row_sad(pixel<T>(cur, x0, y0 + i), pixel<T>(ref, x0 + d.dx, y0 + i + d.dy), bw);
  return sum;
}

template <typename T>
MotionVector match_block(const PlaneView& cur, const PlaneView& ref, int b, int range,
                         const motion_detail::Penalty& pen, const std::vector<Offset>& order, int column,
                         int row) {
  const int x0 = column * b, y0 = row * b;
  const int bw = std::min(b, cur.width - x0), bh = std::min(b, cur.height - y0);
  const auto xr = motion_detail::offset_range(x0, bw, cur.width, range);
  const auto yr = motion_detail::offset_range(y0, bh, cur.height, range);
  std::uint32_t best = UINT32_MAX;
  std::size_t best_index = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Offset d = order[i];
    if (d.dx < xr.lo || d.dx > xr.hi || d.dy < yr.lo || d.dy > yr.hi) continue;
    const std::uint32_t extra = pen.pixels(d.dx, d.dy);
    if (extra >= best) continue;  // its cost is at least the best's: an earlier candidate stays
    const std::uint32_t cost = block_sad<T>(cur, ref, x0, y0, bw, bh, d, best - extra) + extra;
    bool keep;  // true when the best so far is <= cost: on a tie the earlier candidate stays
    best = ops::Dpx::bmin_u32(best, cost, &keep);
    best_index = keep ? best_index : i;
  }
  MotionVector v;
  v.dx = static_cast<std::int16_t>(order[best_index].dx);
  v.dy = static_cast<std::int16_t>(order[best_index].dy);
  v.sad = best;
  return v;
}

template <typename T>
void match_rows(const PlaneView& cur, const PlaneView& ref, const MotionParams& params,
                const motion_detail::CostModel& cost, const std::vector<Offset>& order, int first_row,
                int row_step, MotionField* field) {
  const MotionGrid& g = field->grid;
  for (int r = first_row; r < g.rows; r += row_step)
    for (int c = 0; c < g.columns; ++c)
      field->vectors[static_cast<std::size_t>(r) * g.columns + c] = match_block<T>(
          cur, ref, params.block_size, params.search_range, cost.at(c, r, g.columns), order, c, r);
}

}  // namespace

namespace motion_detail {

Status full_search_cpu(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                       const CostModel& cost, MotionField* field, int threads) {
  field->resize(motion_grid(current.width, current.height, params.block_size));
  const std::vector<Offset> order = candidates_in_tie_order(params.search_range);

  const int n = runtime::worker_count(threads, static_cast<std::size_t>(field->grid.rows));
  return runtime::run_workers(n, [&](const runtime::Worker& w) {
    if (current.type == SampleType::kU8)
      match_rows<std::uint8_t>(current, reference, params, cost, order, w.index, n, field);
    else
      match_rows<std::uint16_t>(current, reference, params, cost, order, w.index, n, field);
    return Status::ok();
  });
}

}  // namespace motion_detail
}  // namespace dpx
