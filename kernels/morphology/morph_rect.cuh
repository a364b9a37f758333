// Device side of the separable passes on block maxima (morph_rect.h): the column pass and the row
// pass of morph_separable.cuh whose runs take their middles from block maxima. A run of m outputs
// from t0 (a multiple of m from the first input) needs the max/min of inputs t0 + m - 1 ..
// t0 + k - 1; with k - 1 = q m + s (0 <= s < m) that is input t0 + m - 1, the whole blocks of m
// inputs 1 .. q - 1 after the run's own, and inputs t0 + q m .. t0 + k - 1. A block's threads
// first compute the maxima of the blocks their runs share, once each, into shared memory; a run
// then loads about 3 m inputs instead of k + m - 1, whatever the bar's size
// (docs/notes/morphology.md). The column pass walks down chunk columns of a strip of rows, the row
// pass along each row group's line in shared memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "morph_separable.cuh"

namespace dpx {
namespace morph {

// Warps of a block (each a chunk column of kColumnWarpChunks lanes, stacked down the strip) and
// runs of a strip: a run a warp. Two runs a warp computed fewer maxima (16 + q - 2 for 16 runs
// against 8 + q - 2 for 8) but left 4K GRAY8 at 135 blocks, half of what 132 SMs hold at two
// blocks each: 2 warps a scheduler, stalled on their loads. A strip's maxima are the pass's
// redundant loads (a 255-row bar over 8 runs of 8 rows: 37 maxima of 8 loads for 8 runs), so u8
// takes strips of 16 runs in blocks of 16 warps where the frame still gives every SM a block: 45
// maxima for 16 runs, a quarter fewer loads a run (4K GRAY8: 255 blocks, two an SM, one wave). u16
// keeps 8: its runs are 16 rows, and 16 warps would leave 4K GRAY16 at 270 blocks, past one wave.
constexpr int kRectWarps = 8;
constexpr int kRectWideWarps = 16;

template <typename T>
constexpr int rect_column_max_warps() {
  return sizeof(T) == 1 ? kRectWideWarps : kRectWarps;
}

template <typename T>
inline int rect_column_warps(int blocks_x, int height, int run_rows, int sms) {
  const int strip_rows = run_rows * rect_column_max_warps<T>();
  const long long blocks = static_cast<long long>(blocks_x) * ((height + strip_rows - 1) / strip_rows);
  return blocks >= sms ? rect_column_max_warps<T>() : kRectWarps;
}

struct RectColumnArgs {
  ColumnPassArgs column;  // without a row window or a tile; strip_rows a multiple of the block's runs
  int whole_blocks;       // q - 1: whole blocks in a run's middle (<= 0: none, the plain column runs)
  int maxima;             // block maxima of a strip: its runs + q - 2 (blocks 1 .. of its first run)
};

// The run of m = kRun outputs from t0 around its middle for a window of k (window_run's), with
// whole_blocks = q - 1; block(i) is the max/min of the i-th block of m inputs after the run's own.
template <typename T, bool kMax, int kRun, class In, class Block, class Out>
__device__ __forceinline__ void block_window_run(int k, int whole_blocks, int t0, const In& in,
                                                 const Block& block, const Out& out) {
  ChunkLanes<T> middle = in(t0 + kRun - 1);
  int i = 1;
  for (; i + 1 <= whole_blocks; i += 2) middle = max_or_min3<T, kMax>(middle, block(i), block(i + 1));
  if (i <= whole_blocks) middle = max_or_min<T, kMax>(middle, block(i));
  middle = max_of_inputs<T, kMax>(middle, t0 + (whole_blocks + 1) * kRun, t0 + k, in);
  window_run_around<T, kMax, kRun>(k, t0, middle, in, out);
}

// The maximum (minimum) of block i + 1 of kRun inputs (the first run's own block needs none).
template <typename T, bool kMax, int kRun, class In>
__device__ __forceinline__ ChunkLanes<T> block_maximum(int i, const In& in) {
  const int first = (i + 1) * kRun;
  return max_of_inputs<T, kMax>(in(first), first + 1, first + kRun, in);
}

// The column pass's runs on u8 samples: 8 outputs, where u16 and the row pass take 16, for 1.35x
// the loads (q - 1 doubles). A 4K GRAY8 frame then has twice the threads (64,800 in runs of 16: 16
// warps an SM, stalled on their loads) at 58 registers instead of 102 (64 in blocks of 16 warps).
// GRAY16 has twice the chunk columns and 56 registers in runs of 16, a full wave already: its runs
// of 8 measured 6% slower.
template <typename T>
constexpr int rect_column_max_run() {
  return sizeof(T) == 1 ? 8 : kMaxRun;
}

// q - 1 for a window of k in runs of `run` outputs (<= 0: no whole block in a middle).
constexpr int whole_blocks_of(int k, int run) {
  return (k - 1) / run - 1;
}

// The block maxima that runs 0 .. runs - 1 read: blocks 1 .. runs + q - 2.
__host__ __device__ constexpr int maxima_for_runs(int runs, int whole_blocks) {
  return whole_blocks > 0 ? runs + whole_blocks - 1 : 0;
}

// A block: kColumnWarpChunks chunk columns of strip_rows output rows. Its warps compute the maxima
// (each of kRun rows, narrowed into `maxima`: a row of kColumnWarpChunks chunks a block:
// store_column_block_maxima), meet, then take the strip's runs, each warp every blockDim.y-th
// (block_maxima_column_runs). Lanes past the row's end store nothing.
template <typename T, bool kMax, int kRun>
struct RectColumnThread {
  using Column = WindowLanes<T, kMax>;
  const ColumnPassArgs& a;
  int lane, xb;
  bool vector;
  int y1, s0;  // the strip's end and first input row: runs and blocks start kRun apart from s0
  int runs;

