// The register schedule of the fused 3x3 / 5x5 pass: no shared memory, no barrier. A warp owns
// 512 bytes (16 a lane) of kRows output rows; each lane issues the loads of all kRows + 2R input
// rows of its 16-byte column into registers before it computes anything, so a frame's reads are
// in flight at once, as in a copy. The vertical window runs first, down the registers; its
// result's horizontal halo comes from the neighbouring lanes by shuffles (lanes 0 and 31 load the
// words past the warp's ends), and the horizontal run is the shared-memory tile's (RowWords,
// morph_tile.cuh).
//
// Samples outside the plane are the neutral sample whatever the border rule: every mask of
// morph_geometry.h is a stack of centred runs, symmetric about the centre row and no wider away
// from it, so a replicated or reflected sample a window reaches is one the same window already
// holds in the plane (its mirror or the edge itself, at a mask row at least as wide). The
// outside adds nothing to a max or min, and the border rule need not be looked at.
#pragma once

#include <cstddef>
#include <cstdint>

#include "morph_lanes.cuh"
#include "morph_tile.cuh"

namespace dpx {
namespace morph {

// Four bytes of `row` from byte x, bytes outside [0, row_bytes) neutral; one load where the word
// is inside and `aligned`.
__device__ __forceinline__ std::uint32_t load_word(const std::uint8_t* row, int x, int row_bytes, bool aligned,
                                                   std::uint32_t neutral) {
  if (aligned && x >= 0 && x + 4 <= row_bytes) return __ldg(reinterpret_cast<const unsigned*>(row + x));
  std::uint32_t w = 0;
MORPH_UNROLL
  for (int b = 0; b < 4; ++b) {
    const int p = x + b;
    const std::uint32_t byte = p >= 0 && p < row_bytes ? row[p] : (neutral & 0xFFu);
    w |= byte << (8 * b);
  }
  return w;
}

// This lane's 16 bytes of `row` from byte xb (a multiple of 16, maybe before the row's start or
// past its end).
__device__ __forceinline__ uint4 load_chunk(const PassArgs& a, const std::uint8_t* row, int xb, std::uint32_t neutral) {
  if (xb < 0 || xb >= a.row_bytes) return make_uint4(neutral, neutral, neutral, neutral);
  if (a.src_vector && xb + Tile::kChunk <= a.row_bytes) return __ldg(reinterpret_cast<const uint4*>(row + xb));
  const bool aligned = a.src_vector;  // pointer and pitch 16-byte aligned, so every word is too
  return make_uint4(load_word(row, xb, a.row_bytes, aligned, neutral), load_word(row, xb + 4, a.row_bytes, aligned, neutral),
                    load_word(row, xb + 8, a.row_bytes, aligned, neutral),
                    load_word(row, xb + 12, a.row_bytes, aligned, neutral));
}

// The max/min down a window of 2R + 1 rows (row(j), j = 0 .. 2R, the output row at j = R) over
// the rows whose mask run is the full width (kRun) or the centre alone (!kRun); the shapes of
// morph_geometry.h have at least one row of each kind except rect, which has no centre-only row.
// Where every row of a window of five or more is taken, output rows k and k + 1 (k even, then
// `second`) share the max/min over the 2R - 1 rows in the middle of their windows: row k computes
// it into `middle`, row k + 1 reads it back, 3 instructions for the pair instead of 4 (5 rows).
template <class L, int Size, MorphShape Shape, bool kRun, class Row>
__device__ __forceinline__ std::uint32_t window_rows(const Row& row, bool second, std::uint32_t& middle) {
  constexpr int R = Size / 2;
  std::uint32_t t[2 * R + 1];
  int n = 0;
MORPH_UNROLL
  for (int dy = -R; dy <= R; ++dy) {
    if ((row_half_width(Shape, Size, dy) != 0) == kRun) t[n++] = row(dy + R);
  }
  const auto chain = [&](int first, int count) {
    std::uint32_t acc = t[first];
MORPH_UNROLL
    for (int m = 1; m < count; m += 2) acc = L::reduce3(acc, t[first + m], t[first + (m + 1 < count ? m + 1 : m)]);
    return acc;
  };
  if (R < 2 || n != 2 * R + 1) return chain(0, n);
  if (!second) {
    middle = chain(1, n - 2);
    return L::reduce3(middle, t[0], t[n - 1]);
  }
  return L::reduce3(middle, t[n - 2], t[n - 1]);
}

__device__ __forceinline__ std::uint32_t word_of(const uint4& v, int k) {
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}

// A lane's kIn input rows from row y_first in registers: its 16-byte chunk at xb and, on the
// warp's edge lanes, the H words from edge_x; rows outside the plane and bytes outside the row
// hold `neutral`. Every load is issued here, before anything is computed or stored (the compiler
// may not move a load past a store to dst: they could alias).
template <int kIn, int H>
struct LaneRows {
  uint4 body[kIn];
  std::uint32_t edge[kIn][H];

