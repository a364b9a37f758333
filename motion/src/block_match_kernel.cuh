// Device side of the CUDA block matcher: what one CTA does for a strip of `blocks_per_cta` blocks
// of one block row.
//
//   1. The reference window the strip can reach is loaded into shared memory as *sliding words*:
//      word p of a window row holds the samples at positions p, p+1, ... (four u8 or one u16), so a
//      candidate at any horizontal offset reads whole aligned words, and a warp's lanes (consecutive
//      dx) read consecutive words. The current blocks are loaded beside it.
//   2. Work is cut into units: one dx and a *run* of kRun consecutive dy on one side of dy = 0
//      (plus a one-candidate unit for dy = 0 itself). A thread computes a run's kRun SADs together,
//      walking down the block rows with the last kRun reference rows in registers, so every loaded
//      reference word feeds kRun candidates and every current word comes from a shared-memory
//      broadcast. The SAD step is the byte-SIMD vabsdiff4 (4 pixels per instruction) for u8.
//   3. Inside a run the candidates share dx and have dy of one sign, so visiting them from the
//      smallest |dy| outwards *is* the tie order: the running best keeps the earlier candidate on
//      equal SADs, i.e. best = bmin(best, sad) with the predicate choosing the index — one DPX
//      __vibmin_u32 per candidate (plain compare-and-select with the PlainOps policy; CUDA 13
//      lowers both to the same instructions, see docs/notes/motion.md).
//   4. The run's winner enters the block's best with a 64-bit shared-memory atomicMin on
//      match_key (SAD, then the tie key), which is the complete order; the minimum decodes to the
//      vector.
//   With lambda > 0 (kPenalty) every SAD gets the penalty of motion_cost.h before step 3, so the
//   same order ranks costs, and the stored `sad` is the winner's cost (the refinement that
//   follows replaces it with the SAD).
#pragma once

#include <cstdint>

#include "block_match_plan.h"
#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "match_key.h"

