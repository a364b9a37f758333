// Dynamic time warping as wavefront cells, host and device:
//   D(i, j) = |a_i - b_j| + min(D(i-1, j-1), D(i-1, j), D(i, j-1)),  D(0, 0) = 0, other edges infinite;
// with a Sakoe-Chiba band, cells with |i - j| > band are infinite too.
//
// A pair runs in 32-bit values when a bound proves every finite cell fits: a cell's value is the
// cost of a path of at most i + j - 1 cells, each at most the value range of the two series, so
// range * (n + m - 1) < 2^30 keeps finite cells below the 32-bit "infinity" 2^30, and infinity plus
// one cost below 2^31. Otherwise the pair runs in 64-bit values (infinity 2^62; costs < 2^32 and
// paths < 2^18 cells keep finite values below 2^50). Finite cells never pick an infinite
// neighbour: every in-band cell has a finite in-band predecessor.
#pragma once

#include <cstdint>

#include "dpx/align_distance.h"
#include "dpx_ops.cuh"
#include "align/common/pair_batch.cuh"

namespace dpx {
namespace align {

template <typename V>
struct DtwValue;
template <>
struct DtwValue<std::int32_t> {
  using Unsigned = std::uint32_t;
  static constexpr std::int32_t kInf = std::int32_t{1} << 30;
  template <class Ops>
  static DPX_HD std::int32_t min3(std::int32_t a, std::int32_t b, std::int32_t c) { return Ops::min3_s32(a, b, c); }
  // |a - b|; exact while the pair passed the 32-bit bound (padding rows may wrap, harmlessly).
  static DPX_HD std::int32_t cost(std::int32_t a, std::int32_t b) {
    const std::uint32_t d = static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b);
    return static_cast<std::int32_t>(static_cast<std::int32_t>(d) < 0 ? 0u - d : d);
  }
};
template <>
struct DtwValue<std::int64_t> {
  using Unsigned = std::uint64_t;
  static constexpr std::int64_t kInf = std::int64_t{1} << 62;
  template <class Ops>
  static DPX_HD std::int64_t min3(std::int64_t a, std::int64_t b, std::int64_t c) {
    return ops::lanes::min2(ops::lanes::min2(a, b), c);  // no 64-bit DPX instruction
  }
  static DPX_HD std::int64_t cost(std::int32_t a, std::int32_t b) {
    const std::int64_t d = static_cast<std::int64_t>(a) - static_cast<std::int64_t>(b);
    return d < 0 ? -d : d;
  }
};

// Whether a pair must run in 64-bit values (see above); `range` = max - min over both series.
DPX_HD bool dtw_needs_wide(std::int64_t range, std::int64_t n, std::int64_t m) {
  return range * (n + m - 1) >= DtwValue<std::int32_t>::kInf;
}

template <class Ops, typename V, bool kBanded>
struct DtwCell {
  using Value = V;
  using RowKey = std::int32_t;
  using ColKey = std::int32_t;
  using Traits = DtwValue<V>;
  static constexpr int kTargets = 1;
  static constexpr bool kRecords = false;

  const std::int32_t* a = nullptr;
  const std::int32_t* b = nullptr;
  int n = 0, m = 0;
  int band = -1;
  bool live = false, rejected = false;
  std::int64_t* out = nullptr;  // this pair's cost

  DPX_HD int rows() const { return live ? n : 0; }
  DPX_HD int cols() const { return live ? m : 0; }
  DPX_HD Value edge(int x) const { return x == 0 ? Value(0) : Traits::kInf; }
  DPX_HD RowKey row_key(int i) const { return i < n ? a[i] : 0; }
  DPX_HD ColKey col_key(int j) const { return b[j]; }
  DPX_HD Value step(Value diag, Value up, Value left, RowKey x, ColKey y, int i, int j, unsigned*) const {
    if constexpr (kBanded) {
      if (i - j > band || j - i > band) return Traits::kInf;
    }
    using U = typename Traits::Unsigned;
    return static_cast<Value>(static_cast<U>(Traits::template min3<Ops>(diag, up, left)) +
                              static_cast<U>(Traits::cost(x, y)));
  }
  DPX_HD bool target(int, int* row, int* col) const {
    *row = n;
    *col = m;
    return live;
  }
  DPX_HD void deliver(int, Value v) const { *out = v >= Traits::kInf ? kDtwNoPath : static_cast<std::int64_t>(v); }
  DPX_HD void record(int, int, int, unsigned) const {}
  DPX_HD void reject_oversized() const {
    if (rejected) *out = kDistanceInvalid;
  }
};

// Whether the register kernel (dtw_warp.cuh) takes a pair whose values suit it: both series
// non-empty, the shorter within its rows.
DPX_HD bool dtw_warp_takes(std::int64_t n, std::int64_t m, std::int64_t warp_rows) {
  const std::int64_t shorter = n < m ? n : m;
  return shorter > 0 && shorter <= warp_rows;
}

// Smallest and largest value of a series, reduced over the group (every lane gets them).
template <class Group>
DPX_HD void group_min_max(const Group& g, const std::int32_t* x, std::int64_t n, std::int32_t* lo, std::int32_t* hi) {
  for (std::int64_t i = g.lane(); i < n; i += Group::kSize) {
    *lo = x[i] < *lo ? x[i] : *lo;
    *hi = x[i] > *hi ? x[i] : *hi;
  }
  for (int offset = Group::kSize / 2; offset > 0; offset /= 2) {
    const std::int32_t other_lo = g.shfl_xor(*lo, offset), other_hi = g.shfl_xor(*hi, offset);
    *lo = other_lo < *lo ? other_lo : *lo;
    *hi = other_hi > *hi ? other_hi : *hi;
  }
}

// One task per pair; the pair is live in this launch when its value width matches V.
template <class Ops, typename V, bool kBanded>
struct DtwFactory {
  using Cell = DtwCell<Ops, V, kBanded>;
  PairBatchView<std::int32_t> batch;
  int band = -1;
  std::int64_t max_length = 0;  // declared; longer pairs are rejected
  bool report_rejected = false;
  std::int64_t warp_rows = 0;  // narrow pairs whose shorter series fits these rows ran on the register kernel
  std::int64_t* out = nullptr;

  DPX_HD std::int64_t tasks() const { return batch.pairs; }

  template <class Group>
  DPX_HD Cell make(std::int64_t task, const Group& g) const {
    Cell c;
    const auto x = batch.query(task);
    const auto y = batch.target(task);
    c.out = out + task;
    c.band = band;
    if (x.length > max_length || y.length > max_length) {
      c.rejected = report_rejected;
      return c;
    }
    std::int32_t lo = 2147483647, hi = -2147483647 - 1;
    group_min_max(g, x.data, x.length, &lo, &hi);
    group_min_max(g, y.data, y.length, &lo, &hi);
    // An empty series makes the result an edge cell: the 32-bit launch delivers it.
    const bool empty = x.length == 0 || y.length == 0;
    const bool wide = !empty && dtw_needs_wide(static_cast<std::int64_t>(hi) - lo, x.length, y.length);
    c.live = wide == (sizeof(V) == 8) && (wide || !dtw_warp_takes(x.length, y.length, warp_rows));
    c.a = x.data;
    c.b = y.data;
    c.n = static_cast<int>(x.length);
    c.m = static_cast<int>(y.length);
    return c;
  }
};

}  // namespace align
}  // namespace dpx