  __device__ explicit RectColumnThread(const RectColumnArgs& args)
      : a(args.column), lane(static_cast<int>(threadIdx.x)) {
    xb = (static_cast<int>(blockIdx.x) * kColumnWarpChunks + lane) * kChunkBytes;
    vector = a.src_chunks && xb + kChunkBytes <= a.readable_bytes;
    const int y0 = static_cast<int>(blockIdx.y) * a.strip_rows;
    y1 = min(y0 + a.strip_rows, a.height);
    s0 = y0 - a.radius;
    runs = (y1 - y0 + kRun - 1) / kRun;
  }
  __device__ ChunkLanes<T> in(int v) const { return column_input<Column, kMax>(a, v, xb, vector); }
};

// Block i + 1 of the thread's chunk column (block_maximum's). Where the border rule maps the block's
// rows onto a walk down the plane (line_walk: all but a block across an edge), its kRun loads go
// out one after another down a pointer before any is used: row by row, each row's border rule
// (about 15 instructions) and a max between loads left a warp two loads in flight.
template <typename T, bool kMax, int kRun>
__device__ __forceinline__ ChunkLanes<T> column_block_maximum(int i,
                                                              const RectColumnThread<T, kMax, kRun>& t) {
  using Column = typename RectColumnThread<T, kMax, kRun>::Column;
  const int first = t.s0 + (i + 1) * kRun;
  const LineWalk w = line_walk(first, kRun, t.a.height, t.a.border);
  if (w.step == 2 || !t.vector) {
    return block_maximum<T, kMax, kRun>(i, [&](int v) { return t.in(t.s0 + v); });
  }
  if (w.start < 0) return neutral_chunk<T, kMax>();
  const std::uint8_t* p = t.a.src + static_cast<std::size_t>(w.start) * t.a.src_pitch + t.xb;
  const std::ptrdiff_t step = w.step * static_cast<std::ptrdiff_t>(t.a.src_pitch);
  uint2 words[kRun];
  MORPH_UNROLL
  for (int j = 0; j < kRun; ++j) words[j] = __ldg(reinterpret_cast<const uint2*>(p + j * step));
  ChunkLanes<T> acc = widen_chunk<Column>(words[0].x, words[0].y);
  MORPH_UNROLL
  for (int j = 1; j < kRun; ++j) acc = max_or_min<T, kMax>(acc, widen_chunk<Column>(words[j].x, words[j].y));
  return acc;
}

// Block i + 1 (the first run's own block needs no maximum) of input rows s0 + (i + 1) kRun .. into
// maxima row i.
template <typename T, bool kMax, int kRun>
__device__ void store_column_block_maxima(const RectColumnArgs& args, uint2* maxima) {
  const RectColumnThread<T, kMax, kRun> t(args);
  const int blocks = maxima_for_runs(t.runs, args.whole_blocks);
  for (int i = threadIdx.y; i < blocks; i += blockDim.y) {
    maxima[i * kColumnWarpChunks + t.lane] =
        narrow_chunk<typename decltype(t)::Column>(column_block_maximum<T, kMax, kRun>(i, t));
  }
}

template <typename T, bool kMax, int kRun>
__device__ void block_maxima_column_runs(const RectColumnArgs& args, const uint2* maxima) {
  using Column = typename RectColumnThread<T, kMax, kRun>::Column;
  const RectColumnThread<T, kMax, kRun> t(args);
  const ColumnPassArgs& a = args.column;
  const auto in = [&](int v) { return t.in(v); };
  for (int run = threadIdx.y; run < t.runs; run += blockDim.y) {
    const int t0 = t.s0 + run * kRun;
    block_window_run<T, kMax, kRun>(
        2 * a.radius + 1, args.whole_blocks, t0, in,
        [&](int i) {
          const uint2 c = maxima[(run + i - 1) * kColumnWarpChunks + t.lane];
          return widen_chunk<Column>(c.x, c.y);
        },
        [&](int j, const ChunkLanes<T>& v) {
          const int y = t0 + j + a.radius;
          if (t.xb < a.row_bytes && y < t.y1) store_chunk<Column, kMax>(a, y, t.xb, v);
        });
  }
}

// The pass of `in` (column_readable) into `out` with a bar of 2 * radius + 1 rows,
// merged with what `out` holds when `merge`, on a device of `sms` SMs.
template <typename T>
inline RectColumnArgs rect_column_args(const PlaneView& in, const MutablePlaneView& out, int radius,
                                       BorderMode border, bool merge, int sms, PassShape* shape) {
  RectColumnArgs r{column_pass_args(in, out, radius, 0, border, merge, shape), 0, 0};
  ColumnPassArgs& a = r.column;
  const int k = 2 * radius + 1;
  a.run_rows = window_run_length(k, rect_column_max_run<T>());
  a.tiled = false;
  const int warps = rect_column_warps<T>(shape->blocks_x, in.height, a.run_rows, sms);
  const int unit = a.run_rows * warps;
  a.strip_rows = unit * std::max(1, (in.height + 65535 * unit - 1) / (65535 * unit));
  r.whole_blocks = whole_blocks_of(k, a.run_rows);
  r.maxima = maxima_for_runs(a.strip_rows / a.run_rows, r.whole_blocks);
  shape->blocks_y = (in.height + a.strip_rows - 1) / a.strip_rows;
  shape->threads_y = warps;
  shape->shared_bytes = static_cast<std::size_t>(r.maxima) * kColumnWarpChunks * sizeof(uint2);
  return r;
}

// --- the row pass on block maxima -----------------------------------------------------------------

// The row pass (row_pass_args) with each group's block maxima after the results: `blocks` slots a
// channel (kRowTilePixels / m + q - 2), a chunk each, a group's channels side by side.
struct RectRowArgs {
  RowPassArgs row;
  int whole_blocks;  // q - 1 (<= 0: none, the plain row runs)
  int blocks;
};

template <typename T>
__device__ __forceinline__ uint2* row_block_maxima(const RectRowArgs& r, const RowBlock<T>& b) {
  return b.results + r.row.groups * r.row.out_slots;
}

// Between load_row_lines and the runs: the maxima of each group's and channel's blocks, once each.
template <typename T, bool kMax, int kRun>
__device__ void store_row_block_maxima(const RectRowArgs& r, const RowBlock<T>& b) {
  const int per_group = maxima_for_runs((b.out_pixels + kRun - 1) / kRun, r.whole_blocks) * b.c;
  if (per_group == 0) return;
  uint2* maxima = row_block_maxima(r, b);
  FlatCursor at(threadIdx.x, per_group);
  for (int t = threadIdx.x; t < b.groups * per_group; t += blockDim.x, at.advance(blockDim.x, per_group)) {
    const int i = at.item >> b.log_c, ch = at.item & (b.c - 1), row = at.row;
    const auto in = [&](int v) { return b.template input<kMax>(r.row, row, ch, v); };
    maxima[(row * r.blocks + i) * b.c + ch] =
        narrow_chunk<WindowLanes<T, kMax>>(block_maximum<T, kMax, kRun>(i, in));
  }
}

// row_runs with each run's middle from the block maxima.
template <typename T, bool kMax, int kRun>
__device__ void block_maxima_row_runs(const RectRowArgs& r, const RowBlock<T>& b) {
  const uint2* maxima = row_block_maxima(r, b);
  for_each_row_run<T, kMax, kRun>(r.row, b, [&](int row, int ch, int t0, const auto& in, const auto& out) {
    const int run = t0 / kRun;
    block_window_run<T, kMax, kRun>(
        2 * r.row.radius + 1, r.whole_blocks, t0, in,
        [&](int i) {
          const uint2 c = maxima[(row * r.blocks + run + i - 1) * b.c + ch];
          return widen_chunk<WindowLanes<T, kMax>>(c.x, c.y);
        },
        out);
  });
}

// The row pass of `in` into `out` with a bar of 2 * radius + 1 columns.
template <typename T>
inline RectRowArgs rect_row_args(const PlaneView& in, const MutablePlaneView& out, int radius,
                                 BorderMode border, PassShape* shape) {
  const int run = window_run_length(2 * radius + 1);
  const int whole = whole_blocks_of(2 * radius + 1, run);
  const int blocks = maxima_for_runs(kRowTilePixels / run, whole);
  return RectRowArgs{row_pass_args<T>(in, out, radius, border, shape, blocks * in.channels * kChunkBytes),
                     whole, blocks};
}
static_assert(RowGroupLayout((kMorphMaxRectSize - 1) / 2, 4).bytes() +
                      maxima_for_runs(kRowTilePixels / kMaxRun, whole_blocks_of(kMorphMaxRectSize, kMaxRun)) *
                          4 * kChunkBytes <=
                  kSeparableSharedBudget,
              "a row group of the widest bar on four channels and its maxima fit a block's shared memory");

}  // namespace morph
}  // namespace dpx
