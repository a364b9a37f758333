// Device side of the CUDA morphology, per tile column: the shared-memory row layout, the border
// fill, the window and the stores. morph_band.cuh schedules them (which rows are loaded when).
//
// A block of 16 x 8 threads owns a column of 256 output bytes; each thread owns one 16-byte
// column chunk of kRowsPerThread consecutive output rows at a time. A row in shared memory holds
// the column's input plus one 16-byte chunk on each side, copied with 16-byte asynchronous copies
// wherever the chunk lies inside the row and the plane is 16-byte aligned. Chunks that reach past
// an edge (and every chunk of an unaligned plane) are built sample by sample with the border
// rule, so the window code never clamps anything.
//
// Each thread walks down its chunk: every row is read once from shared memory, reduced
// horizontally (neighbours are `channels` lanes away: funnel shifts across words), and output
// row k reduces rows k .. k + 2r vertically from registers — separable for every shape, since
// each mask row is one centred run (morph_geometry.h). Output chunks are stored with one 16-byte
// store where aligned and inside the row, else sample by sample, never past the row's end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "morph_geometry.h"

// `#pragma unroll` (and `unroll 8`) under nvcc; nothing under a host compiler (the host emulation
// tests).
#if defined(__CUDACC__)
#define MORPH_UNROLL _Pragma("unroll")
#define MORPH_UNROLL_8 _Pragma("unroll 8")
#else
#define MORPH_UNROLL
#define MORPH_UNROLL_8
#endif

namespace dpx {
namespace morph {

// The planes of one fused pass (one dilation or erosion over the whole plane), whatever the
// schedule that runs it.
struct PassArgs {
  const std::uint8_t* src;
  std::size_t src_pitch;
  std::uint8_t* dst;
  std::size_t dst_pitch;
  int width;      // pixels
  int height;     // rows
  int row_bytes;  // width * channels * sample bytes
  BorderMode border;
  bool src_vector;  // src pointer and pitch 16-byte aligned: 16-byte copies allowed
  bool dst_vector;  // the same for dst
};

// Whether a row start and pitch allow the kernels' 16-byte vector loads and stores.
inline bool vector_ok(const void* p, std::size_t pitch) {
  return (reinterpret_cast<std::uintptr_t>(p) % 16 == 0) && pitch % 16 == 0;
}

struct Tile {
  static constexpr int kChunk = 16;  // bytes per thread and row
  static constexpr int kThreadsX = 16;
  static constexpr int kThreadsY = 8;
  static constexpr int kThreads = kThreadsX * kThreadsY;
  static constexpr int kWidthBytes = kThreadsX * kChunk;    // 256 output bytes
  static constexpr int kChunks = kThreadsX + 2;             // a halo chunk each side
  static constexpr int kStride = kChunks * kChunk;          // bytes of one row in shared memory
};

// The register kernel's blocks (morph_rows.cuh): warps of 32 lanes, one 16-byte chunk a lane.
struct RowsLayout {
  static constexpr int kLanes = 32;
  static constexpr int kWarps = 4;  // warps of a block, stacked vertically
  static constexpr int kThreads = kLanes * kWarps;
  static constexpr int kWarpBytes = kLanes * Tile::kChunk;
};

// --- loading -------------------------------------------------------------------------------------

// Asynchronous copies of kBytes (4, 8 or 16, aligned to their size) to shared memory, in groups: a
// thread commits the copies it issued as one group and later waits until at most `pending` of its
// groups are still in flight. Synchronous copies below sm_80; the host emulation test
// (cuda_host_shim.h) lands them late.
template <int kBytes>
__device__ __forceinline__ void copy_async(std::uint8_t* shared_dst, const std::uint8_t* global_src) {
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16, "cp.async copies 4, 8 or 16 bytes");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  if constexpr (kBytes == 16) {  // past L1 (.cg), which only 16-byte copies may take
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(global_src));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(s), "l"(global_src), "n"(kBytes));
  }
