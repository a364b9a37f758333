// The compound operations of square 3x3 / 5x5 elements (one iteration) in one pass of the register
// schedule (morph_rows.cuh): the frame is read once and written once, the intermediate stays in
// registers.
//
// Open / close (and top-hat / black-hat, their difference with the source): stage A (erosion for
// an opening, dilation for a closing) runs over the kRows + 2R rows stage B's window needs, from
// kRows + 4R input rows. A warp's 32 lanes compute stage A over 512 bytes; stage B's horizontal
// halo is the neighbouring lanes' stage-A result, so lanes 0 and 31 only feed their neighbours
// and the warp writes the 480 bytes of lanes 1 .. 30 (warps overlap by one chunk on each side).
// Stage A's result outside the plane (rows above or below it, bytes past its ends) is replaced by
// stage B's neutral sample: what the two-pass version's second pass reads there (morph_rows.cuh
// explains why the outside is neutral whatever the border rule).
//
// Gradient: dilation and erosion of the same input rows, loaded once; the erosion's outside is
// made all ones by OR-ing masks into the loaded words (they were loaded with the dilation's 0).
#pragma once

#include <cstdint>
#include <type_traits>

#include "morph_lanes.cuh"
#include "morph_rows.cuh"

namespace dpx {
namespace morph {

// What the two-stage pass writes: stage B's result, or its saturating difference with the source.
enum class StageDifference {
  kNone,               // open, close
  kSourceMinusResult,  // top-hat: src - open
  kResultMinusSource,  // black-hat: close - src
};

// Bytes of the word at byte x that lie outside [0, row_bytes), as 0xFF each.
__device__ __forceinline__ std::uint32_t outside_bytes(int x, int row_bytes) {
  if (x >= 0 && x + 4 <= row_bytes) return 0;
  std::uint32_t m = 0;
MORPH_UNROLL
  for (int b = 0; b < 4; ++b) {
    if (x + b < 0 || x + b >= row_bytes) m |= 0xFFu << (8 * b);
  }
  return m;
}

// Bytes a warp of the two-stage pass writes: every lane but the two edge lanes.
constexpr int kStagesWarpBytes = (RowsLayout::kLanes - 2) * Tile::kChunk;

// Block (bx, by) of the two-stage pass: RowsLayout::kWarps warps, warp w on output rows
// (by * kWarps + w) * kRows .. + kRows - 1 of the 480 bytes from bx * 480. LA is stage A's lane
// format, LB stage B's (the same samples, the other of max / min).
template <class LA, class LB, int C, int Size, MorphShape Shape, int kRows, StageDifference kDiff>
__device__ __forceinline__ void rows_two_stage_pass(const PassArgs& a, int bx, int by) {
  constexpr int R = Size / 2;
  constexpr int kMid = kRows + 2 * R;  // stage-A rows
  constexpr int kIn = kRows + 4 * R;
  using Words = RowWords<LA, C, R>;
  constexpr int H = Words::kHaloStorage;
  constexpr int kBody = Words::kBody;
  constexpr int kCw = LA::kComputePerStorage;
  const WarpPlace<kRows, H> w(bx, by, kStagesWarpBytes);
  if (w.y0 >= a.height) return;  // the whole warp: the shuffles need every lane

  // Stage A on the warp's edge lanes only feeds the neighbouring lanes' halo, which lies within
  // the edge lane's own chunk and its inner neighbour's when the halo is at most half a chunk: then
  // the words past the warp's ends are neither loaded nor run through the window.
  constexpr bool kEdgesA = 2 * Words::kHalo > kBody;
  LaneRows<kIn, H> rows;
  rows.load(a, w.y0 - 2 * R, w.xb, kEdgesA && w.edge_lane, w.edge_x, LA::kNeutral == 0 ? 0u : ~0u);
  WideRows<LA, kIn, H> wide;
  wide.widen(rows);

  // Stage B's neutral compute word, and the lanes of this chunk outside the row (all ones).
  std::uint32_t neutral_b[kCw];
  LB::widen(LB::kNeutral == 0 ? 0u : ~0u, neutral_b);
  std::uint32_t outside[kBody];
MORPH_UNROLL
  for (int m = 0; m < 4; ++m) LB::widen(outside_bytes(w.xb + 4 * m, a.row_bytes), &outside[m * kCw]);

  std::uint32_t mid[kMid][kBody];
  PairMiddles<LA, C, Size> middles_a;
MORPH_UNROLL
  for (int k = 0; k < kMid; ++k) {
    stage_row<LA, C, Size, Shape, kEdgesA>(
        w.lane, k, [&](int j, int i) { return wide.body[k + j][i]; }, [&](int j, int t) { return wide.edge[k + j][t]; },
        middles_a, mid[k]);
  }
  // Only a lane whose chunk or stage-A rows reach outside the plane replaces anything: a branch
  // around the whole replacement, which a test a row would not avoid (the compiler predicates it).
  if (w.xb < 0 || w.xb + Tile::kChunk > a.row_bytes || w.y0 - R < 0 || w.y0 - R + kMid > a.height) {
MORPH_UNROLL
    for (int k = 0; k < kMid; ++k) {
      const int y = w.y0 - R + k;
      const bool inside = y >= 0 && y < a.height;
MORPH_UNROLL
      for (int i = 0; i < kBody; ++i) {
        const std::uint32_t masked = LB::kNeutral == 0 ? mid[k][i] & ~outside[i] : mid[k][i] | outside[i];
        mid[k][i] = inside ? masked : neutral_b[0];
      }
    }
  }

  using Sample = typename LB::Sample;
  PairMiddles<LB, C, Size> middles_b;
MORPH_UNROLL
  for (int k = 0; k < kRows; ++k) {
    if (w.y0 + k >= a.height) break;  // the same for the whole warp
    std::uint32_t out[kBody];
    stage_row<LB, C, Size, Shape, false>(
        w.lane, k, [&](int j, int i) { return mid[k + j][i]; }, [](int, int) { return 0u; }, middles_b, out);
    std::uint32_t o[4];
    narrow_chunk<LB>(out, o);
MORPH_UNROLL
    for (int m = 0; m < 4; ++m) {
      const std::uint32_t src = word_of(rows.body[k + 2 * R], m);
      if constexpr (kDiff == StageDifference::kSourceMinusResult) o[m] = subtract_saturated<Sample>(src, o[m]);
      if constexpr (kDiff == StageDifference::kResultMinusSource) o[m] = subtract_saturated<Sample>(o[m], src);
    }
    if (!w.edge_lane) store_chunk<LB>(a, w.y0 + k, w.xb, o);
  }
}

// Block (bx, by) of the gradient pass, laid out as rows_pass: LD the dilation's lane format, LE
// the erosion's.
template <class LD, class LE, int C, int Size, MorphShape Shape, int kRows>
__device__ __forceinline__ void rows_gradient_pass(const PassArgs& a, int bx, int by) {
  constexpr int R = Size / 2;
  constexpr int kIn = kRows + 2 * R;
  using Words = RowWords<LD, C, R>;
  constexpr int H = Words::kHaloStorage;
  const WarpPlace<kRows, H> w(bx, by, RowsLayout::kWarpBytes);
  if (w.y0 >= a.height) return;

  static_assert(LD::kNeutral == 0, "the rows are loaded with the dilation's neutral sample");
  LaneRows<kIn, H> rows;
  rows.load(a, w.y0 - R, w.xb, w.edge_lane, w.edge_x, 0u);
  WideRows<LD, kIn, H> dilate_in;
  dilate_in.widen(rows);
  WideRows<LE, kIn, H> erode_in;
  erode_in.widen(rows, [&](int j, int m) {
    const int y = w.y0 - R + j;
    if (y < 0 || y >= a.height) return ~0u;
    return outside_bytes(m < 4 ? w.xb + 4 * m : w.edge_x + 4 * (m - 4), a.row_bytes);
  });

  using Sample = typename LD::Sample;
  PairMiddles<LD, C, Size> dilate_middles;
  PairMiddles<LE, C, Size> erode_middles;
MORPH_UNROLL
  for (int k = 0; k < kRows; ++k) {
    if (w.y0 + k >= a.height) break;
    std::uint32_t dilated[Words::kBody], eroded[Words::kBody];
    stage_row<LD, C, Size, Shape, true>(
        w.lane, k, [&](int j, int i) { return dilate_in.body[k + j][i]; },
        [&](int j, int t) { return dilate_in.edge[k + j][t]; }, dilate_middles, dilated);
    stage_row<LE, C, Size, Shape, true>(
        w.lane, k, [&](int j, int i) { return erode_in.body[k + j][i]; },
        [&](int j, int t) { return erode_in.edge[k + j][t]; }, erode_middles, eroded);
    std::uint32_t d[4], e[4], o[4];
    narrow_chunk<LD>(dilated, d);
    narrow_chunk<LE>(eroded, e);
MORPH_UNROLL
    for (int m = 0; m < 4; ++m) o[m] = subtract_saturated<Sample>(d[m], e[m]);
    store_chunk<LD>(a, w.y0 + k, w.xb, o);
  }
}

// The kernels behind the compound operations: the two orders of the two stages, and the gradient.
enum class CompoundKernel { kOpening, kClosing, kGradient };

constexpr CompoundKernel compound_kernel(MorphOp op) {
  return op == MorphOp::kGradient                          ? CompoundKernel::kGradient
         : op == MorphOp::kOpen || op == MorphOp::kTopHat ? CompoundKernel::kOpening
                                                           : CompoundKernel::kClosing;
}

constexpr StageDifference stage_difference(MorphOp op) {
  return op == MorphOp::kTopHat    ? StageDifference::kSourceMinusResult
         : op == MorphOp::kBlackHat ? StageDifference::kResultMinusSource
                                    : StageDifference::kNone;
}

// One block of compound operation kOp with the max / min formats of Lanes for C channels
// (LanesFor). The operation is a compile-time parameter: a difference chosen at run time costs the
// opening and closing registers they do not use (94 against 79 for the u8 3x3 opening, and 2-3 %).
template <template <class, bool> class Lanes, class Ops, int C, int Size, MorphShape Shape, int kRows, MorphOp kOp>
__device__ __forceinline__ void compound_pass(const PassArgs& a, int bx, int by) {
  using Max = LanesFor<Lanes<Ops, true>, C>;
  using Min = LanesFor<Lanes<Ops, false>, C>;
  constexpr CompoundKernel kKernel = compound_kernel(kOp);
  constexpr StageDifference kDiff = stage_difference(kOp);
  if constexpr (kKernel == CompoundKernel::kGradient) {
    rows_gradient_pass<Max, Min, C, Size, Shape, kRows>(a, bx, by);
  } else if constexpr (kKernel == CompoundKernel::kOpening) {
    rows_two_stage_pass<Min, Max, C, Size, Shape, kRows, kDiff>(a, bx, by);
  } else {
    rows_two_stage_pass<Max, Min, C, Size, Shape, kRows, kDiff>(a, bx, by);
  }
}

// Bytes of a row one warp of kernel `k` writes: the grid's step along the row.
constexpr int compound_warp_bytes(CompoundKernel k) {
  return k == CompoundKernel::kGradient ? RowsLayout::kWarpBytes : kStagesWarpBytes;
}

// Calls f(op) with a compound `op` as a std::integral_constant; false, calling nothing, for
// dilate and erode.
template <class F>
bool with_compound_op(MorphOp op, const F& f) {
  switch (op) {
    case MorphOp::kOpen: f(std::integral_constant<MorphOp, MorphOp::kOpen>{}); return true;
    case MorphOp::kClose: f(std::integral_constant<MorphOp, MorphOp::kClose>{}); return true;
    case MorphOp::kGradient: f(std::integral_constant<MorphOp, MorphOp::kGradient>{}); return true;
    case MorphOp::kTopHat: f(std::integral_constant<MorphOp, MorphOp::kTopHat>{}); return true;
    case MorphOp::kBlackHat: f(std::integral_constant<MorphOp, MorphOp::kBlackHat>{}); return true;
    default: return false;
  }
}

template <template <class, bool> class Lanes, class Ops, int C, int Size, MorphShape Shape, int kRows, MorphOp kOp>
__global__ void __launch_bounds__(RowsLayout::kThreads) morph_compound_kernel(PassArgs a) {
  compound_pass<Lanes, Ops, C, Size, Shape, kRows, kOp>(a, blockIdx.x, blockIdx.y);
}

}  // namespace morph
}  // namespace dpx