namespace dpx {
namespace motion_detail {

// The SAD step on one word: four u8 samples with the byte-SIMD instruction, one u16 sample per word.
template <typename Ops, typename T>
__device__ __forceinline__ std::uint32_t sad_word(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
  if constexpr (sizeof(T) == 1)
    return Ops::sad_u8x4(a, b, acc);
  else
    return Ops::sad_u32(a, b, acc);
}

// This CTA's blocks and its shared arrays.
struct Tile {
  int first_column;
  int x0, y0;          // of the first block
  int bh;              // rows of the blocks inside the frame
  int blocks;          // blocks of this CTA inside the grid (<= blocks_per_cta)
  bool partial;        // some block is cut by the right or bottom edge
  std::uint32_t* window;             // window_rows x window_stride sliding words
  std::uint32_t* current;            // blocks_per_cta x B x kWords words
  unsigned long long* best;          // blocks_per_cta match keys
};

__device__ __forceinline__ int imin(int a, int b) { return a < b ? a : b; }

template <typename T, int B>
__device__ Tile make_tile(const SearchGeometry& g, std::uint32_t* smem) {
  Tile t;
  t.first_column = blockIdx.x * g.blocks_per_cta;
  t.x0 = t.first_column * B;
  t.y0 = blockIdx.y * B;
  t.bh = imin(B, g.height - t.y0);
  t.blocks = imin(g.blocks_per_cta, g.columns - t.first_column);
  const int last_x0 = t.x0 + (t.blocks - 1) * B;
  t.partial = t.bh < B || g.width - last_x0 < B;
  t.window = smem;
  t.current = t.window + g.window_rows * g.window_stride;
  t.best = reinterpret_cast<unsigned long long*>(t.current + g.blocks_per_cta * B * Shape<T, B>::kWords);
  return t;
}

// The word of kPixels samples starting at column x of a row, zero for samples outside [0, width).
template <typename T>
__device__ __forceinline__ std::uint32_t fetch_word(const unsigned char* row, int x, int width) {
  if constexpr (sizeof(T) == 1) {
    std::uint32_t w = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (x + j >= 0 && x + j < width) w |= static_cast<std::uint32_t>(row[x + j]) << (8 * j);
    return w;
  } else {
    return x >= 0 && x < width ? reinterpret_cast<const std::uint16_t*>(row)[x] : 0u;
  }
}

// u8 sliding words p .. p+3 of a window row from the 8 bytes at x .. x+7 (a0 = bytes x..x+3).
__device__ __forceinline__ uint4 sliding_quad(std::uint32_t a0, std::uint32_t a1) {
  return make_uint4(a0, __byte_perm(a0, a1, 0x4321), __byte_perm(a0, a1, 0x5432), __byte_perm(a0, a1, 0x6543));
}

// Bytes x .. x+7 of a row as two words. Well inside the row, three aligned loads and two funnel
// shifts; near its ends, byte by byte with zeros outside.
__device__ __forceinline__ void fetch_8_bytes(const unsigned char* row, int x, int width,
                                              std::uint32_t* a0, std::uint32_t* a1) {
  if (x >= 3 && x + 12 <= width) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(row + x);
    const auto* w = reinterpret_cast<const std::uint32_t*>(at & ~std::uintptr_t(3));
    const unsigned shift = 8u * static_cast<unsigned>(at & 3u);
    const std::uint32_t w0 = __ldg(w), w1 = __ldg(w + 1), w2 = __ldg(w + 2);
    *a0 = __funnelshift_r(w0, w1, shift);
    *a1 = __funnelshift_r(w1, w2, shift);
  } else {
    *a0 = fetch_word<std::uint8_t>(row, x, width);
    *a1 = fetch_word<std::uint8_t>(row, x + 4, width);
  }
}

// Window row wy holds frame row y0 - reach + wy; window word p starts at frame column x0 - R + p.
template <typename T, int B>
__device__ void load_window(const SearchGeometry& g, const Tile& t) {
  const int left = t.x0 - g.range, top = t.y0 - g.reach;
  const int quads = g.window_stride / 4;
  for (int idx = threadIdx.x; idx < g.window_rows * quads; idx += blockDim.x) {
    const int wy = idx / quads, q = idx - wy * quads;
    const int y = top + wy, x = left + 4 * q;
    uint4 out = make_uint4(0, 0, 0, 0);
    if (y >= 0 && y < g.height) {
      const unsigned char* row = g.ref + static_cast<std::size_t>(y) * g.ref_pitch;
      if constexpr (sizeof(T) == 1) {
        std::uint32_t a0, a1;
        fetch_8_bytes(row, x, g.width, &a0, &a1);
        out = sliding_quad(a0, a1);
      } else {
        out = make_uint4(fetch_word<T>(row, x, g.width), fetch_word<T>(row, x + 1, g.width),
                         fetch_word<T>(row, x + 2, g.width), fetch_word<T>(row, x + 3, g.width));
      }
    }
    *reinterpret_cast<uint4*>(t.window + wy * g.window_stride + 4 * q) = out;
  }
}

// The current blocks as aligned words (row-major per block), zero outside the frame.
template <typename T, int B>
__device__ void load_current(const SearchGeometry& g, const Tile& t) {
  constexpr int kW = Shape<T, B>::kWords, kP = Shape<T, B>::kPixels;
  const int count = t.blocks * B * kW;
  for (int idx = threadIdx.x; idx < count; idx += blockDim.x) {
    const int m = idx / (B * kW), rem = idx - m * (B * kW), i = rem / kW, w = rem - i * kW;
    const int y = t.y0 + i;
    std::uint32_t word = 0;
    if (y < g.height)
      word = fetch_word<T>(g.cur + static_cast<std::size_t>(y) * g.cur_pitch, t.x0 + m * B + kP * w, g.width);
    t.current[idx] = word;
  }
}

// n consecutive words into registers, as 16- or 8-byte shared loads when n allows.
template <int N>
__device__ __forceinline__ void load_words(const std::uint32_t* p, std::uint32_t (&out)[N]) {
  if constexpr (N % 4 == 0) {
#pragma unroll
    for (int v = 0; v < N / 4; ++v) {
      const uint4 q = reinterpret_cast<const uint4*>(p)[v];
      out[4 * v] = q.x, out[4 * v + 1] = q.y, out[4 * v + 2] = q.z, out[4 * v + 3] = q.w;
    }
  } else if constexpr (N == 2) {
    const uint2 q = *reinterpret_cast<const uint2*>(p);
    out[0] = q.x, out[1] = q.y;
  } else {
#pragma unroll
    for (int w = 0; w < N; ++w) out[w] = p[w];
  }
}

// One block row of a candidate from the window: word w of the block row is the sliding word
// kPixels * w further right. In a partial tile the samples right of the block are masked off
// (the current block holds zeros there).
template <typename T, int B, bool kPartial>
__device__ __forceinline__ void load_reference_row(const std::uint32_t* p,
                                                   const std::uint32_t (&mask)[Shape<T, B>::kWords],
                                                   std::uint32_t (&out)[Shape<T, B>::kWords]) {
#pragma unroll
  for (int w = 0; w < Shape<T, B>::kWords; ++w) {
    out[w] = p[Shape<T, B>::kPixels * w];
    if constexpr (kPartial) out[w] &= mask[w];
  }
}

// The K SADs of candidates dy0 .. dy0 + K - 1 at one dx. `top` is the window word of the first
// candidate's first row; `rows` the block rows inside the frame (used when kPartial).
template <typename Ops, typename T, int B, int K, bool kPartial>
__device__ __forceinline__ void run_sads(const std::uint32_t* top, int stride, const std::uint32_t* current,
                                         int rows, const std::uint32_t (&mask)[Shape<T, B>::kWords],
                                         std::uint32_t (&sad)[K]) {
  constexpr int kW = Shape<T, B>::kWords;
  std::uint32_t ref[K][kW];  // reference rows i .. i + K - 1, slot (row % K)
#pragma unroll
  for (int k = 0; k < K - 1; ++k) load_reference_row<T, B, kPartial>(top + k * stride, mask, ref[k]);
#pragma unroll
  for (int k = 0; k < K; ++k) sad[k] = 0;
#pragma unroll
  for (int i = 0; i < B; ++i) {
    if (kPartial && i >= rows) break;
    load_reference_row<T, B, kPartial>(top + (i + K - 1) * stride, mask, ref[(i + K - 1) % K]);
    std::uint32_t cur[kW];
    load_words(current + i * kW, cur);
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
      for (int w = 0; w < kW; ++w) sad[k] = sad_word<Ops, T>(cur[w], ref[(i + k) % K][w], sad[k]);
  }
}

// The run's winner in tie order: from the smallest |dy| outwards (upwards in dy for the side below
// the block, dy > 0; downwards for dy < 0). Candidates outside [dy_lo, dy_hi] never win.
template <typename Ops>
struct RunBest {
  std::uint32_t sad = UINT32_MAX;
  int k = 0;

