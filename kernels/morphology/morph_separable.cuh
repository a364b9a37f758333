// Device side of the separable CUDA morphology (morph_separable.h): van Herk/Gil-Werman running
// max/min, two operations per sample whatever the window's length. A window of k = 2r + 1 starting
// at position t is the suffix of t's block of k positions (blocks aligned to the tile) combined
// with the prefix of the next block up to t + k - 1.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpx/plane.h"
#include "dpx/status.h"
#include "morph_bars.h"
#include "morph_tile.cuh"  // resolve()

namespace dpx {
namespace morph {

template <typename T, bool kMax>
__device__ __forceinline__ T pick(T a, T b) {
  return kMax ? (a > b ? a : b) : (a < b ? a : b);
}

// Four u8 or two u16 samples of a 32-bit word at once.
template <typename T, bool kMax>
__device__ __forceinline__ std::uint32_t pick_word(std::uint32_t a, std::uint32_t b) {
  if constexpr (sizeof(T) == 1) {
    return kMax ? __vmaxu4(a, b) : __vminu4(a, b);
  } else {
    return kMax ? __vmaxu2(a, b) : __vminu2(a, b);
  }
}

// A flat index over rows of `width` items as (row, item), moved on by `step` without a division:
// the row pass walks its shared tile blockDim.x items at a time, and two integer divisions a sample
// made it instruction-bound.
struct FlatCursor {
  int row, item;
  __device__ FlatCursor(int flat, int width) : row(flat / width), item(flat - row * width) {}
  __device__ void advance(int step, int width) {
    item += step;
    while (item >= width) item -= width, ++row;
  }
};

// Samples of type T a 32-bit word holds: the row pass packs the samples of that many consecutive
// rows at one position into a word (four u8 rows, two u16 rows) and runs its max/min on words.
template <typename T>
constexpr int rows_per_word() {
  return 4 / static_cast<int>(sizeof(T));
}

struct RowPassArgs {
  const std::uint8_t* src;
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int width, height, channels;
  int radius;          // half-width of the run
  int tile_pixels;     // output pixels per block and row
  int rows_per_block;  // a multiple of rows_per_word<T>()
  BorderMode border;
};

// A block: tile_pixels output pixels of rows_per_block rows, as row groups of rows_per_word<T>()
// rows. Shared memory holds each group's padded line (the tile plus `radius` pixels each side,
// built with the border rule; word s holds sample s of each of the group's rows) and its block
// prefixes; the suffixes replace the line in place. Sample by sample the pass was bound by its
// instructions (29 M warp instructions for a 4K GRAY8 31-wide run); a word per position and group
// takes a quarter of the shared-memory accesses and max/min (u8), and a thread's position keeps
// its border resolution and addresses for all the block's rows.
template <typename T, bool kMax>
__device__ void row_pass(const RowPassArgs& a, std::uint32_t* shared) {
  constexpr int P = rows_per_word<T>();
  constexpr int kBits = 8 * static_cast<int>(sizeof(T));
  const int c = a.channels, k = 2 * a.radius + 1;
  const int padded = a.tile_pixels + 2 * a.radius;
  const int line = padded * c;
  std::uint32_t* lines = shared;
  std::uint32_t* prefix = shared + (a.rows_per_block / P) * line;
  const int x0 = blockIdx.x * a.tile_pixels;
  const int y0 = blockIdx.y * a.rows_per_block;
  const int groups = (min(a.rows_per_block, a.height - y0) + P - 1) / P;  // groups with a row in the plane
  const T neutral = kMax ? T{0} : static_cast<T>(~T{0});

  // A thread per sample position s of the padded line, down every group: the position's border
  // resolution and address are worked out once for all the block's rows. Rows past the plane's
  // end hold the neutral sample. Read-only loads (__ldg) may be issued ahead of the shared stores.
  const int log_c = c == 1 ? 0 : c == 2 ? 1 : 2;
  for (int s = threadIdx.x; s < line; s += blockDim.x) {
    const int x = x0 - a.radius + (s >> log_c);
    const int sx = x >= 0 && x < a.width ? x : resolve(x, a.width, a.border);
    const std::uint8_t* p = a.src + static_cast<std::size_t>(y0) * a.src_pitch +
                            static_cast<std::size_t>((max(sx, 0) << log_c) + (s & (c - 1))) * sizeof(T);
    for (int g = 0; g < groups; ++g) {
      std::uint32_t word = 0;
MORPH_UNROLL
      for (int j = 0; j < P; ++j, p += a.src_pitch) {
        const T sample = sx >= 0 && y0 + g * P + j < a.height ? __ldg(reinterpret_cast<const T*>(p)) : neutral;
        word |= static_cast<std::uint32_t>(sample) << (kBits * j);
      }
      lines[g * line + s] = word;
    }
  }
  __syncthreads();

  // Block b, channel ch of group g for t = g * per_row + b * c + ch.
  const int blocks = (padded + k - 1) / k;
  const int per_row = blocks * c;
  FlatCursor at(threadIdx.x, per_row);
  for (int t = threadIdx.x; t < groups * per_row; t += blockDim.x, at.advance(blockDim.x, per_row)) {
    const int g = at.row, b = at.item >> log_c, ch = at.item & (c - 1);
    std::uint32_t* l = lines + g * line + ch;
    std::uint32_t* f = prefix + g * line + ch;
    const int p0 = b * k, p1 = min(p0 + k, padded);
    std::uint32_t acc = l[p0 * c];
    f[p0 * c] = acc;
    for (int p = p0 + 1; p < p1; ++p) {
      acc = pick_word<T, kMax>(acc, l[p * c]);
      f[p * c] = acc;
    }
    acc = l[(p1 - 1) * c];
    for (int p = p1 - 2; p >= p0; --p) {
      acc = pick_word<T, kMax>(acc, l[p * c]);
      l[p * c] = acc;
    }
  }
  __syncthreads();

  // A thread per output sample, down every group, as the loads.
  const int out = min(a.tile_pixels, a.width - x0) * c;
  const int span = (k - 1) * c;
  for (int s = threadIdx.x; s < out; s += blockDim.x) {
    std::uint8_t* p = a.dst + static_cast<std::size_t>(y0) * a.dst_pitch + static_cast<std::size_t>(x0 * c + s) * sizeof(T);
    for (int g = 0; g < groups; ++g) {
      const std::uint32_t word = pick_word<T, kMax>(lines[g * line + s], prefix[g * line + s + span]);
MORPH_UNROLL
      for (int j = 0; j < P; ++j, p += a.dst_pitch) {
        if (y0 + g * P + j < a.height) *reinterpret_cast<T*>(p) = static_cast<T>(word >> (kBits * j));
      }
    }
  }
}

struct ColumnPassArgs {
  const std::uint8_t* src;  // the row pass's plane: 4-byte words, rows readable to a word boundary
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int height, row_bytes;
  int radius;      // half-height of the bar
  int run_rows;    // output rows a thread computes from one middle (column_run_rows)
  int strip_rows;  // output rows per block row of the grid, a multiple of run_rows
  BorderMode border;
  bool merge;      // combine with what dst holds (a later bar of the element)
  bool dst_words;  // dst pointer and pitch 4-byte aligned
};

// Word xb of output row y, or its samples inside the row where a word would not fit.
template <typename T, bool kMax>
__device__ __forceinline__ void store_word(const ColumnPassArgs& a, int y, int xb, std::uint32_t v) {
  std::uint8_t* out = a.dst + static_cast<std::size_t>(y) * a.dst_pitch + xb;
  if (a.dst_words && xb + 4 <= a.row_bytes) {
    auto* w = reinterpret_cast<std::uint32_t*>(out);
    *w = a.merge ? pick_word<T, kMax>(*w, v) : v;
    return;
  }
  constexpr int kBytes = static_cast<int>(sizeof(T));
  for (int j = 0; j < 4 / kBytes && xb + j * kBytes < a.row_bytes; ++j) {
    T s = static_cast<T>(v >> (8 * kBytes * j));
    T* o = reinterpret_cast<T*>(out) + j;
    *o = a.merge ? pick<T, kMax>(*o, s) : s;
  }
}

// A thread: one word column of strip_rows output rows, in runs of m = run_rows rows. The windows of
// a run's rows y0 .. y0 + m - 1 (from t = y - radius, k rows each) all hold the k - m + 1 rows from
// t0 + m - 1 (t0 = y0 - radius): that middle first, then the rows after it, a prefix a window
// (kept in shared memory, m - 1 words a thread), then walking up the rows before it, a suffix a
// window. k + m - 1 loads and about k + 3m operations a run: m = k is van Herk/Gil-Werman; a
// quarter of k keeps the cost a pixel flat in k with four times the threads (column_run_rows).
template <typename T, bool kMax>
__device__ void column_pass(const ColumnPassArgs& a, std::uint32_t* shared) {
  const int xb = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (xb >= a.row_bytes) return;
  const int k = 2 * a.radius + 1, m = a.run_rows;
  const int y0 = blockIdx.y * a.strip_rows;
  const int y1 = min(y0 + a.strip_rows, a.height);
  const std::uint32_t neutral = kMax ? 0u : ~0u;
  // Read-only loads (__ldg): the compiler may issue them ahead of the stores to dst, which it may
  // not do for plain loads of a pointer that could alias dst.
  const auto load = [&](int v) {
    const int sy = resolve(v, a.height, a.border);
    return sy < 0 ? neutral
                  : __ldg(reinterpret_cast<const std::uint32_t*>(a.src + static_cast<std::size_t>(sy) * a.src_pitch + xb));
  };
  std::uint32_t* prefix = shared + threadIdx.x;
  for (int t0 = y0 - a.radius; t0 < y1 - a.radius; t0 += m) {
    std::uint32_t middle = load(t0 + m - 1);
MORPH_UNROLL_8
    for (int v = t0 + m; v < t0 + k; ++v) middle = pick_word<T, kMax>(middle, load(v));
    std::uint32_t acc = middle;
MORPH_UNROLL_8
    for (int j = 1; j < m; ++j) {  // window j reaches row t0 + j + k - 1
      acc = pick_word<T, kMax>(acc, load(t0 + j + k - 1));
      prefix[(j - 1) * blockDim.x] = acc;
    }
    acc = neutral;
MORPH_UNROLL_8
    for (int j = m - 1; j >= 0; --j) {
      if (j < m - 1) acc = pick_word<T, kMax>(acc, load(t0 + j));  // rows t0 + j .. t0 + m - 2
      const int y = t0 + j + a.radius;
      if (y >= y1) continue;
      store_word<T, kMax>(a, y, xb, pick_word<T, kMax>(acc, j == 0 ? middle : prefix[(j - 1) * blockDim.x]));
    }
  }
}

// --- launch shapes (morph_separable.cu launches these; the host emulation test runs them) -------

constexpr int kRowThreads = 256;
constexpr int kRowTilePixels = 256;
constexpr int kSeparableSharedBudget = 40 * 1024;  // below the 48 KB a launch gets without opting in

// A pass's grid (x, y), threads a block and dynamic shared memory.
struct PassShape {
  int blocks_x, blocks_y, threads;
  std::size_t shared_bytes;
};

// The row pass of `in` into `out` with a run of 2 * radius + 1: a group's line and its prefixes
// take a word per sample position; up to 16 rows a block within the shared-memory budget.
template <typename T>
inline RowPassArgs row_pass_args(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                                 PassShape* shape) {
  constexpr int kRowsPerWord = rows_per_word<T>();
  const int line_bytes = (kRowTilePixels + 2 * radius) * in.channels * 4;
  const int groups = std::clamp(kSeparableSharedBudget / (2 * line_bytes), 1, 16 / kRowsPerWord);
  const RowPassArgs a{static_cast<const std::uint8_t*>(in.data), in.pitch, static_cast<std::uint8_t*>(out.data),
                      out.pitch, in.width, in.height, in.channels, radius, kRowTilePixels, groups * kRowsPerWord,
                      border};
  *shape = PassShape{(in.width + kRowTilePixels - 1) / kRowTilePixels,
                     (in.height + a.rows_per_block - 1) / a.rows_per_block, kRowThreads,
                     static_cast<std::size_t>(2) * groups * line_bytes};
  return a;
}

// Whether the column pass can read `p` as it is: 4-byte words from a 4-byte aligned pointer and
// pitch, and rows that end on a word (the pass reads each row up to the next multiple of 4 bytes).
inline bool column_readable(const PlaneView& p) {
  return (reinterpret_cast<std::uintptr_t>(p.data) | p.pitch | p.row_bytes()) % 4 == 0;
}

// Threads of a column-pass block: column_run_rows() keeps their prefixes within the budget.
constexpr int kColumnThreads = 128;

// Output rows a column-pass thread takes from one middle for a bar of k rows: the whole window
// block (van Herk/Gil-Werman: the fewest loads and operations) while a block of kColumnThreads
// holds its prefixes, else a quarter of it. On the H200 (4K GRAY8) quarters made 1x15 and 31x31
// slower (18.5 -> 23.4 us, 45 -> 47.6: the loads, not the threads, bound them) and 255x255
// faster (205 -> 136 us: whole blocks left 32 threads a block, 17 k threads a frame).
constexpr int column_run_rows(int k) {
  return (k - 1) * kColumnThreads * 4 <= kSeparableSharedBudget ? k : (k + 3) / 4;
}
static_assert((column_run_rows(kMorphMaxRectSize) - 1) * kColumnThreads * 4 <= kSeparableSharedBudget,
              "the tallest bar's quarter runs keep a block's prefixes within the budget");

// The column pass of `in` (column_readable) into `out` with a bar of 2 * radius + 1 rows, merged
// with what `out` holds when `merge`: kColumnThreads word columns a block, one run of m rows a
// thread, unless the grid would pass its 65,535 rows.
inline ColumnPassArgs column_pass_args(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                                       bool merge, PassShape* shape) {
  const int m = column_run_rows(2 * radius + 1);
  const int threads = kColumnThreads;
  const bool dst_words = (reinterpret_cast<std::uintptr_t>(out.data) | out.pitch) % 4 == 0;
  const ColumnPassArgs a{static_cast<const std::uint8_t*>(in.data),
                         in.pitch,
                         static_cast<std::uint8_t*>(out.data),
                         out.pitch,
                         in.height,
                         static_cast<int>(in.row_bytes()),
                         radius,
                         m,
                         m * std::max(1, (in.height + 65535 * m - 1) / (65535 * m)),
                         border,
                         merge,
                         dst_words};
  const int words = static_cast<int>((in.row_bytes() + 3) / 4);
  *shape = PassShape{(words + threads - 1) / threads, (in.height + a.strip_rows - 1) / a.strip_rows, threads,
                     static_cast<std::size_t>(std::max(m - 1, 1)) * threads * 4};
  return a;
}

// The passes of one dilation / erosion of `in` over `bars` (morph_bars.h), in order: per bar the
// row pass into `rows`, the column pass from there into `out`, merged with what earlier bars left.
// A bar one row high (the first bar: nothing to merge with) takes the row pass straight into
// `out`; a bar one column wide has no row pass: the column pass reads `in` itself where it can,
// else a copy of it in `rows`. row_pass(dst, half_width), column_pass(src, half_height, merge) and
// copy_in_to_rows() run them: launched by morph_separable.cu, emulated by the host test.
template <class RowPass, class ColumnPass, class CopyIn>
Status for_each_bar_pass(const PlaneView& in, const MutablePlaneView& out, const MutablePlaneView& rows,
                         const std::vector<Bar>& bars, const RowPass& row_pass, const ColumnPass& column_pass,
                         const CopyIn& copy_in_to_rows) {
  for (std::size_t i = 0; i < bars.size(); ++i) {
    if (i == 0 && bars[i].half_height == 0) {
      DPX_RETURN_IF_ERROR(row_pass(out, bars[i].half_width));
      continue;
    }
    PlaneView columns_in = rows.as_const();
    if (bars[i].half_width != 0) {
      DPX_RETURN_IF_ERROR(row_pass(rows, bars[i].half_width));
    } else if (column_readable(in)) {
      columns_in = in;
    } else {
      DPX_RETURN_IF_ERROR(copy_in_to_rows());
    }
    DPX_RETURN_IF_ERROR(column_pass(columns_in, bars[i].half_height, i > 0));
  }
  return Status::ok();
}

}  // namespace morph
}  // namespace dpx
