// Device side of the one-pass cross / ellipse schedule (the variant morph_shape.h launches): a
// dilation or erosion over all bars of the element (morph_bars.h) with one read and one write of
// the frame. A block stages its tile and the element's halo in shared memory once, then, from the
// narrowest bar (the outermost mask rows) to the widest, adds the mask rows of each bar to each
// output's accumulator: a thread's outputs are a run of kShapeRun rows of two staged words half a
// tile apart (a chunk; a warp's lanes load consecutive words, so any offset along the row reads
// shared memory without bank conflicts), whose windows down the column share their middle
// (window_run), so a tall bar costs few loads an output. A bar's row window comes from the staged rows' running max/min, widened in
// place to a few levels only (shape_levels): a bar of half-width w on a level of half-width v
// (v <= w <= 2v) is the max/min of the level's words w - v samples either side, two windows that
// overlap. So the rows are widened a few times, whatever the number of bars
// (docs/notes/morphology.md has the count).
//
// A staged word holds two 16-bit lanes: the same position of the tile's top half (low lane) and
// bottom half (high lane). Every move along a row or down a column is then a whole word, whatever
// the channels (a pixel's neighbour is `channels` words away), and every max/min a packed
// three-operand instruction; u8 samples sit in the low byte of their lane.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
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

constexpr int kShapeThreads = 512;
constexpr int kShapeTileSamples = 128;  // output samples of a block's rows
constexpr int kShapeHalfRows = 64;      // output rows of each half of a block's tile (the halo shared by many)
constexpr int kShapeRun = 8;            // output rows a thread takes down a chunk column
constexpr int kShapeChunkColumns = kShapeTileSamples / 2;  // a chunk's second word is this far on
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
  int level[kShapeMaxBars];  // half-width of the running max/min bar b reads (shape_levels)
  int radius;        // rows of halo above and below: the element's half-height
  int reach;         // samples of halo left and right: its half-width * channels
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
  constexpr int kRunsPerThread = kShapeChunkColumns * (kShapeHalfRows / kShapeRun) / kThreads;
  static_assert(
      kRunsPerThread * kThreads == kShapeChunkColumns * (kShapeHalfRows / kShapeRun) && kThreads % 32 == 0,
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
  // row and its chunk column c, the words c and c + kShapeChunkColumns of a row (both halves: the
  // two lanes).
  const auto run_row = [&](int i) { return (tid + i * kThreads) / kShapeChunkColumns * kShapeRun; };
  const auto run_column = [&](int i) { return (tid + i * kThreads) % kShapeChunkColumns; };
  Chunk acc[kRunsPerThread][kShapeRun];
MORPH_UNROLL
  for (int i = 0; i < kRunsPerThread; ++i) {
MORPH_UNROLL
    for (int j = 0; j < kShapeRun; ++j) acc[i][j] = neutral_chunk<std::uint16_t, kMax>();
  }

  int width = 0;  // half-width the staged rows' running max/min has reached
  __syncthreads();  // staged
  for (int b = a.bars - 1; b >= 0; --b) {
    const Bar bar = a.bar[b];
    // Widen the rows this bar and the wider ones reach (staged rows radius - half_height ..) from
    // `width` to the bar's level, in steps max(x - e, x, x + e) of e <= 2 * width + 1. A row is a
    // warp's alone; a word is valid where its window lies in the staged row: from width * channels on.
    if (width < a.level[b]) {
      __syncthreads();  // read by the last bar's accumulation
      while (width < a.level[b]) {
        const int e = min(a.level[b] - width, 2 * width + 1);
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
    }
    // The mask rows of this bar's width: dy from -half_height to half_height for the widest bar,
    // else two windows of the rows past the next wider bar's half-height, above and below.
    const int inner = b == 0 ? -1 : a.bar[b - 1].half_height;
    const int k = b == 0 ? 2 * bar.half_height + 1 : bar.half_height - inner;
    const int d = (bar.half_width - width) * a.channels;  // words either side of the two windows
    for (int window = 0; window < (b == 0 ? 1 : 2); ++window) {
      const int from = window == 0 ? -bar.half_height : inner + 1;  // the window's first dy
      // Each run of kShapeRun outputs as runs of M (window_run_length: M <= k), M fixed at compile
      // time; kTwo: the row window as the max/min of the level words d either side (d != 0).
      const auto windows = [&](auto run, auto two) {
        constexpr int M = decltype(run)::value;
        constexpr bool kTwo = decltype(two)::value;
MORPH_UNROLL
        for (int i = 0; i < kRunsPerThread; ++i) {
          const std::uint32_t* top =
              staged + (a.radius + run_row(i) + from) * words + a.reach + run_column(i);
MORPH_UNROLL
          for (int s = 0; s < kShapeRun; s += M) {
            window_run<std::uint16_t, kMax, M>(
                k, s,
                [&](int v) {
                  const std::uint32_t* p = top + v * words;
                  if constexpr (kTwo) {
                    Chunk c;
                    c.w[0] = max_or_min<kMax>(p[-d], p[d]);
                    c.w[1] = max_or_min<kMax>(p[kShapeChunkColumns - d], p[kShapeChunkColumns + d]);
                    return c;
                  } else {
                    return widen_chunk<L>(p[0], p[kShapeChunkColumns]);
                  }
                },
                [&](int j, const Chunk& c) {
                  acc[i][s + j] = max_or_min<std::uint16_t, kMax>(acc[i][s + j], c);
                });
          }
        }
      };
      const auto with_offsets = [&](auto run) {
        if (d == 0) {
          windows(run, std::false_type{});
        } else {
          windows(run, std::true_type{});
        }
      };
      static_assert(kShapeRun == 8, "the runs below");
      switch (window_run_length(k, kShapeRun)) {
        case 1:
          with_offsets(std::integral_constant<int, 1>{});
          break;
        case 2:
          with_offsets(std::integral_constant<int, 2>{});
          break;
        case 4:
          with_offsets(std::integral_constant<int, 4>{});
          break;
        default:
          with_offsets(std::integral_constant<int, 8>{});
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
          const int x = x0 + run_column(i) + kShapeChunkColumns * w;
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

// Shared-memory words a block moves to widen the rows a bar of half-height h reaches from level v0
// to v (the steps of shape_pass: three loads and a store a word).
inline std::int64_t shape_widening_words(const ShapePassArgs& a, int h, int v0, int v) {
  std::int64_t words = 0;
  for (int width = v0; width < v;) {
    width += std::min(v - width, 2 * width + 1);
    words += 4LL * (kShapeHalfRows + 2 * h) * std::max(0, a.staged_words - 2 * width * a.channels);
  }
  return words;
}

// Shared-memory words a block loads for bar b's column windows read from one level word a row:
// chunks of two words, a run of kShapeRun outputs in runs of M loading k + M - 1 of them. Words
// and not bytes: a warp's loads of consecutive words take a shared-memory cycle each.
inline std::int64_t shape_window_words(const ShapePassArgs& a, int b) {
  const int h = a.bar[b].half_height;
  const int k = b == 0 ? 2 * h + 1 : h - a.bar[b - 1].half_height;
  const int m = window_run_length(k, kShapeRun);
  const std::int64_t runs = kShapeTileSamples / 2 * (kShapeHalfRows / kShapeRun) * (b == 0 ? 1 : 2);
  return runs * 2 * (kShapeRun / m) * (k + m - 1);
}

// The levels the bars read (a.level): from the narrowest bar to the widest, each bar's level v
// (v <= w <= 2v, w its half-width; v = w reads one word a row, else two) is chosen so that the
// widening and the column windows together move the fewest shared-memory words: the cheapest path
// through the levels, bar by bar. Reading every bar at its own half-width (a widening a bar) is
// one of the paths.
inline void shape_levels(ShapePassArgs& a) {
  constexpr int kLevels = kMorphMaxShapeSize / 2 + 1;
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  std::int64_t cost[kLevels];  // the cheapest way to have read the bars so far ending on level v
  int from[kShapeMaxBars][kLevels];
  std::fill(cost, cost + kLevels, kNone);
  cost[0] = 0;
  for (int b = a.bars - 1; b >= 0; --b) {
    const int w = a.bar[b].half_width;
    const std::int64_t window = shape_window_words(a, b);
    std::int64_t next[kLevels];
    std::fill(next, next + kLevels, kNone);
    for (int v0 = 0; v0 <= w; ++v0) {
      if (cost[v0] == kNone) continue;
      for (int v = std::max(v0, (w + 1) / 2); v <= w; ++v) {
        const std::int64_t c =
            cost[v0] + shape_widening_words(a, a.bar[b].half_height, v0, v) + window * (v == w ? 1 : 2);
        if (c < next[v]) next[v] = c, from[b][v] = v0;
      }
    }
    std::copy(next, next + kLevels, cost);
  }
  a.level[0] = static_cast<int>(std::min_element(cost, cost + kLevels) - cost);
  for (int b = 0; b + 1 < a.bars; ++b) a.level[b + 1] = from[b][a.level[b]];
}

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
  a.reach = bars.front().half_width * in.channels;
  a.staged_rows = kShapeHalfRows + 2 * a.radius;
  a.staged_words = kShapeTileSamples + 2 * a.reach;
  shape_levels(a);
  *launch = ShapeLaunch{(a.row_samples + kShapeTileSamples - 1) / kShapeTileSamples,
                        (in.height + 2 * kShapeHalfRows - 1) / (2 * kShapeHalfRows),
                        static_cast<std::size_t>(a.staged_rows) * a.staged_words * sizeof(std::uint32_t)};
  return a;
}

}  // namespace morph
}  // namespace dpx
