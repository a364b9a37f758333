// Device side of the separable CUDA morphology (morph_separable.h). The row pass runs van
// Herk/Gil-Werman in shared memory: a window of k = 2r + 1 starting at position t is the suffix of
// t's block of k positions (blocks aligned to the tile) combined with the prefix of the next block
// up to t + k - 1, two operations a sample whatever k is. The column pass walks down chunk columns
// on 16-bit lanes in runs of up to 16 rows that share their windows' middle, from registers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dpx/plane.h"
#include "dpx/status.h"
#include "morph_bars.h"
#include "morph_lanes.cuh"
#include "morph_tile.cuh"  // resolve()

namespace dpx {
namespace morph {

template <typename T, bool kMax>
__device__ __forceinline__ T pick(T a, T b) {
  return kMax ? (a > b ? a : b) : (a < b ? a : b);
}

// Both passes compute on 16-bit lanes, two to a word, where sm_90 has packed (and three-operand)
// max/min instructions (u8 has none: __vmaxu4 is several instructions): u8 samples widened
// (U8WideLanes), u16 as they are.
template <typename T, bool kMax>
using SeparableLanes = std::conditional_t<sizeof(T) == 1, U8WideLanes<ops::Dpx, kMax>, U16x2Lanes<ops::Dpx, kMax>>;

template <bool kMax>
__device__ __forceinline__ std::uint32_t pick2(std::uint32_t a, std::uint32_t b) {
  return kMax ? __vmaxu2(a, b) : __vminu2(a, b);
}

// The lane word that never wins: 0 for a max, the type's largest sample in each lane for a min.
template <typename T, bool kMax>
constexpr std::uint32_t neutral_lanes() {
  return kMax ? 0u : sizeof(T) == 1 ? 0x00FF00FFu : 0xFFFFFFFFu;
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

// Samples of type T a 32-bit word holds: the row pass gathers the samples of that many consecutive
// rows at one position (four u8 rows, two u16 rows), a row group.
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
// built with the border rule) and its block prefixes; the suffixes replace the line in place. A
// position of a group is its rows' samples as 16-bit lane words (two u8, one u16: SeparableLanes),
// so that each max/min is one packed instruction (__vmaxu4 on four bytes is several on sm_90). A
// thread's position keeps its border resolution and addresses for all the block's rows.
template <typename T, bool kMax>
__device__ void row_pass(const RowPassArgs& a, std::uint32_t* shared) {
  using L = SeparableLanes<T, kMax>;
  constexpr int P = rows_per_word<T>();
  constexpr int W = L::kComputePerStorage;  // lane words a position
  constexpr int kBits = 8 * static_cast<int>(sizeof(T));
  using Position = std::conditional_t<W == 2, uint2, std::uint32_t>;
  const auto to_position = [](const std::uint32_t* w) {
    if constexpr (W == 2) {
      return make_uint2(w[0], w[1]);
    } else {
      return w[0];
    }
  };
  const auto from_position = [](Position v, std::uint32_t* w) {
    if constexpr (W == 2) {
      w[0] = v.x, w[1] = v.y;
    } else {
      w[0] = v;
    }
  };
  const auto pick_position = [](Position x, Position y) {
    if constexpr (W == 2) {
      return make_uint2(pick2<kMax>(x.x, y.x), pick2<kMax>(x.y, y.y));
    } else {
      return pick2<kMax>(x, y);
    }
  };
  const int c = a.channels, k = 2 * a.radius + 1;
  const int padded = a.tile_pixels + 2 * a.radius;
  const int line = padded * c;
  Position* lines = reinterpret_cast<Position*>(shared);
  Position* prefix = lines + (a.rows_per_block / P) * line;
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
      std::uint32_t w[W];
      L::widen(word, w);
      lines[g * line + s] = to_position(w);
    }
  }
  __syncthreads();

