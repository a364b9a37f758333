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

// This lane's 16 bytes of `row` from byte xb (a multiple of 16, maybe past the row's end).
__device__ __forceinline__ uint4 load_chunk(const TileArgs& a, const std::uint8_t* row, int xb, std::uint32_t neutral) {
  if (a.src_vector && xb + Tile::kChunk <= a.row_bytes) return __ldg(reinterpret_cast<const uint4*>(row + xb));
  if (xb >= a.row_bytes) return make_uint4(neutral, neutral, neutral, neutral);
  const bool aligned = a.src_vector;  // pointer and pitch 16-byte aligned, so every word is too
  return make_uint4(load_word(row, xb, a.row_bytes, aligned, neutral), load_word(row, xb + 4, a.row_bytes, aligned, neutral),
                    load_word(row, xb + 8, a.row_bytes, aligned, neutral),
                    load_word(row, xb + 12, a.row_bytes, aligned, neutral));
}

// The max/min down a window of 2R + 1 rows (row(j), j = 0 .. 2R, the output row at j = R) over
// the rows whose mask run is the full width (kRun) or the centre alone (!kRun); the shapes of
// morph_geometry.h have at least one row of each kind except rect, which has no centre-only row.
template <class L, int Size, MorphShape Shape, bool kRun, class Row>
__device__ __forceinline__ std::uint32_t window_rows(const Row& row) {
  constexpr int R = Size / 2;
  std::uint32_t t[2 * R + 1];
  int n = 0;
MORPH_UNROLL
  for (int dy = -R; dy <= R; ++dy) {
    if ((row_half_width(Shape, Size, dy) != 0) == kRun) t[n++] = row(dy + R);
  }
  std::uint32_t acc = t[0];
MORPH_UNROLL
  for (int m = 1; m < n; m += 2) acc = L::reduce3(acc, t[m], t[m + 1 < n ? m + 1 : m]);
  return acc;
}

__device__ __forceinline__ std::uint32_t word_of(const uint4& v, int k) {
  return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w;
}

// Block (bx, by) of the register schedule: RowsLayout::kWarps warps of a 1-D block of
// RowsLayout::kThreads, warp w on output rows (by * kWarps + w) * kRows .. + kRows - 1 of the
// 512 bytes from bx * 512.
template <class L, int C, int Size, MorphShape Shape, int kRows>
__device__ __forceinline__ void rows_pass(const TileArgs& a, int bx, int by) {
  constexpr int R = Size / 2;
  constexpr int kIn = kRows + 2 * R;
  using Words = RowWords<L, C, R>;
  constexpr int H = Words::kHaloStorage;  // storage words of halo per side: 1, 2 or 4
  constexpr int kBody = Words::kBody;
  const int lane = static_cast<int>(threadIdx.x) % RowsLayout::kLanes;
  const int warp_x = bx * RowsLayout::kWarpBytes;
  const int xb = warp_x + lane * Tile::kChunk;
  const int y0 = (by * RowsLayout::kWarps + static_cast<int>(threadIdx.x) / RowsLayout::kLanes) * kRows;
  if (y0 >= a.height) return;  // the whole warp: the shuffles below need every lane
  const std::uint32_t neutral = L::kNeutral == 0 ? 0u : ~0u;
  const bool edge_lane = lane == 0 || lane == RowsLayout::kLanes - 1;
  const int edge_x = lane == 0 ? warp_x - 4 * H : warp_x + RowsLayout::kWarpBytes;

  // Every load first: the compiler may not move a load past a store to dst (they could alias).
  uint4 body[kIn];
  std::uint32_t edge[kIn][H];
MORPH_UNROLL
  for (int j = 0; j < kIn; ++j) {
    const int y = y0 - R + j;
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

  // Widened once per input row; the vertical window runs first (over the rows whose mask run is
  // the full width, and separately over the centre-only rows), then one horizontal run per output
  // row: the run's cost is paid per output row instead of per input row, and its halo is one
  // shuffle of the window's result.
  constexpr int kCw = L::kComputePerStorage;
  constexpr int kHaloCw = H * kCw;
  std::uint32_t wide[kIn][kBody];
  std::uint32_t wide_edge[kIn][kHaloCw];
MORPH_UNROLL
  for (int j = 0; j < kIn; ++j) {
MORPH_UNROLL
    for (int m = 0; m < 4; ++m) L::widen(word_of(body[j], m), &wide[j][m * kCw]);
MORPH_UNROLL
    for (int m = 0; m < H; ++m) L::widen(edge[j][m], &wide_edge[j][m * kCw]);
  }

MORPH_UNROLL
  for (int k = 0; k < kRows; ++k) {
    if (y0 + k >= a.height) break;  // the same for the whole warp
    Words row;
MORPH_UNROLL
    for (int i = 0; i < kBody; ++i) {
      row.w[kHaloCw + i] = window_rows<L, Size, Shape, true>([&](int j) { return wide[k + j][i]; });
    }
MORPH_UNROLL
    for (int t = 0; t < kHaloCw; ++t) {
      const std::uint32_t edge_run = window_rows<L, Size, Shape, true>([&](int j) { return wide_edge[k + j][t]; });
      const std::uint32_t left = __shfl_up_sync(~0u, row.w[kHaloCw + kBody - kHaloCw + t], 1);
      const std::uint32_t right = __shfl_down_sync(~0u, row.w[kHaloCw + t], 1);
      row.w[t] = lane == 0 ? edge_run : left;
      row.w[kHaloCw + kBody + t] = lane == RowsLayout::kLanes - 1 ? edge_run : right;
    }
    std::uint32_t out[kBody];
MORPH_UNROLL
    for (int i = 0; i < kBody; ++i) {
      out[i] = row.horizontal(i);
      if constexpr (Shape != MorphShape::kRect) {
        const std::uint32_t centre = window_rows<L, Size, Shape, false>([&](int j) { return wide[k + j][i]; });
        out[i] = L::reduce3(out[i], centre, centre);
      }
    }
    std::uint32_t o[4];
MORPH_UNROLL
    for (int m = 0; m < 4; ++m) o[m] = L::narrow(&out[m * kCw]);
    store_chunk<L>(a, y0 + k, xb, o);
  }
}

template <class L, int C, int Size, MorphShape Shape, int kRows>
__global__ void __launch_bounds__(RowsLayout::kThreads) morph_rows_kernel(TileArgs a) {
  rows_pass<L, C, Size, Shape, kRows>(a, blockIdx.x, blockIdx.y);
}

}  // namespace morph
}  // namespace dpx
