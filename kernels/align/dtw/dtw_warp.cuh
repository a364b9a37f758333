// DTW of one pair per warp with the whole column in registers (pairs whose shorter series has at
// most 32 * R elements): lane L holds rows [L*R + 1, L*R + R] of the shorter series and sweeps the
// other one column per step, one step behind lane L - 1, from which a shuffle brings the cell
// above its first row. No strips, no scratch: m + (n - 1) / R steps of R cells each.
//
// No lane branches on its column: a lane before its first column (its column below 1) computes
// cells from the infinite D(i, 0) column and other such cells, and those stay infinite (floats)
// or at least the 32-bit infinity (ints; no wrap: warp_dtw_admits), so they act as D(i, 0) when
// the lane's first column comes; a lane past its last column feeds only other lanes' columns past
// theirs. The sweep stops at the step where the lane holding row n finishes column m. Keeping
// branches out lets the two register arrays stay apart (a branch that leaves a column as it is
// makes ptxas merge them and copy every new cell: a third more instructions a cell).
//
// Ops (DtwFloatOps, DtwNarrowOps) give Input, Value, Output, infinity(), zero(), cell(diag, up,
// left, x, y) (D(i, j) from its neighbours and the two elements) and output(v).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda_check.h"
#include "launch_sizing.h"
#include "dtw_cells.cuh"
#include "align/common/pair_batch.cuh"
#include "align/common/wavefront.cuh"

namespace dpx {
namespace align {

constexpr int kWarpDtwThreads = 128;
// Rows of the widest class; longer shorter sides run on the strip wavefront.
constexpr int kWarpDtwMaxRows = 32 * 32;

// int32 series in 32-bit cells with DPX three-way minimum, for pairs whose value range proves
// every finite cell fits (dtw_needs_wide); the others stay with the strip kernels.
template <class OpsPolicy>
struct DtwNarrowOps {
  using Traits = DtwValue<std::int32_t>;
  using Input = std::int32_t;
  using Value = std::int32_t;
  using Output = std::int64_t;
  static DPX_HD Value infinity() { return Traits::kInf; }
  static DPX_HD Value zero() { return 0; }
  // |x - y| + min3 as VIMNMX3 and one accumulating VABSDIFF: two instructions a cell. The same
  // value as DtwCell's step for every pair this path takes (no difference or sum wraps there).
  static DPX_HD Value cell(Value diag, Value up, Value left, Input x, Input y) {
    const auto best = static_cast<std::uint32_t>(Traits::template min3<OpsPolicy>(diag, up, left));
    return static_cast<Value>(OpsPolicy::sad_s32(x, y, best));
  }
  static DPX_HD Output output(Value v) { return v >= Traits::kInf ? kDtwNoPath : v; }
};

template <class Ops>
struct WarpDtwLaunch {
  PairBatchView<typename Ops::Input> batch;
  std::int64_t max_length = 0;
  int band = -1;
  int rows_above = 0, rows_up_to = 0;  // shorter sides in (above, up_to]
  typename Ops::Output* out = nullptr;

  static WarpDtwLaunch of(const PairBatchView<typename Ops::Input>& batch, std::int64_t max_length, int band,
                          typename Ops::Output* out) {
    WarpDtwLaunch c;
    c.batch = batch;
    c.max_length = max_length;
    c.band = band;
    c.out = out;
    return c;
  }
};

#if defined(__CUDACC__)
// Whether the pair's values suit Ops' cells (every float pair does; int32 pairs by their range).
template <class Ops>
__device__ bool warp_dtw_admits(const WarpGroup<32>&, const float*, int, const float*, int) {
  return true;
}
template <class Ops>
__device__ bool warp_dtw_admits(const WarpGroup<32>& g, const std::int32_t* a, int n, const std::int32_t* b, int m) {
  std::int32_t lo = 2147483647, hi = -2147483647 - 1;
  group_min_max(g, a, n, &lo, &hi);
  group_min_max(g, b, m, &lo, &hi);
  // Finite cells stay below the 32-bit infinity, and so no cell the sweep computes (those outside
  // the lanes' columns included) wraps: a cell is at most its left neighbour plus the range, over
  // m + (n - 1) / R <= n + m - 1 steps from infinity, so below twice the infinity = 2^31.
  return !dtw_needs_wide(static_cast<std::int64_t>(hi) - lo, n, m);
}

// One lane's state along the sweep. A step reads the previous column from one register array and
// writes the new one into the other; the two swap roles every step, so a cell's old value (the
// next cell's diagonal) never has to be copied aside before its register is overwritten.
template <int R, class Ops, bool kBanded>
struct WarpDtwSweep {
  using Input = typename Ops::Input;
  using Value = typename Ops::Value;
  const WarpGroup<32>& g;
  const typename Ops::Input* b;
  int m, band, lane, base;
  Input rows[R];
  Value diag, send;
  Input next;