#elif defined(DPX_MORPH_HOST_SHIM)
  emulated_copy_async(shared_dst, global_src, kBytes);
#else
  struct alignas(kBytes) Bytes {
    std::uint8_t b[kBytes];
  };
  *reinterpret_cast<Bytes*>(shared_dst) = *reinterpret_cast<const Bytes*>(global_src);
#endif
}

__device__ __forceinline__ void commit_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#elif defined(DPX_MORPH_HOST_SHIM)
  emulated_commit_async_copies();
#endif
}

// `pending` is a run-time value; the instruction takes an immediate, so small counts are spelled
// out and larger ones wait for more than needed (still correct).
__device__ __forceinline__ void wait_async_copies(int pending) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (pending <= 0) {
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  } else if (pending == 1) {
    asm volatile("cp.async.wait_group 1;\n" ::: "memory");
  } else if (pending == 2) {
    asm volatile("cp.async.wait_group 2;\n" ::: "memory");
  } else {
    asm volatile("cp.async.wait_group 3;\n" ::: "memory");
  }
#elif defined(DPX_MORPH_HOST_SHIM)
  emulated_wait_async_copies(pending);
#else
  (void)pending;
#endif
}

// Source row of virtual row v, or -1 where the border rule reads nothing (neutral).
__device__ __forceinline__ int resolve(int v, int n, BorderMode border) {
  if (border == BorderMode::kNeutral) return v >= 0 && v < n ? v : -1;
  return border_index(v, n, border);
}

// One 16-byte chunk of tile row `sy` starting at byte `gx` (a multiple of 16, maybe outside the
// row), sample by sample with the border rule. C is a power of two.
template <class Sample, int C>
__device__ void fill_chunk_by_border(const PassArgs& a, std::uint8_t* out, int sy, int gx, Sample neutral) {
  constexpr int kSamples = Tile::kChunk / static_cast<int>(sizeof(Sample));
  constexpr int kLogC = C == 1 ? 0 : C == 2 ? 1 : 2;
  const Sample* row = sy >= 0 ? reinterpret_cast<const Sample*>(a.src + static_cast<std::size_t>(sy) * a.src_pitch)
                              : nullptr;
  Sample* o = reinterpret_cast<Sample*>(out);
MORPH_UNROLL
  for (int j = 0; j < kSamples; ++j) {
    const int xs = gx / static_cast<int>(sizeof(Sample)) + j;  // sample index, may be negative
    const int px = resolve(xs >> kLogC, a.width, a.border);     // arithmetic shift: floor division
    o[j] = row != nullptr && px >= 0 ? row[(px << kLogC) + (xs & (C - 1))] : neutral;
  }
}

// --- the window ----------------------------------------------------------------------------------

// Words of one tile row around a thread's chunk, halo words on both sides, in compute lanes.
template <class L, int C, int R>
struct RowWords {
  static constexpr int kHaloBytes = R * C * static_cast<int>(sizeof(typename L::Sample));
  static constexpr int kHaloStorage = (kHaloBytes + 3) / 4;              // storage words per side
  static constexpr int kStorage = 4 + 2 * kHaloStorage;
  static constexpr int kHalo = kHaloStorage * L::kComputePerStorage;      // compute words per side
  static constexpr int kBody = 4 * L::kComputePerStorage;                 // compute words of the chunk
  std::uint32_t w[kStorage * L::kComputePerStorage];