  __device__ __forceinline__ void visit(std::uint32_t s, bool valid, int k_here) {
    bool keep;  // the best so far is <= s: on a tie the earlier candidate in tie order stays
    sad = Ops::bmin_u32(sad, valid ? s : UINT32_MAX, &keep);
    k = keep ? k : k_here;
  }
};

template <typename Ops, int K>
__device__ __forceinline__ RunBest<Ops> best_in_run(const std::uint32_t (&sad)[K], int dy0,
                                                    OffsetRange dy_ok, bool downwards) {
  RunBest<Ops> best;
  const unsigned span = static_cast<unsigned>(dy_ok.hi - dy_ok.lo);
  if (downwards) {
#pragma unroll
    for (int k = K - 1; k >= 0; --k) best.visit(sad[k], static_cast<unsigned>(dy0 + k - dy_ok.lo) <= span, k);
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) best.visit(sad[k], static_cast<unsigned>(dy0 + k - dy_ok.lo) <= span, k);
  }
  return best;
}

// Lanes of word w that lie inside a block `bw` samples wide.
template <int P>
__device__ __forceinline__ std::uint32_t lane_mask(int w, int bw) {
  const int inside = bw - P * w;
  if (inside >= P) return ~0u;
  if (inside <= 0) return 0u;
  return (1u << (inside * (32 / P))) - 1u;
}