  // Block b, channel ch of group g for t = g * per_row + b * c + ch.
  const int blocks = (padded + k - 1) / k;
  const int per_row = blocks * c;
  FlatCursor at(threadIdx.x, per_row);
  for (int t = threadIdx.x; t < groups * per_row; t += blockDim.x, at.advance(blockDim.x, per_row)) {
    const int g = at.row, b = at.item >> log_c, ch = at.item & (c - 1);
    Position* l = lines + g * line + ch;
    Position* f = prefix + g * line + ch;
    const int p0 = b * k, p1 = min(p0 + k, padded);
    Position acc = l[p0 * c];
    f[p0 * c] = acc;
MORPH_UNROLL_8
    for (int p = p0 + 1; p < p1; ++p) {
      acc = pick_position(acc, l[p * c]);
      f[p * c] = acc;
    }
    acc = l[(p1 - 1) * c];
MORPH_UNROLL_8
    for (int p = p1 - 2; p >= p0; --p) {
      acc = pick_position(acc, l[p * c]);
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
      std::uint32_t w[W];
      from_position(pick_position(lines[g * line + s], prefix[g * line + s + span]), w);
      const std::uint32_t word = L::narrow(w);
MORPH_UNROLL
      for (int j = 0; j < P; ++j, p += a.dst_pitch) {
        if (y0 + g * P + j < a.height) *reinterpret_cast<T*>(p) = static_cast<T>(word >> (kBits * j));
      }
    }
  }
}

// A column-pass thread's chunk: eight bytes, two storage words, as lane words (four u8 lanes
// words, two u16).
constexpr int kColumnChunk = 8;
template <typename T>
struct ChunkLanes {
  static constexpr int kWords = kColumnChunk / 4 * SeparableLanes<T, true>::kComputePerStorage;
  std::uint32_t w[kWords];
};

struct ColumnPassArgs {
  const std::uint8_t* src;  // the row pass's plane: rows readable to a word boundary
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int height, row_bytes;
  int readable_bytes;  // row_bytes rounded up to a word
  int radius;          // half-height of the bar
  int run_rows;        // output rows a thread computes from one middle (column_run_rows)
  int strip_rows;      // output rows per block row of the grid, a multiple of run_rows * blockDim.y
  BorderMode border;
  bool merge;       // combine with what dst holds (a later bar of the element)
  bool src_chunks;  // src pointer and pitch 8-byte aligned: one load a chunk
  bool dst_chunks;  // the same for dst: one store a chunk
};

template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> pick2(const ChunkLanes<T>& a, const ChunkLanes<T>& b) {
  ChunkLanes<T> r;
MORPH_UNROLL
  for (int j = 0; j < ChunkLanes<T>::kWords; ++j) r.w[j] = pick2<kMax>(a.w[j], b.w[j]);
  return r;
}
template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> pick3(const ChunkLanes<T>& a, const ChunkLanes<T>& b, const ChunkLanes<T>& c) {
  ChunkLanes<T> r;
MORPH_UNROLL
  for (int j = 0; j < ChunkLanes<T>::kWords; ++j) r.w[j] = SeparableLanes<T, kMax>::reduce3(a.w[j], b.w[j], c.w[j]);
  return r;
}
template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> neutral_chunk() {
  ChunkLanes<T> r;
MORPH_UNROLL
  for (int j = 0; j < ChunkLanes<T>::kWords; ++j) r.w[j] = neutral_lanes<T, kMax>();
  return r;
}

template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> widen_chunk(std::uint32_t s0, std::uint32_t s1) {
  using L = SeparableLanes<T, kMax>;
  ChunkLanes<T> r;
  L::widen(s0, r.w);
  L::widen(s1, r.w + L::kComputePerStorage);
  return r;
}

// The chunk at `p`, 8-byte aligned: one load. Read-only loads (__ldg) may be issued ahead of the
// stores to dst, which plain loads of a pointer that could alias dst may not.
template <typename T, bool kMax, bool kReadOnly>
__device__ __forceinline__ ChunkLanes<T> load_chunk(const std::uint8_t* p) {
  const auto* v = reinterpret_cast<const uint2*>(p);
  const uint2 s = kReadOnly ? __ldg(v) : *v;
  return widen_chunk<T, kMax>(s.x, s.y);
}

// The chunk at byte xb of `row` word by word, the neutral sample past the readable bytes.
template <typename T, bool kMax>
__device__ __forceinline__ ChunkLanes<T> load_chunk_words(const std::uint8_t* row, int xb, int readable) {
  const auto word = [&](int at) {
    return at < readable ? __ldg(reinterpret_cast<const std::uint32_t*>(row + at)) : (kMax ? 0u : ~0u);
  };
  return widen_chunk<T, kMax>(word(xb), word(xb + 4));
}

// Output row y's chunk at byte xb (merged with what it holds): one store where aligned and inside
// the row, else sample by sample, never past the row's end.
template <typename T, bool kMax>
__device__ __forceinline__ void store_chunk(const ColumnPassArgs& a, int y, int xb, ChunkLanes<T> v) {
  using L = SeparableLanes<T, kMax>;
  std::uint8_t* out = a.dst + static_cast<std::size_t>(y) * a.dst_pitch + xb;
  const bool whole = a.dst_chunks && xb + kColumnChunk <= a.row_bytes;
  if (whole && a.merge) v = pick2<T, kMax>(v, load_chunk<T, kMax, false>(out));
  const std::uint32_t s0 = L::narrow(v.w), s1 = L::narrow(v.w + L::kComputePerStorage);
  if (whole) {
    *reinterpret_cast<uint2*>(out) = make_uint2(s0, s1);
    return;
  }
  constexpr int kPerWord = 4 / static_cast<int>(sizeof(T));
  for (int j = 0; j < 2 * kPerWord && xb + j * static_cast<int>(sizeof(T)) < a.row_bytes; ++j) {
    const T x = static_cast<T>((j < kPerWord ? s0 : s1) >> (8 * sizeof(T) * (j % kPerWord)));
    T* o = reinterpret_cast<T*>(out) + j;
    *o = a.merge ? pick<T, kMax>(*o, x) : x;
  }
}

// One run: output rows t0 + radius .. t0 + radius + kRun - 1 (those below y1). Their windows (k rows
// from t0 + j) all hold the k - kRun + 1 rows from t0 + kRun - 1: that middle first (two rows an
// instruction), then the rows after it, a prefix a window (kept in registers), then walking up the
// rows before it, a suffix a window. k + kRun - 1 loads and about k / 2 + 3 kRun operations a run.
// row(v) loads row v.
template <typename T, bool kMax, int kRun, class Row>
__device__ __forceinline__ void column_run(const ColumnPassArgs& a, int t0, int y1, int xb, const Row& row) {
  const int k = 2 * a.radius + 1;
  ChunkLanes<T> middle = row(t0 + kRun - 1);
  int v = t0 + kRun;
#if defined(__CUDACC__)
#pragma unroll 4
#endif
  for (; v + 1 < t0 + k; v += 2) middle = pick3<T, kMax>(middle, row(v), row(v + 1));
  if (v < t0 + k) middle = pick2<T, kMax>(middle, row(v));
  ChunkLanes<T> window[kRun];  // window[j]: middle and the rows after it of output row j
  window[0] = middle;
MORPH_UNROLL
  for (int j = 1; j < kRun; ++j) window[j] = pick2<T, kMax>(window[j - 1], row(t0 + j + k - 1));
  ChunkLanes<T> before = neutral_chunk<T, kMax>();  // rows t0 + j .. t0 + kRun - 2
MORPH_UNROLL
  for (int j = kRun - 1; j >= 0; --j) {
    if (j < kRun - 1) {
      before = pick2<T, kMax>(before, row(t0 + j));
      window[j] = pick2<T, kMax>(window[j], before);
    }
    if (t0 + j + a.radius < y1) store_chunk<T, kMax>(a, t0 + j + a.radius, xb, window[j]);
  }
}

// A thread: one chunk column of its block's strip_rows output rows, every blockDim.y-th run of kRun
// rows (column_run_rows) from threadIdx.y on. Runs whose rows all lie in the plane walk one pointer
// down the pitch with one load a chunk (where the chunk is aligned and readable); the others
// resolve each row with the border rule.
template <typename T, bool kMax, int kRun>
__device__ void column_pass(const ColumnPassArgs& a) {
  const int xb = (blockIdx.x * blockDim.x + threadIdx.x) * kColumnChunk;
  if (xb >= a.row_bytes) return;
  const int k = 2 * a.radius + 1;
  const int y0 = blockIdx.y * a.strip_rows;
  const int y1 = min(y0 + a.strip_rows, a.height);
  const bool vector = a.src_chunks && xb + kColumnChunk <= a.readable_bytes;
  for (int t0 = y0 - a.radius + threadIdx.y * kRun; t0 < y1 - a.radius; t0 += blockDim.y * kRun) {
    if (vector && t0 >= 0 && t0 + k + kRun - 2 < a.height) {
      const std::uint8_t* top = a.src + static_cast<std::size_t>(t0) * a.src_pitch + xb;
      column_run<T, kMax, kRun>(a, t0, y1, xb, [&](int v) {
        return load_chunk<T, kMax, true>(top + static_cast<std::size_t>(v - t0) * a.src_pitch);
      });
    } else {
      column_run<T, kMax, kRun>(a, t0, y1, xb, [&](int v) {
        const int sy = resolve(v, a.height, a.border);
        if (sy < 0) return neutral_chunk<T, kMax>();
        const std::uint8_t* row = a.src + static_cast<std::size_t>(sy) * a.src_pitch;
        return vector ? load_chunk<T, kMax, true>(row + xb) : load_chunk_words<T, kMax>(row, xb, a.readable_bytes);
      });
    }
  }
}

// --- launch shapes (morph_separable.cu launches these; the host emulation test runs them) -------

constexpr int kRowThreads = 256;
constexpr int kRowTilePixels = 256;
constexpr int kSeparableSharedBudget = 40 * 1024;  // below the 48 KB a launch gets without opting in

// A pass's grid (x, y), threads a block (x, y) and dynamic shared memory.
struct PassShape {
  int blocks_x, blocks_y, threads_x, threads_y;
  std::size_t shared_bytes;
};

// The row pass of `in` into `out` with a run of 2 * radius + 1: a group's line and its prefixes
// take its lane words per sample position; up to 16 rows a block within the shared-memory budget.
template <typename T>
inline RowPassArgs row_pass_args(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                                 PassShape* shape) {
  constexpr int kRowsPerWord = rows_per_word<T>();
  constexpr int kPositionBytes = 4 * SeparableLanes<T, true>::kComputePerStorage;
  const int line_bytes = (kRowTilePixels + 2 * radius) * in.channels * kPositionBytes;
  const int groups = std::clamp(kSeparableSharedBudget / (2 * line_bytes), 1, 16 / kRowsPerWord);
  const RowPassArgs a{static_cast<const std::uint8_t*>(in.data), in.pitch, static_cast<std::uint8_t*>(out.data),
                      out.pitch, in.width, in.height, in.channels, radius, kRowTilePixels, groups * kRowsPerWord,
                      border};
  *shape = PassShape{(in.width + kRowTilePixels - 1) / kRowTilePixels,
                     (in.height + a.rows_per_block - 1) / a.rows_per_block, kRowThreads, 1,
                     static_cast<std::size_t>(2) * groups * line_bytes};
  return a;
}

// Whether the column pass can read `p` as it is: 4-byte words from a 4-byte aligned pointer and
// pitch, and rows that end on a word (the pass reads each row up to the next multiple of 4 bytes).
inline bool column_readable(const PlaneView& p) {
  return (reinterpret_cast<std::uintptr_t>(p.data) | p.pitch | p.row_bytes()) % 4 == 0;
}

// A column-pass block: kColumnWarpChunks chunk columns (a warp across) by kColumnRunsPerBlock
// consecutive runs (a warp each), so that the rows neighbouring runs share are read from L2 once
// and then from L1.
constexpr int kColumnWarpChunks = 32;
constexpr int kColumnRunsPerBlock = 4;
constexpr int kColumnMaxRun = 16;

// Output rows a column-pass thread takes from one middle for a bar of k rows: the largest power of
// two up to k and kColumnMaxRun (the run's windows are held in registers, so it is a compile-time
// constant: with_column_run).
constexpr int column_run_rows(int k) {
  int m = 1;
  while (2 * m <= k && 2 * m <= kColumnMaxRun) m *= 2;
  return m;
}

// f(std::integral_constant<int, run>{}) for a run that column_run_rows() gives.
template <class F>
decltype(auto) with_column_run(int run, const F& f) {
  switch (run) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    default: return f(std::integral_constant<int, kColumnMaxRun>{});
  }
}