  __device__ __forceinline__ void read(const std::uint8_t* chunk) {
    std::uint32_t s[kStorage];
    const uint4 mid = *reinterpret_cast<const uint4*>(chunk);
    s[kHaloStorage + 0] = mid.x;
    s[kHaloStorage + 1] = mid.y;
    s[kHaloStorage + 2] = mid.z;
    s[kHaloStorage + 3] = mid.w;
MORPH_UNROLL
    for (int k = 1; k <= kHaloStorage; ++k) {
      s[kHaloStorage - k] = reinterpret_cast<const std::uint32_t*>(chunk)[-k];
      s[kHaloStorage + 3 + k] = reinterpret_cast<const std::uint32_t*>(chunk)[3 + k];
    }
MORPH_UNROLL
    for (int j = 0; j < kStorage; ++j) L::widen(s[j], &w[j * L::kComputePerStorage]);
  }

  // Lanes of body word i moved by D samples (D > 0: the samples D positions to the right).
  template <int D>
  __device__ __forceinline__ std::uint32_t shifted(int i) const {
    if constexpr (L::kEvenOdd) {
      return i % 2 == 0 ? split_shifted<D, 0>(i / 2) : split_shifted<D, 1>(i / 2);
    } else {
      return ordered_shifted<D>(i);
    }
  }

  // Samples keeping their order across the compute words: D lanes on.
  template <int D>
  __device__ __forceinline__ std::uint32_t ordered_shifted(int i) const {
    constexpr int q = D >= 0 ? D / L::kLanes : -((-D + L::kLanes - 1) / L::kLanes);  // floor
    constexpr int m = D - q * L::kLanes;
    static_assert(q >= -kHalo && q + (m ? 1 : 0) <= kHalo, "halo too small for the window");
    if constexpr (m == 0) {
      return w[kHalo + i + q];
    } else {
      return __funnelshift_r(w[kHalo + i + q], w[kHalo + i + q + 1], m * L::kLaneBits);
    }
  }

  // Split words: compute word 2t + S holds samples 4t + S and 4t + S + 2 of storage word t (S = 0
  // the even samples, 1 the odd ones). Those D positions on lie in the words of parity S + D, m
  // lanes on; an odd m straddles two of them.
  template <int D, int S>
  __device__ __forceinline__ std::uint32_t split_shifted(int t) const {
    constexpr int to = (S + D) & 1;
    constexpr int m = (S + D - to) / 2;
    constexpr int q = m >= 0 ? m / 2 : -((1 - m) / 2);  // floor(m / 2)
    constexpr int odd = m - 2 * q;
    static_assert(q >= -kHaloStorage && q + odd <= kHaloStorage, "halo too small for the window");
    const int k = kHalo + 2 * (t + q) + to;
    if constexpr (odd == 0) {
      return w[k];
    } else {
      return __funnelshift_r(w[k], w[k + 2], L::kLaneBits);
    }
  }

  __device__ __forceinline__ std::uint32_t body(int i) const { return w[kHalo + i]; }

  // Max/min over the full run of 2R + 1 pixels centred on each lane.
  __device__ __forceinline__ std::uint32_t horizontal(int i) const {
    if constexpr (R == 1) {
      return L::reduce3(shifted<-C>(i), body(i), shifted<C>(i));
    } else {
      return L::reduce3(L::reduce3(shifted<-2 * C>(i), shifted<-C>(i), body(i)), shifted<C>(i),
                        shifted<2 * C>(i));
    }
  }
};

template <class L>
__device__ void store_chunk(const PassArgs& a, int y, int xb, const std::uint32_t (&s)[4]) {
  if (xb >= a.row_bytes) return;  // a lane past the row's end (the last warp of a row)
  std::uint8_t* out = a.dst + static_cast<std::size_t>(y) * a.dst_pitch + xb;
  if (a.dst_vector && xb + Tile::kChunk <= a.row_bytes) {
    *reinterpret_cast<uint4*>(out) = make_uint4(s[0], s[1], s[2], s[3]);
    return;
  }
  // Row end or unaligned plane: sample by sample, nothing past the row (the pitch padding and
  // whatever follows belong to the caller).
  using Sample = typename L::Sample;
  constexpr int kBytes = static_cast<int>(sizeof(Sample));
MORPH_UNROLL
  for (int j = 0; j < Tile::kChunk / kBytes; ++j) {
    if (xb + j * kBytes < a.row_bytes) {
      const std::uint32_t word = s[j * kBytes / 4];
      const int shift = (j * kBytes % 4) * 8;
      reinterpret_cast<Sample*>(out)[j] = static_cast<Sample>(word >> shift);
    }
  }
}

