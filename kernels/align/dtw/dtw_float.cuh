// DTW on float series, host and device: the cell cost and step both backends run, and the cells
// of the strip wavefront (wavefront.cuh) for pairs the register kernel (dtw_warp.cuh) does not take.
//
// Bit-identity: the difference is rounded once, then the squared cost and the path's minimum meet
// in one fused multiply-add (__fmaf_rn on the device, std::fma on the host: both IEEE fma, one
// rounding), or |d| and the minimum in one rounded sum. The _rn intrinsics are never contracted
// further; on the host the file that runs the CPU twin turns contraction off (dtw_float_cpu.cpp).
// The minimum is exact, so its order is free.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "dpx/align_distance.h"
#include "dpx_ops.cuh"
#include "dtw_cells.cuh"
#include "align/common/pair_batch.cuh"

namespace dpx {
namespace align {

template <bool kSquared>
struct DtwFloatOps {
  using Input = float;
  using Value = float;
  using Output = float;
  static DPX_HD float infinity() { return std::numeric_limits<float>::infinity(); }
  static DPX_HD float zero() { return 0.0f; }
  // x - y, rounded once.
  static DPX_HD float diff(float x, float y) {
#if defined(__CUDA_ARCH__)
    return __fsub_rn(x, y);
#else
    return x - y;
#endif
  }
  // The minimum of the three neighbours: exact, so its order is free. On the device every D value
  // is +0 .. +infinity or a NaN, whose bit patterns order as unsigned integers the way fmin orders
  // them (any NaN above every number, so it is ignored unless all three are NaN): one three-way
  // integer minimum (VIMNMX3) instead of two float minimums on the half-rate pipe.
  static DPX_HD float min3(float diag, float up, float left) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(ops::Dpx::min3_u32(__float_as_uint(diag), __float_as_uint(left), __float_as_uint(up)));
#else
    return std::fmin(std::fmin(diag, left), up);
#endif
  }
  // D(i, j) from the difference d of its elements and its neighbours' minimum: d * d + best as one
  // fused multiply-add (one rounding), or |d| + best rounded once.
  static DPX_HD float from_diff(float d, float best) {
#if defined(__CUDA_ARCH__)
    return kSquared ? __fmaf_rn(d, d, best) : __fadd_rn(fabsf(d), best);
#else
    return kSquared ? std::fma(d, d, best) : std::fabs(d) + best;
#endif
  }
  static DPX_HD float cell(float diag, float up, float left, float x, float y) {
    return from_diff(diff(x, y), min3(diag, up, left));
  }
  static DPX_HD float output(float v) { return v; }
  static DPX_HD float invalid() { return kDtwFloatInvalid; }
};

// Cells for the strip wavefront: one pair, live unless another kernel takes it.
template <bool kSquared, bool kBanded>
struct DtwFloatCell {
  using Ops = DtwFloatOps<kSquared>;
  using Value = float;
  using RowKey = float;
  using ColKey = float;
  static constexpr int kTargets = 1;
  static constexpr bool kRecords = false;

  const float* a = nullptr;
  const float* b = nullptr;
  int n = 0, m = 0;
  int band = -1;
  bool live = false, rejected = false;
  float* out = nullptr;

  DPX_HD int rows() const { return live ? n : 0; }
  DPX_HD int cols() const { return live ? m : 0; }
  DPX_HD Value edge(int x) const { return x == 0 ? 0.0f : Ops::infinity(); }
  DPX_HD RowKey row_key(int i) const { return i < n ? a[i] : 0.0f; }
  DPX_HD ColKey col_key(int j) const { return b[j]; }
  DPX_HD Value step(Value diag, Value up, Value left, RowKey x, ColKey y, int i, int j, unsigned*) const {
    if constexpr (kBanded) {
      if (i - j > band || j - i > band) return Ops::infinity();
    }
    return Ops::cell(diag, up, left, x, y);
  }
  DPX_HD bool target(int, int* row, int* col) const {
    *row = n;
    *col = m;
    return live;
  }
  DPX_HD void deliver(int, Value v) const { *out = v; }
  DPX_HD void record(int, int, int, unsigned) const {}
  DPX_HD void reject_oversized() const {
    if (rejected) *out = kDtwFloatInvalid;
  }
};

template <bool kSquared, bool kBanded>
struct DtwFloatFactory {
  using Cell = DtwFloatCell<kSquared, kBanded>;
  PairBatchView<float> batch;
  int band = -1;
  std::int64_t max_length = 0;
  std::int64_t warp_rows = 0;  // pairs the register kernel takes are not live here
  float* out = nullptr;

  DPX_HD std::int64_t tasks() const { return batch.pairs; }

  template <class Group>
  DPX_HD Cell make(std::int64_t task, const Group&) const {
    Cell c;
    const auto x = batch.query(task);
    const auto y = batch.target(task);
    c.out = out + task;
    c.band = band;
    c.rejected = x.length > max_length || y.length > max_length;
    c.live = !c.rejected && !dtw_warp_takes(x.length, y.length, warp_rows);
    c.a = x.data;
    c.b = y.data;
    c.n = static_cast<int>(x.length);
    c.m = static_cast<int>(y.length);
    return c;
  }
};

}  // namespace align
}  // namespace dpx