  __device__ __forceinline__ void load(const PassArgs& a, int y_first, int xb, bool edge_lane, int edge_x,
                                       std::uint32_t neutral) {
    // Most lanes' words lie wholly inside an aligned row or wholly outside it (the lanes past a
    // row's end, the words before its start): loads down the pitch or the neutral sample, no test
    // a row. The tests of the general path below cost more than the loads, and one lane taking it
    // makes its warp run both.
    const auto inside = [&](int x, int bytes) { return a.src_vector && x >= 0 && x + bytes <= a.row_bytes; };
    const auto outside = [&](int x, int bytes) { return x + bytes <= 0 || x >= a.row_bytes; };
    const bool body_in = inside(xb, Tile::kChunk);
    bool edge_in[H];
    bool plain = y_first >= 0 && y_first + kIn <= a.height && (body_in || outside(xb, Tile::kChunk));
MORPH_UNROLL
    for (int k = 0; k < H; ++k) {
      const int x = edge_x + 4 * k;
      edge_in[k] = edge_lane && inside(x, 4);
      plain = plain && (!edge_lane || edge_in[k] || outside(x, 4));
    }
    if (plain) {
      // The body as a branch, not a select a row: the loads land in place (a select costs a move
      // a word); lanes inside and outside share a warp only at a row's ends.
      const std::uint8_t* first = a.src + static_cast<std::size_t>(y_first) * a.src_pitch;
      if (body_in) {
        const std::uint8_t* row = first + xb;
MORPH_UNROLL
        for (int j = 0; j < kIn; ++j, row += a.src_pitch) body[j] = __ldg(reinterpret_cast<const uint4*>(row));
      } else {
MORPH_UNROLL
        for (int j = 0; j < kIn; ++j) body[j] = make_uint4(neutral, neutral, neutral, neutral);
      }
      const std::uint8_t* row = first + edge_x;
MORPH_UNROLL
      for (int j = 0; j < kIn; ++j, row += a.src_pitch) {
MORPH_UNROLL
        for (int k = 0; k < H; ++k) {
          edge[j][k] = edge_in[k] ? __ldg(reinterpret_cast<const unsigned*>(row + 4 * k)) : neutral;
        }
      }
      return;
    }
MORPH_UNROLL
    for (int j = 0; j < kIn; ++j) {
      const int y = y_first + j;
      body[j] = make_uint4(neutral, neutral, neutral, neutral);
MORPH_UNROLL
      for (int k = 0; k < H; ++k) edge[j][k] = neutral;
      if (y < 0 || y >= a.height) continue;
      const std::uint8_t* row = a.src + static_cast<std::size_t>(y) * a.src_pitch;
      body[j] = load_chunk(a, row, xb, neutral);
      if (edge_lane) {
MORPH_UNROLL
        for (int k = 0; k < H; ++k) edge[j][k] = load_word(row, edge_x + 4 * k, a.row_bytes, a.src_vector, neutral);
      }
    }
  }
};

// The same rows widened to compute words (morph_lanes.cuh), each storage word first OR-ed with
// or_mask(j, word) (bytes to force to all ones; m = 0..3 the body, 4.. the edge words).
template <class L, int kIn, int H>
struct WideRows {
  static constexpr int kCw = L::kComputePerStorage;
  std::uint32_t body[kIn][4 * kCw];
  std::uint32_t edge[kIn][H * kCw];