  __device__ __forceinline__ void step(int s, const Value (&from)[R], Value (&to)[R]) {
    Value up = g.shfl_up(send);
    if (lane == 0) up = Ops::infinity();  // D(0, j), j >= 1
    const int j = s - lane + 1;           // this lane's column (outside 1..m: see the top)
    const Input y = next;
    if (static_cast<unsigned>(j) < static_cast<unsigned>(m)) next = __ldg(b + j);  // column j + 1's
    const Value top = up;
    Value d = diag;
    DPX_UNROLL
    for (int k = 0; k < R; ++k) {
      Value v = Ops::cell(d, up, from[k], rows[k], y);
      if constexpr (kBanded) {
        const int i = base + k + 1;
        if (i - j > band || j - i > band) v = Ops::infinity();
      }
      d = from[k];
      to[k] = v;
      up = v;
    }
    diag = top;
    send = to[R - 1];
  }
};

template <int R, class Ops, bool kBanded>
__device__ void warp_dtw_pair(const WarpGroup<32>& g, const typename Ops::Input* a, int n,
                              const typename Ops::Input* b, int m, int band, typename Ops::Output* out) {
  using Input = typename Ops::Input;
  using Value = typename Ops::Value;
  const int lane = g.lane();
  WarpDtwSweep<R, Ops, kBanded> sweep{g, b, m, band, lane, lane * R};  // rows base+1 .. base+R
  Value h[R], other[R];
  DPX_UNROLL
  for (int k = 0; k < R; ++k) {
    sweep.rows[k] = sweep.base + k < n ? a[sweep.base + k] : Input();
    h[k] = Ops::infinity();  // D(i, 0)
  }
  sweep.diag = lane == 0 ? Ops::zero() : Ops::infinity();  // D(base, 0)
  sweep.send = Ops::infinity();
  sweep.next = __ldg(b);  // column 1's element; lanes before their first column use it too
  // Steps two at a time (the arrays swap roles), the last one alone when the count is odd.
  const int last_lane = (n - 1) / R, last_row = (n - 1) % R;
  const int steps = m + last_lane;
  int s = 0;
  for (; s + 1 < steps; s += 2) {
    sweep.step(s, h, other);
    sweep.step(s + 1, other, h);
  }
  Value cost;
  if (s < steps) {
    sweep.step(s, h, other);
    cost = select_register<R>(other, last_row);
  } else {
    cost = select_register<R>(h, last_row);
  }
  if (lane == last_lane) *out = Ops::output(cost);
}

// Each warp takes pairs warp, warp + warps, ...; the shorter series runs down the rows.
template <int R, class Ops, bool kBanded>
__global__ void __launch_bounds__(kWarpDtwThreads) warp_dtw_kernel(const WarpDtwLaunch<Ops> c) {
  const WarpGroup<32> g;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / 32;
  for (std::int64_t p = warp; p < c.batch.pairs; p += warps) {
    const auto q = c.batch.query(p);
    const auto t = c.batch.target(p);
    if (q.length > c.max_length || t.length > c.max_length) continue;
    const auto x = t.length < q.length ? t : q;  // the shorter: DTW is symmetric, min order-free
    const auto y = t.length < q.length ? q : t;
    if (x.length <= c.rows_above || x.length > c.rows_up_to) continue;
    const int n = static_cast<int>(x.length), m = static_cast<int>(y.length);
    if (!warp_dtw_admits<Ops>(g, x.data, n, y.data, m)) continue;
    warp_dtw_pair<R, Ops, kBanded>(g, x.data, n, y.data, m, c.band, c.out + p);
  }
}

template <int R, class Ops, bool kBanded>
Status launch_warp_dtw_class(const WarpDtwLaunch<Ops>& c, cudaStream_t stream) {
  std::int64_t resident = 1;
  DPX_RETURN_IF_ERROR(runtime::resident_blocks(warp_dtw_kernel<R, Ops, kBanded>, kWarpDtwThreads, 0, &resident));
  constexpr int kWarpsPerBlock = kWarpDtwThreads / 32;
  const std::int64_t needed = (c.batch.pairs + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const std::int64_t blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(needed, resident));
  warp_dtw_kernel<R, Ops, kBanded><<<static_cast<unsigned>(blocks), kWarpDtwThreads, 0, stream>>>(c);
  DPX_CUDA_CHECK_LAUNCH("warp_dtw_kernel");
  return Status::ok();
}

// Launches the row classes (R = 4, 8, 16, 32: up to 128, 256, 512, 1,024 rows) that pairs of up
// to `max_length` can reach. The caller's strip kernels take every pair these leave.
template <class Ops, bool kBanded>
Status launch_warp_dtw(WarpDtwLaunch<Ops> c, cudaStream_t stream) {
  if (c.batch.pairs == 0) return Status::ok();
  c.rows_above = 0;
  c.rows_up_to = 128;
  DPX_RETURN_IF_ERROR((launch_warp_dtw_class<4, Ops, kBanded>(c, stream)));
  if (c.max_length <= 128) return Status::ok();
  c.rows_above = 128;
  c.rows_up_to = 256;
  DPX_RETURN_IF_ERROR((launch_warp_dtw_class<8, Ops, kBanded>(c, stream)));
  if (c.max_length <= 256) return Status::ok();
  c.rows_above = 256;
  c.rows_up_to = 512;
  DPX_RETURN_IF_ERROR((launch_warp_dtw_class<16, Ops, kBanded>(c, stream)));
  if (c.max_length <= 512) return Status::ok();
  c.rows_above = 512;
  c.rows_up_to = kWarpDtwMaxRows;
  return launch_warp_dtw_class<32, Ops, kBanded>(c, stream);
}
#endif

}  // namespace align
}  // namespace dpx
