// Device side of the separable CUDA morphology (morph_separable.h): van Herk/Gil-Werman running
// max/min, two operations per sample whatever the window's length. A window of k = 2r + 1 starting
// at position t is the suffix of t's block of k positions (blocks aligned to the tile) combined
// with the prefix of the next block up to t + k - 1.
#pragma once

#include <cstddef>
#include <cstdint>

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

struct RowPassArgs {
  const std::uint8_t* src;
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int width, height, channels;
  int radius;          // half-width of the run
  int tile_pixels;     // output pixels per block and row
  int rows_per_block;
  BorderMode border;
};

// A block: tile_pixels output pixels of rows_per_block rows. Shared memory holds each row's
// padded line (the tile plus `radius` pixels each side, built with the border rule) and its block
// prefixes; the suffixes replace the line in place.
template <typename T, bool kMax>
__device__ void row_pass(const RowPassArgs& a, T* shared) {
  const int c = a.channels, k = 2 * a.radius + 1;
  const int padded = a.tile_pixels + 2 * a.radius;
  const int line = padded * c;
  T* lines = shared;
  T* prefix = shared + a.rows_per_block * line;
  const int x0 = blockIdx.x * a.tile_pixels;
  const int y0 = blockIdx.y * a.rows_per_block;
  const int rows = min(a.rows_per_block, a.height - y0);
  const T neutral = kMax ? T{0} : static_cast<T>(~T{0});

  // Sample s of tile row r for i = r * line + s, carried along the loop (FlatCursor); channels are a
  // power of two. Read-only loads (__ldg) may be issued ahead of the shared stores.
  const int log_c = c == 1 ? 0 : c == 2 ? 1 : 2;
  FlatCursor at(threadIdx.x, line);
#pragma unroll 4
  for (int i = threadIdx.x; i < rows * line; i += blockDim.x, at.advance(blockDim.x, line)) {
    const int x = x0 - a.radius + (at.item >> log_c);
    const int sx = x >= 0 && x < a.width ? x : resolve(x, a.width, a.border);
    const T* row = reinterpret_cast<const T*>(a.src + static_cast<std::size_t>(y0 + at.row) * a.src_pitch);
    lines[i] = sx >= 0 ? __ldg(row + (sx << log_c) + (at.item & (c - 1))) : neutral;
  }
  __syncthreads();

  // Block b, channel ch of tile row r for t = r * per_row + b * c + ch.
  const int blocks = (padded + k - 1) / k;
  const int per_row = blocks * c;
  at = FlatCursor(threadIdx.x, per_row);
  for (int t = threadIdx.x; t < rows * per_row; t += blockDim.x, at.advance(blockDim.x, per_row)) {
    const int r = at.row, b = at.item >> log_c, ch = at.item & (c - 1);
    T* l = lines + r * line + ch;
    T* g = prefix + r * line + ch;
    const int p0 = b * k, p1 = min(p0 + k, padded);
    T acc = l[p0 * c];
    g[p0 * c] = acc;
    for (int p = p0 + 1; p < p1; ++p) {
      acc = pick<T, kMax>(acc, l[p * c]);
      g[p * c] = acc;
    }
    acc = l[(p1 - 1) * c];
    for (int p = p1 - 2; p >= p0; --p) {
      acc = pick<T, kMax>(acc, l[p * c]);
      l[p * c] = acc;
    }
  }
  __syncthreads();

  const int out = min(a.tile_pixels, a.width - x0) * c;
  const int span = (k - 1) * c;
  at = FlatCursor(threadIdx.x, out);
  for (int i = threadIdx.x; i < rows * out; i += blockDim.x, at.advance(blockDim.x, out)) {
    const int r = at.row, s = at.item;
    T* row = reinterpret_cast<T*>(a.dst + static_cast<std::size_t>(y0 + r) * a.dst_pitch);
    row[x0 * c + s] = pick<T, kMax>(lines[r * line + s], prefix[r * line + s + span]);
  }
}

struct ColumnPassArgs {
  const std::uint8_t* src;  // the row pass's plane: 4-byte words, rows readable to a word boundary
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int height, row_bytes;
  int radius;      // half-height of the bar
  int strip_rows;  // output rows per block, a multiple of 2 * radius + 1
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

// A thread: one word column of strip_rows output rows, window blocks of k rows in turn; the
// prefixes of the next block wait in shared memory (k - 1 words per thread).
template <typename T, bool kMax>
__device__ void column_pass(const ColumnPassArgs& a, std::uint32_t* shared) {
  const int xb = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (xb >= a.row_bytes) return;
  const int k = 2 * a.radius + 1;
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
  for (int b = y0 - a.radius; b < y1 - a.radius; b += k) {
    std::uint32_t acc = 0;
#pragma unroll 8
    for (int j = 0; j < k - 1; ++j) {
      const std::uint32_t v = load(b + k + j);
      acc = j == 0 ? v : pick_word<T, kMax>(acc, v);
      prefix[j * blockDim.x] = acc;
    }
    acc = load(b + k - 1);
#pragma unroll 8
    for (int t = b + k - 1; t >= b; --t) {
      if (t < b + k - 1) acc = pick_word<T, kMax>(acc, load(t));
      const int y = t + a.radius;
      if (y >= y1) continue;
      store_word<T, kMax>(a, y, xb, t == b ? acc : pick_word<T, kMax>(acc, prefix[(t - b - 1) * blockDim.x]));
    }
  }
}

}  // namespace morph
}  // namespace dpx