  template <class OrMask>
  __device__ __forceinline__ void widen(const LaneRows<kIn, H>& rows, const OrMask& or_mask) {
MORPH_UNROLL
    for (int j = 0; j < kIn; ++j) {
MORPH_UNROLL
      for (int m = 0; m < 4; ++m) L::widen(word_of(rows.body[j], m) | or_mask(j, m), &body[j][m * kCw]);
MORPH_UNROLL
      for (int m = 0; m < H; ++m) L::widen(rows.edge[j][m] | or_mask(j, 4 + m), &edge[j][m * kCw]);
    }
  }
  __device__ __forceinline__ void widen(const LaneRows<kIn, H>& rows) {
    widen(rows, [](int, int) { return 0u; });
  }
};

// The middles output rows k and k + 1 of a stage share (window_rows), for the chunk's compute
// words and then the halo words past the warp's ends: held by the caller across its rows.
template <class L, int C, int Size>
struct PairMiddles {
  std::uint32_t w[RowWords<L, C, Size / 2>::kBody + RowWords<L, C, Size / 2>::kHalo];
};

// Output row k of a stage (rows 0, 1, ... in turn), from compute words wide(j, i) of the 2R + 1
// rows j = 0 .. 2R of its window (i < kBody, the lane's chunk): the vertical window first (over
// the rows whose mask run is the full width, and separately over the centre-only rows), then one
// horizontal run, whose halo is one shuffle of the neighbouring lanes' window results. Lanes 0 and
// 31 take their outer halo from edge(j, t), the window over the words past the warp's ends; where
// the warp's edge lanes produce no output, kEdges is false and their outer halo is left undefined.
// Every lane of the warp must call it (the shuffles).
template <class L, int C, int Size, MorphShape Shape, bool kEdges, class Body, class Edge>
__device__ __forceinline__ void stage_row(int lane, int k, const Body& wide, const Edge& edge,
                                          PairMiddles<L, C, Size>& middles,
                                          std::uint32_t (&out)[RowWords<L, C, Size / 2>::kBody]) {
  const bool second = k % 2 == 1;
  using Words = RowWords<L, C, Size / 2>;
  constexpr int kBody = Words::kBody;
  constexpr int kHalo = Words::kHalo;
  Words row;
MORPH_UNROLL
  for (int i = 0; i < kBody; ++i) {
    row.w[kHalo + i] = window_rows<L, Size, Shape, true>([&](int j) { return wide(j, i); }, second, middles.w[i]);
  }
MORPH_UNROLL
  for (int t = 0; t < kHalo; ++t) {
    const std::uint32_t left = __shfl_up_sync(~0u, row.w[kBody + t], 1);
    const std::uint32_t right = __shfl_down_sync(~0u, row.w[kHalo + t], 1);
    row.w[t] = left;
    row.w[kHalo + kBody + t] = right;
    if constexpr (kEdges) {
      const std::uint32_t edge_run = window_rows<L, Size, Shape, true>([&](int j) { return edge(j, t); }, second,
                                                                       middles.w[kBody + t]);
      if (lane == 0) row.w[t] = edge_run;
      if (lane == RowsLayout::kLanes - 1) row.w[kHalo + kBody + t] = edge_run;
    }
  }
MORPH_UNROLL
  for (int i = 0; i < kBody; ++i) {
    out[i] = row.horizontal(i);
    if constexpr (Shape != MorphShape::kRect) {
      std::uint32_t unused;  // centre-only rows never fill the window
      const std::uint32_t centre = window_rows<L, Size, Shape, false>([&](int j) { return wide(j, i); }, second, unused);
      out[i] = L::reduce3(out[i], centre, centre);
    }
  }
}

// Compute words back to the four storage words of a chunk.
template <class L>
__device__ __forceinline__ void narrow_chunk(const std::uint32_t* out, std::uint32_t (&o)[4]) {
MORPH_UNROLL
  for (int m = 0; m < 4; ++m) o[m] = L::narrow(&out[m * L::kComputePerStorage]);
}

// Where a warp of block (bx, by) works: lane `lane` on the 16 bytes from xb of output rows y0 ..
// y0 + kRows - 1, the warp on the 512 bytes from warp_x (warps step `step` bytes along the row:
// 512, or less where their edge lanes only feed their neighbours and the warps overlap). The edge
// lanes load the H words past the warp's ends from edge_x.
template <int kRows, int H>
struct WarpPlace {
  int lane, warp_x, xb, y0, edge_x;
  bool edge_lane;