// The column pass of `in` (column_readable) into `out` with a bar of 2 * radius + 1 rows, merged
// with what `out` holds when `merge`: one run a thread, unless the grid would pass its 65,535 rows.
inline ColumnPassArgs column_pass_args(const PlaneView& in, const MutablePlaneView& out, int radius,
                                       BorderMode border, bool merge, PassShape* shape) {
  const int m = column_run_rows(2 * radius + 1), block_rows = m * kColumnRunsPerBlock;
  const auto chunks = [](const void* p, std::size_t pitch) {
    return (reinterpret_cast<std::uintptr_t>(p) | pitch) % kColumnChunk == 0;
  };
  const int row_bytes = static_cast<int>(in.row_bytes());
  const ColumnPassArgs a{static_cast<const std::uint8_t*>(in.data),
                         in.pitch,
                         static_cast<std::uint8_t*>(out.data),
                         out.pitch,
                         in.height,
                         row_bytes,
                         (row_bytes + 3) / 4 * 4,
                         radius,
                         m,
                         block_rows * std::max(1, (in.height + 65535 * block_rows - 1) / (65535 * block_rows)),
                         border,
                         merge,
                         chunks(in.data, in.pitch),
                         chunks(out.data, out.pitch)};
  const int columns = (row_bytes + kColumnChunk - 1) / kColumnChunk;
  *shape = PassShape{(columns + kColumnWarpChunks - 1) / kColumnWarpChunks,
                     (in.height + a.strip_rows - 1) / a.strip_rows, kColumnWarpChunks, kColumnRunsPerBlock, 0};
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
