// Device side of the bars box pass (morph_bars_box.h): a cross or ellipse whose widest bar's row
// window fits a box pass, every bar in one pass over the frame.
//
// The element is the union of its bars (morph_bars.h), widest first: half-widths w_1 > ... > w_K,
// half-heights h_1 < ... < h_K. The result is the max/min over bars of rows_{w_b}(columns_{h_b}),
// and because a row window of w_b is one of w_b - w_{b+1} after one of w_{b+1}, the bars fold into
// one chain from the widest to the narrowest:
//
//   V_1 = columns_{h_1},  V_{b+1} = rows_{w_b - w_{b+1}}(V_b) ∨ columns_{h_{b+1}},  out = rows_{w_K}(V_K)
//
// so a thread's column windows only grow (each bar adds the rows from h_b + 1 to h_{b+1} above and
// below what the last held) and the row windows add up to the widest bar's half-width, whatever the
// number of bars. A thread takes four output rows together: per four outputs, 8 h_K rows read from
// the block's tile with a column window each, or, where the bars are few against the rows
// (bars_share_core: crosses), about 2 h_K + 6 K around the core the four windows share from a reach
// of two rows on (a step widens the core by two rows, each bar reads the six rows between the core
// and the windows' ends); and K row windows by shuffles, where a separable pass a bar reads and
// writes the frame K times.
//
// The block, tile, halo lanes and stores are the column pass's (morph_separable.cuh); the column
// windows run on its split lanes and the row windows on the widened ones, as in a box pass.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "morph_bars.h"
#include "morph_separable.cuh"