// Every unit of the tile: group (runs above, runs below, then dy = 0) x block x dx.
template <typename Ops, typename T, int B, bool kPartial, bool kPenalty>
__device__ void search_tile(const SearchGeometry& g, const Tile& t) {
  using S = Shape<T, B>;
  constexpr int K = S::kRun;
  const int span = 2 * g.range + 1;
  const int per_group = g.blocks_per_cta * span;
  const int center_group = 2 * g.side_runs;
  const int units = (center_group + 1) * per_group;
  const OffsetRange dy_ok = offset_range(t.y0, t.bh, g.height, g.range);
  for (int u = threadIdx.x; u < units; u += blockDim.x) {
    const int group = u / per_group, rem = u - group * per_group;
    const int m = rem / span, dxi = rem - m * span, dx = dxi - g.range;
    if (m >= t.blocks) continue;
    const int x0 = t.x0 + m * B, bw = imin(B, g.width - x0);
    const OffsetRange dx_ok = offset_range(x0, bw, g.width, g.range);
    if (dx < dx_ok.lo || dx > dx_ok.hi) continue;

    std::uint32_t mask[S::kWords];
#pragma unroll
    for (int w = 0; w < S::kWords; ++w) mask[w] = kPartial ? lane_mask<S::kPixels>(w, bw) : ~0u;
    const std::uint32_t* column = t.window + m * B + dxi;
    const std::uint32_t* current = t.current + m * B * S::kWords;
    const int stride = g.window_stride;
    Penalty pen;
    if constexpr (kPenalty) pen = g.cost.at(t.first_column + m, static_cast<int>(blockIdx.y), g.columns);

    std::uint64_t key;
    if (group == center_group) {
      std::uint32_t sad[1];
      run_sads<Ops, T, B, 1, kPartial>(column + g.reach * stride, stride, current, t.bh, mask, sad);
      if constexpr (kPenalty) sad[0] += pen.pixels(dx, 0);
      key = match_key(sad[0], dx, 0, g.range);
    } else {
      const bool downwards = (group & 1) == 0;  // even groups: dy < 0
      const int run = group >> 1;
      const int dy0 = downwards ? -(run + 1) * K : 1 + run * K;
      std::uint32_t sad[K];
      run_sads<Ops, T, B, K, kPartial>(column + (dy0 + g.reach) * stride, stride, current, t.bh, mask, sad);
      if constexpr (kPenalty) {
#pragma unroll
        for (int k = 0; k < K; ++k) sad[k] += pen.pixels(dx, dy0 + k);
      }
      const RunBest<Ops> best = best_in_run<Ops, K>(sad, dy0, dy_ok, downwards);
      if (best.sad == UINT32_MAX) continue;  // every dy of this run leaves the frame
      key = match_key(best.sad, dx, dy0 + best.k, g.range);
    }
    atomicMin(&t.best[m], static_cast<unsigned long long>(key));
  }
}

template <typename T, int B>
__device__ void store_vectors(const SearchGeometry& g, const Tile& t) {
  for (int m = threadIdx.x; m < t.blocks; m += blockDim.x)
    g.out[static_cast<std::size_t>(blockIdx.y) * g.columns + t.first_column + m] =
        decode_match_key(t.best[m], g.range);
}

// The kernel's steps, split where the CTA synchronises.
template <typename Ops, typename T, int B>
struct TileSteps {
  static __device__ void load(const SearchGeometry& g, const Tile& t) {
    load_window<T, B>(g, t);
    load_current<T, B>(g, t);
    for (int m = threadIdx.x; m < g.blocks_per_cta; m += blockDim.x) t.best[m] = ~0ull;
  }
  static __device__ void search(const SearchGeometry& g, const Tile& t) {
    if (g.cost.lambda > 0) {
      if (t.partial)
        search_tile<Ops, T, B, true, true>(g, t);
      else
        search_tile<Ops, T, B, false, true>(g, t);
    } else if (t.partial) {
      search_tile<Ops, T, B, true, false>(g, t);
    } else {
      search_tile<Ops, T, B, false, false>(g, t);
    }
  }
  static __device__ void store(const SearchGeometry& g, const Tile& t) { store_vectors<T, B>(g, t); }
};

template <typename Ops, typename T, int B>
__global__ void __launch_bounds__(kMaxThreads) block_match_kernel(SearchGeometry g) {
  extern __shared__ __align__(16) std::uint32_t smem[];
  const Tile t = make_tile<T, B>(g, smem);
  TileSteps<Ops, T, B>::load(g, t);
  __syncthreads();
  TileSteps<Ops, T, B>::search(g, t);
  __syncthreads();
  TileSteps<Ops, T, B>::store(g, t);
}

}  // namespace motion_detail
}  // namespace dpx
