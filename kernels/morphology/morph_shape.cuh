// Device side of the one-pass cross / ellipse schedule (the variant morph_shape.h launches): a
// dilation or erosion over all bars of the element (morph_bars.h) with one read and one write of
// the frame. A block stages its tile and the element's halo in shared memory once, then, from the
// narrowest bar (the outermost mask rows) to the widest, widens each staged row's running max/min
// in place to the bar's half-width and adds the mask rows of that width to each output's
// accumulator: a thread's outputs are a run of kShapeRun rows of a chunk (two staged words), whose
// windows down the column share their middle (window_run), so a tall bar costs few loads an output
// (docs/notes/morphology.md has the count).
//
// A staged word holds two 16-bit lanes: the same position of the tile's top half (low lane) and
// bottom half (high lane). Every move along a row or down a column is then a whole word, whatever
// the channels (a pixel's neighbour is `channels` words away), and every max/min a packed
// three-operand instruction; u8 samples sit in the low byte of their lane.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dpx/plane.h"
#include "dpx_ops.cuh"
#include "morph_bars.h"
#include "morph_lanes.cuh"
#include "morph_separable.cuh"  // FlatCursor, neutral_word
#include "morph_tile.cuh"       // resolve, MORPH_UNROLL

namespace dpx {
namespace morph {

constexpr int kShapeThreads = 256;
constexpr int kShapeTileSamples = 128;  // output samples of a block's rows
constexpr int kShapeHalfRows = 32;      // output rows of each half of a block's tile
constexpr int kShapeRun = 8;            // output rows a thread takes down a chunk column
constexpr int kShapeMaxBars = kMorphMaxShapeSize / 2 + 1;
// Staged words a row at most (the widest element on four channels) and a lane's share of a row.
constexpr int kShapeMaxRowWords = kShapeTileSamples + 2 * (kMorphMaxShapeSize / 2) * 4;
constexpr int kShapeRowWordsPerLane = (kShapeMaxRowWords + 31) / 32;

struct ShapePassArgs {
  const std::uint8_t* src;
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int width, height, channels;
  int row_samples;  // width * channels
  BorderMode border;
  int bars;  // of the element, widest first (mask_bars)
  Bar bar[kShapeMaxBars];
  int radius;        // rows of halo above and below: the element's half-height
  int reach;         // samples of halo left and right: its half-width * channels, rounded up to
                     // even (a chunk of two staged words is 8-byte aligned)
  int staged_rows;   // kShapeHalfRows + 2 * radius: a half tile and its halo
  int staged_words;  // a staged row: kShapeTileSamples + 2 * reach
};

// Sample q of virtual row y with the border rule, as a lane (the neutral sample where it reads
// nothing).
template <typename T, bool kMax>
__device__ __forceinline__ std::uint32_t staged_lane(const ShapePassArgs& a, int y, int q) {
  const int log_c = channel_shift(a.channels);
  const int sy = resolve(y, a.height, a.border);
  const int px = resolve(q >> log_c, a.width, a.border);  // arithmetic shift: floor division
  if (sy < 0 || px < 0) return kMax ? 0u : 0xFFFFu;
  const T* row = reinterpret_cast<const T*>(a.src + static_cast<std::size_t>(sy) * a.src_pitch);
  return __ldg(row + (px << log_c) + (q & (a.channels - 1)));
}

// One block of kThreads threads (kShapeThreads on the device; the host emulation runs fewer, each
// owning more outputs): output samples bx * kShapeTileSamples .. + kShapeTileSamples of rows
// by * 2 * kShapeHalfRows .. + 2 * kShapeHalfRows. `staged` holds staged_rows * staged_words words.
template <typename T, bool kMax, int kThreads = kShapeThreads>
__device__ void shape_pass(const ShapePassArgs& a, std::uint32_t* staged, int bx, int by) {
  using L = U16x2Lanes<ops::Dpx, kMax>;
  using Chunk = ChunkLanes<std::uint16_t>;  // two staged words: lanes of the same format
  constexpr int kChunkColumns = kShapeTileSamples / 2;
  constexpr int kRunsPerThread = kChunkColumns * (kShapeHalfRows / kShapeRun) / kThreads;
  static_assert(
      kRunsPerThread * kThreads == kChunkColumns * (kShapeHalfRows / kShapeRun) && kThreads % 32 == 0,
      "every thread owns as many runs, whole warps");
  const int tid = static_cast<int>(threadIdx.x), threads = kThreads;
  const int lane = tid & 31, warp = tid >> 5, warps = threads >> 5;
  const int x0 = bx * kShapeTileSamples, y0 = by * 2 * kShapeHalfRows;
  const int words = a.staged_words;

  FlatCursor at(tid, words);
  for (int i = tid; i < a.staged_rows * words; i += threads, at.advance(threads, words)) {
    const int y = y0 - a.radius + at.row, q = x0 - a.reach + at.item;
    staged[i] = staged_lane<T, kMax>(a, y, q) | staged_lane<T, kMax>(a, y + kShapeHalfRows, q) << 16;
  }

  // Run i of a thread: run tid + i * kThreads of the half tile, chunk columns first; its first
  // row and its chunk column (both halves: the two lanes).
  const auto run_row = [&](int i) { return (tid + i * kThreads) / kChunkColumns * kShapeRun; };
  const auto run_column = [&](int i) { return (tid + i * kThreads) % kChunkColumns; };
  Chunk acc[kRunsPerThread][kShapeRun];
MORPH_UNROLL
  for (int i = 0; i < kRunsPerThread; ++i) {
MORPH_UNROLL
    for (int j = 0; j < kShapeRun; ++j) acc[i][j] = neutral_chunk<std::uint16_t, kMax>();
  }

  int width = 0;  // half-width the staged rows' running max/min has reached
  for (int b = a.bars - 1; b >= 0; --b) {
    const Bar bar = a.bar[b];
    __syncthreads();  // staged, or read by the last bar's accumulation
    // Widen the rows this bar and the wider ones reach (staged rows radius - half_height ..) from
    // `width` to the bar's, in steps max(x - e, x, x + e) of e <= 2 * width + 1. A row is a warp's
    // alone; a word is valid where its window lies in the staged row: from width * channels on.
    while (width < bar.half_width) {
      const int e = min(bar.half_width - width, 2 * width + 1);
      width += e;
      const int shift = e * a.channels, lo = width * a.channels, hi = words - lo;
      for (int r = a.radius - bar.half_height + warp; r < a.radius + kShapeHalfRows + bar.half_height;
           r += warps) {
        std::uint32_t* row = staged + r * words;
        std::uint32_t wide[kShapeRowWordsPerLane];
MORPH_UNROLL
        for (int i = 0; i < kShapeRowWordsPerLane; ++i) {
          const int x = lo + lane + 32 * i;
          if (x < hi) wide[i] = L::reduce3(row[x - shift], row[x], row[x + shift]);
        }
        __syncwarp();
MORPH_UNROLL
        for (int i = 0; i < kShapeRowWordsPerLane; ++i) {
          const int x = lo + lane + 32 * i;
          if (x < hi) row[x] = wide[i];
        }
        __syncwarp();
      }
    }
    __syncthreads();
    // The mask rows of this bar's width: dy from -half_height to half_height for the widest bar,
    // else two windows of the rows past the next wider bar's half-height, above and below.
    const int inner = b == 0 ? -1 : a.bar[b - 1].half_height;
    const int k = b == 0 ? 2 * bar.half_height + 1 : bar.half_height - inner;
    for (int window = 0; window < (b == 0 ? 1 : 2); ++window) {
      const int from = window == 0 ? -bar.half_height : inner + 1;  // the window's first dy
      // Each run of kShapeRun outputs as runs of M (window_run_length: M <= k), M fixed at compile time.
      const auto windows = [&](auto run) {
        constexpr int M = decltype(run)::value;
MORPH_UNROLL
        for (int i = 0; i < kRunsPerThread; ++i) {
          const std::uint32_t* top =
              staged + (a.radius + run_row(i) + from) * words + a.reach + 2 * run_column(i);
MORPH_UNROLL
          for (int s = 0; s < kShapeRun; s += M) {
            window_run<std::uint16_t, kMax, M>(
                k, s,
                [&](int v) {
                  const uint2 c = *reinterpret_cast<const uint2*>(top + v * words);
                  return widen_chunk<L>(c.x, c.y);
                },
                [&](int j, const Chunk& c) {
                  acc[i][s + j] = max_or_min<std::uint16_t, kMax>(acc[i][s + j], c);
                });
          }
        }
      };
      static_assert(kShapeRun == 8, "the runs below");
      switch (window_run_length(k, kShapeRun)) {
        case 1:
          windows(std::integral_constant<int, 1>{});
          break;
        case 2:
          windows(std::integral_constant<int, 2>{});
          break;
        case 4:
          windows(std::integral_constant<int, 4>{});
          break;
        default:
          windows(std::integral_constant<int, 8>{});
          break;
      }
    }
  }

MORPH_UNROLL
  for (int i = 0; i < kRunsPerThread; ++i) {
MORPH_UNROLL
    for (int j = 0; j < kShapeRun; ++j) {
      for (int half = 0; half < 2; ++half) {
        const int y = y0 + run_row(i) + j + half * kShapeHalfRows;
        if (y >= a.height) continue;
        T* out = reinterpret_cast<T*>(a.dst + static_cast<std::size_t>(y) * a.dst_pitch);
        for (int w = 0; w < 2; ++w) {
          const int x = x0 + 2 * run_column(i) + w;
          if (x < a.row_samples) out[x] = static_cast<T>(acc[i][j].w[w] >> (16 * half));
        }
      }
    }
  }
}

// Launch shape of the one-pass schedule for `in` (grid x, y; dynamic shared bytes).
struct ShapeLaunch {
  int blocks_x, blocks_y;
  std::size_t shared_bytes;
};

// The arguments of a dilation / erosion of `in` into `out` over `bars` (at most kShapeMaxBars,
// half-widths at most kMorphMaxShapeSize / 2, widest first).
inline ShapePassArgs shape_pass_args(const PlaneView& in, const MutablePlaneView& out,
                                     const std::vector<Bar>& bars, BorderMode border, ShapeLaunch* launch) {
  ShapePassArgs a{};
  a.src = static_cast<const std::uint8_t*>(in.data);
  a.src_pitch = in.pitch;
  a.dst = static_cast<std::uint8_t*>(out.data);
  a.dst_pitch = out.pitch;
  a.width = in.width;
  a.height = in.height;
  a.channels = in.channels;
  a.row_samples = in.width * in.channels;
  a.border = border;
  a.bars = static_cast<int>(bars.size());
  for (std::size_t i = 0; i < bars.size(); ++i) a.bar[i] = bars[i];
  a.radius = bars.back().half_height;
  a.reach = (bars.front().half_width * in.channels + 1) / 2 * 2;
  a.staged_rows = kShapeHalfRows + 2 * a.radius;
  a.staged_words = kShapeTileSamples + 2 * a.reach;
  *launch = ShapeLaunch{(a.row_samples + kShapeTileSamples - 1) / kShapeTileSamples,
                        (in.height + 2 * kShapeHalfRows - 1) / (2 * kShapeHalfRows),
                        static_cast<std::size_t>(a.staged_rows) * a.staged_words * sizeof(std::uint32_t)};
  return a;
}

}  // namespace morph
}  // namespace dpx