// What one tile row offers the vertical pass: its horizontal runs and (for shapes whose outer
// mask rows are the centre column alone) its centre samples.
template <int kBody>
struct RowValues {
  std::uint32_t run[kBody];
  std::uint32_t centre[kBody];
};

// Output word i of the row whose window's first row sits in ring[k % (2R + 1)]: the vertical
// max/min over the window's rows, each its run or, for the mask rows that are the centre alone,
// its centre sample.
template <class L, int Size, MorphShape Shape, int kBody>
__device__ __forceinline__ std::uint32_t vertical(const RowValues<kBody> (&ring)[2 * (Size / 2) + 1], int k, int i) {
  constexpr int R = Size / 2;
  constexpr int kWindow = 2 * R + 1;
  std::uint32_t t[kWindow];
MORPH_UNROLL
  for (int dy = -R; dy <= R; ++dy) {
    const RowValues<kBody>& r = ring[(k + R + dy) % kWindow];
    t[dy + R] = row_half_width(Shape, Size, dy) == 0 ? r.centre[i] : r.run[i];
  }
  if constexpr (R == 1) {
    return L::reduce3(t[0], t[1], t[2]);
  } else {
    return L::reduce3(L::reduce3(t[0], t[1], t[2]), t[3], t[4]);
  }
}

// Shared-memory rows as one thread sees them: window row j is ring slot first + j (wrapping),
// offset to the thread's chunk. first < slots and j < slots, so one subtraction wraps.
struct RingWindow {
  const std::uint8_t* chunk;  // the thread's chunk in ring slot 0
  int first;
  int slots;
  __device__ __forceinline__ const std::uint8_t* row(int j) const {
    const int s = first + j;
    return chunk + (s >= slots ? s - slots : s) * Tile::kStride;
  }
};

// This thread's 16-byte chunk at byte xb of output rows ybase .. ybase + kRows - 1, from window
// rows 0 .. kRows + 2R - 1 (window row 0 is input row ybase - R).
template <class L, int C, int Size, MorphShape Shape, int kRows>
__device__ void filter_chunk(const PassArgs& a, const RingWindow& rows, int xb, int ybase) {
  constexpr int R = Size / 2;
  constexpr int kWindow = 2 * R + 1;
  using Words = RowWords<L, C, R>;
  constexpr int kBody = Words::kBody;

  // Ring of the last 2R + 1 rows (indices are compile-time after unrolling: registers).
  RowValues<kBody> ring[kWindow];
MORPH_UNROLL
  for (int j = 0; j < kRows + 2 * R; ++j) {
    Words row;
    row.read(rows.row(j));
    RowValues<kBody>& v = ring[j % kWindow];
MORPH_UNROLL
    for (int i = 0; i < kBody; ++i) {
      v.run[i] = row.horizontal(i);
      if constexpr (Shape != MorphShape::kRect) v.centre[i] = row.body(i);
    }
    if (j < 2 * R) continue;
    const int k = j - 2 * R;  // output row k takes tile rows k .. k + 2R
    if (ybase + k >= a.height) continue;
    std::uint32_t out[kBody];
MORPH_UNROLL
    for (int i = 0; i < kBody; ++i) out[i] = vertical<L, Size, Shape>(ring, k, i);
    std::uint32_t s[4];
MORPH_UNROLL
    for (int m = 0; m < 4; ++m) s[m] = L::narrow(&out[m * L::kComputePerStorage]);
    store_chunk<L>(a, ybase + k, xb, s);
  }
}

}  // namespace morph
}  // namespace dpx