namespace dpx {
namespace morph {

// Bars the pass takes at most: one a half-width, up to the widest row window a box pass holds.
constexpr int kMaxBoxBars = kMaxHaloChunks * kChunkBytes + 1;

struct BarsBoxArgs {
  ColumnPassArgs column;  // radius: the element's half-height; half_width: its widest bar's
  int bars;
  int half_height[kMaxBoxBars];  // of bar b, widest first (ascending)
  int row_step[kMaxBoxBars];     // the row window after bar b: w_b - w_{b+1}; the last bar's w_K
};

// Whether a group's column windows grow one shared core (bars_box_pass): a step then costs a
// quarter of four windows' (10 instructions a chunk against 40) and each bar about 50 more for
// the windows' ends, so it pays where the bars are few against the rows (crosses), not where they
// lie one or two rows apart (ellipses).
inline bool bars_share_core(int bars, int half_height) {
  return 50 * bars < 30 * half_height;
}

// Calls f with std::bool_constant<shared_core>, bars_box_pass's kSharedCore.
template <class F>
void with_shared_core(bool shared_core, const F& f) {
  if (shared_core) {
    f(std::true_type{});
  } else {
    f(std::false_type{});
  }
}

// Each sample of N rows of the warp over the D pixels either side of it (a row window of
// half-width D on C channels, D = 1 or 2): 2 D fixed moves and D three-operand max/min, where the
// general row window (row_windows) doubles, then moves by plan (about twice the instructions). An
// ellipse's bars are mostly one or two pixels apart.
template <typename T, bool kMax, int C, int D, int N>
__device__ __forceinline__ void near_windows(ChunkLanes<T> (&v)[N]) {
  static_assert(D == 1 || D == 2, "the moves below");
  MORPH_UNROLL
  for (int i = 0; i < N; ++i) {
    ChunkLanes<T> w = max_or_min3<T, kMax>(shift_samples<T, -C>(v[i]), v[i], shift_samples<T, C>(v[i]));
    if constexpr (D == 2)
      w = max_or_min3<T, kMax>(shift_samples<T, -2 * C>(v[i]), w, shift_samples<T, 2 * C>(v[i]));
    v[i] = w;
  }
}

// The column windows of N consecutive rows (0 .. N - 1 of `row`) at `reach` from their core, the
// rows N - 1 - reach .. reach they all hold (reach >= N / 2): window i adds the rows from
// i - reach up to the core and from the core down to i + reach, 2 (N - 1) rows for the N windows.
template <typename T, bool kMax, int N, class Row>
__device__ __forceinline__ void windows_around_core(const ChunkLanes<T>& core, int reach, const Row& row,
                                                    ChunkLanes<T> (&column)[N]) {
  ChunkLanes<T> below[N];  // below[i]: rows reach + 1 .. reach + i (i >= 1)
  below[1] = row(reach + 1);
  MORPH_UNROLL
  for (int i = 2; i < N; ++i) below[i] = max_or_min<T, kMax>(below[i - 1], row(reach + i));
  ChunkLanes<T> above = core;  // the core and rows i - reach .. N - 2 - reach
  column[N - 1] = max_or_min<T, kMax>(above, below[N - 1]);
  MORPH_UNROLL
  for (int i = N - 2; i >= 0; --i) {
    above = max_or_min<T, kMax>(above, row(i - reach));
    column[i] = i == 0 ? above : max_or_min<T, kMax>(above, below[i]);
  }
}

// Block, run and C (the channels) as column_pass<T, kMax, kRun, C> takes them (with_column_pass
// for a half-width of the widest bar's: C > 0; two bars or more: kRun > 1); tile holds the block
// step's input rows (column_tile_bytes). kSharedCore is bars_share_core of b's bars (the launcher's
// choice), a template argument so that the ellipses' code carries none of the core's registers and branches
// (they ran 1-5 % slower with it decided at run time).
template <typename T, bool kMax, int kRun, int C, bool kSharedCore>
__device__ void bars_box_pass(const BarsBoxArgs& b, uint2* tile) {
  static_assert(C > 0 && kRun > 1, "a row window on every bar, and an element at least three rows high");
  constexpr int kTogether = std::min(kRun, kRowWindowRows);  // rows through each row window at once
  constexpr int kCoreReach = kTogether / 2;  // the least reach at which the group's windows share a row
  using Row = RowWindowLanes<T, kMax>;
  using Column = WindowLanes<T, kMax>;
  const ColumnPassArgs& a = b.column;
  const int lane = static_cast<int>(threadIdx.x);
  const ColumnThread at = column_thread(a);
  const int xb = at.xb, y0 = at.y0, y1 = at.y1;
  const bool stores = at.stores, vector = at.vector;
  const int step_rows = blockDim.y * kRun;
  for (int s0 = y0 - a.radius; s0 < y1 - a.radius; s0 += step_rows) {
    if (s0 != y0 - a.radius) __syncthreads();  // the last step's tile is read
    load_column_tile<kMax>(a, s0, step_rows + 2 * a.radius, xb, vector, tile);
    // Output row t0 + radius + j is centred on tile row t0 - s0 + radius + j.
    const int t0 = s0 + static_cast<int>(threadIdx.y) * kRun;
    if (t0 >= y1 - a.radius) continue;
    const int rows = min(kRun, y1 - a.radius - t0);  // the same for the whole warp
    const uint2* centre = tile + (t0 - s0 + a.radius) * kColumnWarpChunks + lane;
#if defined(__CUDACC__)
#pragma unroll 1
#endif
    for (int j = 0; j < rows; j += kTogether) {
      // Row j + k of the tile (k may lie outside the group), on the column windows' lanes. Rows past
      // the last are computed from rows the tile holds, and not stored.
      const auto row = [&](int k) {
        const uint2 c = centre[(j + k) * kColumnWarpChunks];
        return widen_chunk<Column>(c.x, c.y);
      };
      ChunkLanes<T> column[kTogether], v[kTogether];
      MORPH_UNROLL
      for (int i = 0; i < kTogether; ++i) column[i] = row(i);
      // Rows kTogether - 1 - reach .. reach lie in every window of the group (its core) from reach
      // kCoreReach on. With a shared core, a step from there adds two rows to the core instead of
      // two to each window, and a bar's windows are the core and the rows beside it up to each
      // window's ends.
      ChunkLanes<T> core = neutral_chunk<T, kMax>();
      int reach = 0;  // rows above and below that the windows hold
#if defined(__CUDACC__)
#pragma unroll 1
#endif
      for (int bar = 0; bar < b.bars; ++bar) {
        const int half_height = b.half_height[bar];
        const int own_windows_to = kSharedCore ? min(half_height, kCoreReach - 1) : half_height;
#if defined(__CUDACC__)
#pragma unroll 1
#endif
        for (; reach < own_windows_to; ++reach) {
          MORPH_UNROLL
          for (int i = 0; i < kTogether; ++i) {
            column[i] = max_or_min3<T, kMax>(column[i], row(i - reach - 1), row(i + reach + 1));
          }
        }
        if constexpr (kSharedCore) {
#if defined(__CUDACC__)
#pragma unroll 1
#endif
          for (; reach < half_height; ++reach) {
            core = max_or_min3<T, kMax>(core, row(kTogether - 2 - reach), row(reach + 1));
          }
          if (reach >= kCoreReach) windows_around_core<T, kMax, kTogether>(core, reach, row, column);
        }
        MORPH_UNROLL
        for (int i = 0; i < kTogether; ++i) {
          const uint2 s = narrow_chunk<Column>(column[i]);
          const ChunkLanes<T> c = widen_chunk<Row>(s.x, s.y);
          v[i] = bar == 0 ? c : max_or_min<T, kMax>(v[i], c);
        }
        if (b.row_step[bar] == 1) {
          near_windows<T, kMax, C, 1>(v);
        } else if (b.row_step[bar] == 2) {
          near_windows<T, kMax, C, 2>(v);
        } else if (b.row_step[bar] != 0) {
          row_windows<T, kMax, C>(v, row_window_plan<T, C>(b.row_step[bar]), lane);
        }
      }
      MORPH_UNROLL
      for (int i = 0; i < kTogether; ++i) {
        if (stores && j + i < rows) store_chunk<Row, kMax>(a, t0 + j + i + a.radius, xb, v[i]);
      }
    }
  }
}

// The arguments and launch shape (a column pass's) of the bars box pass over `bars` (mask_bars),
// and whether it takes them: two bars or more (one is a box pass) and at most kMaxBoxBars, the
// widest one's row window a box pass's (box_pass_fits) and the element's rows in the column pass's
// tile. Two bars make the element at least three rows high, so its runs are of 2, 4 or 8 rows.
inline bool bars_box_args(const PlaneView& in, const MutablePlaneView& out, const std::vector<Bar>& bars,
                          BorderMode border, BarsBoxArgs* b, PassShape* shape) {
  if (bars.size() < 2 || bars.size() > static_cast<std::size_t>(kMaxBoxBars) ||
      !box_pass_fits(in, bars.front().half_width)) {
    return false;
  }
  *b = BarsBoxArgs{};
  b->column =
      column_pass_args(in, out, bars.back().half_height, bars.front().half_width, border, false, shape);
  b->bars = static_cast<int>(bars.size());
  for (int i = 0; i < b->bars; ++i) {
    b->half_height[i] = bars[i].half_height;
    b->row_step[i] = bars[i].half_width - (i + 1 < b->bars ? bars[i + 1].half_width : 0);
  }
  return b->column.tiled;
}

}  // namespace morph
}  // namespace dpx