  __device__ __forceinline__ WarpPlace(int bx, int by, int step) {
    lane = static_cast<int>(threadIdx.x) % RowsLayout::kLanes;
    warp_x = bx * step - (RowsLayout::kWarpBytes - step) / 2;
    xb = warp_x + lane * Tile::kChunk;
    y0 = (by * RowsLayout::kWarps + static_cast<int>(threadIdx.x) / RowsLayout::kLanes) * kRows;
    edge_lane = lane == 0 || lane == RowsLayout::kLanes - 1;
    edge_x = lane == 0 ? warp_x - 4 * H : warp_x + RowsLayout::kWarpBytes;
  }
};

// Block (bx, by) of the register schedule: RowsLayout::kWarps warps of a 1-D block of
// RowsLayout::kThreads, warp w on output rows (by * kWarps + w) * kRows .. + kRows - 1 of the
// 512 bytes from bx * 512, in the lanes LanesFor<Format, C>.
template <class Format, int C, int Size, MorphShape Shape, int kRows>
__device__ __forceinline__ void rows_pass(const PassArgs& a, int bx, int by) {
  using L = LanesFor<Format, C>;
  constexpr int R = Size / 2;
  constexpr int kIn = kRows + 2 * R;
  using Words = RowWords<L, C, R>;
  constexpr int H = Words::kHaloStorage;  // storage words of halo per side: 1, 2 or 4
  const WarpPlace<kRows, H> w(bx, by, RowsLayout::kWarpBytes);
  if (w.y0 >= a.height) return;  // the whole warp: the shuffles need every lane

  LaneRows<kIn, H> rows;
  rows.load(a, w.y0 - R, w.xb, w.edge_lane, w.edge_x, L::kNeutral == 0 ? 0u : ~0u);
  WideRows<L, kIn, H> wide;
  wide.widen(rows);
  PairMiddles<L, C, Size> middles;
MORPH_UNROLL
  for (int k = 0; k < kRows; ++k) {
    if (w.y0 + k >= a.height) break;  // the same for the whole warp
    std::uint32_t out[Words::kBody];
    stage_row<L, C, Size, Shape, true>(
        w.lane, k, [&](int j, int i) { return wide.body[k + j][i]; }, [&](int j, int t) { return wide.edge[k + j][t]; },
        middles, out);
    std::uint32_t o[4];
    narrow_chunk<L>(out, o);
    store_chunk<L>(a, w.y0 + k, w.xb, o);
  }
}

template <class L, int C, int Size, MorphShape Shape, int kRows>
__global__ void __launch_bounds__(RowsLayout::kThreads) morph_rows_kernel(PassArgs a) {
  rows_pass<L, C, Size, Shape, kRows>(a, blockIdx.x, blockIdx.y);
}

}  // namespace morph
}  // namespace dpx
