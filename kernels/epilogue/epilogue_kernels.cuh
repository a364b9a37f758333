// The epilogue kernels and the host-side plan of a launch (how [0, n) is cut, which inputs take
// 16-byte loads, how far the channel walkers skip). Each thread walks 16-byte output vectors in a
// grid-stride loop; the elements before the first aligned output vector and after the last one
// are done singly by block 0. Inputs are read with 16-byte loads when they too are aligned at the
// body's start, element by element otherwise.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "epilogue_functor.cuh"

namespace dpx {
namespace epilogue {

constexpr int kThreads = 256;
constexpr int kVectorBytes = 16;

// [0, n) as head | chunks whole output vectors | tail, such that the first vector's output address
// is 16-byte aligned; head and tail hold fewer elements than a vector.
struct Split {
  std::uint64_t head = 0, chunks = 0, tail = 0;
};

inline Split split_output(const void* out, std::size_t element_bytes, std::size_t n) {
  const std::size_t per_vector = kVectorBytes / element_bytes;
  const auto addr = reinterpret_cast<std::uintptr_t>(out);
  Split s;
  s.head = std::min<std::uint64_t>(((kVectorBytes - addr % kVectorBytes) % kVectorBytes) / element_bytes, n);
  s.chunks = (n - s.head) / per_vector;
  s.tail = n - s.head - s.chunks * per_vector;
  return s;
}

// Whether element `head` of p starts on a 16-byte boundary (then the body loads whole vectors).
template <typename T>
bool vector_aligned(const T* p, std::uint64_t head) {
  return reinterpret_cast<std::uintptr_t>(p + head) % kVectorBytes == 0;
}

// Element index of edge slot t (0 .. head + tail - 1).
__device__ __forceinline__ std::uint64_t edge_index(const Split& s, std::uint64_t per_vector, std::uint64_t t) {
  return t < s.head ? t : s.head + s.chunks * per_vector + (t - s.head);
}

// ---- vector memory access ---------------------------------------------------------------------

// Ordinary loads, not __ldg: an output may be an input itself (in place), and the read-only path
// requires memory that no thread writes during the kernel.

// W words from 16-byte-aligned p, by 16-byte loads.
template <int W>
__device__ __forceinline__ void load_words(const void* p, std::uint32_t (&w)[W]) {
  static_assert(W % 4 == 0, "whole 16-byte vectors");
  DPX_UNROLL
  for (int q = 0; q < W / 4; ++q) {
    const uint4 x = static_cast<const uint4*>(p)[q];
    w[4 * q] = x.x;
    w[4 * q + 1] = x.y;
    w[4 * q + 2] = x.z;
    w[4 * q + 3] = x.w;
  }
}

template <int N>
__device__ __forceinline__ void load_int32(const std::int32_t* p, bool vec, std::int32_t (&v)[N]) {
  if (vec) {
    std::uint32_t w[N];
    load_words(p, w);
    DPX_UNROLL
    for (int i = 0; i < N; ++i) v[i] = static_cast<std::int32_t>(w[i]);
  } else {
    DPX_UNROLL
    for (int i = 0; i < N; ++i) v[i] = p[i];
  }
}

// 2 * W int16 values as W packed words.
template <int W>
__device__ __forceinline__ void load_pairs(const std::int16_t* p, bool vec, std::uint32_t (&w)[W]) {
  if (vec) {
    load_words(p, w);
  } else {
    DPX_UNROLL
    for (int j = 0; j < W; ++j) w[j] = ops::lanes::pack(p[2 * j], p[2 * j + 1]);
  }
}

// One 16-byte output vector from packed s16x2 words: int16 lanes as they are (4 words), int8 as
// the low bytes of 8 words.
template <typename Out, int W>
__device__ __forceinline__ void store_vector(Out* p, const std::uint32_t (&w)[W]) {
  if constexpr (sizeof(Out) == 2) {
    static_assert(W == 4, "8 int16 per vector");
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  } else {
    static_assert(W == 8, "16 int8 per vector");
    *reinterpret_cast<uint4*>(p) = make_uint4(pack_bytes(w[0], w[1]), pack_bytes(w[2], w[3]),
                                              pack_bytes(w[4], w[5]), pack_bytes(w[6], w[7]));
  }
}

// ---- requantize / requantize_residual ---------------------------------------------------------

struct RequantLaunch {
  const std::int32_t* acc;
  const std::int16_t* residual;  // the residual epilogue only
  void* out;
  Split split;
  bool acc_vec, residual_vec;
  std::uint32_t channel_step;  // channels a thread passes over between its vectors, mod C
  RequantArgs args;
};

template <typename Ops, typename K, typename Out, bool kResidual>
__device__ __forceinline__ void requantize_edges(const Requantizer<Ops>& rq, const RequantLaunch& L) {
  constexpr std::uint64_t kPerVector = kVectorBytes / sizeof(Out);
  if (blockIdx.x != 0 || threadIdx.x >= L.split.head + L.split.tail) return;
  const std::uint64_t i = edge_index(L.split, kPerVector, threadIdx.x);
  K k(L.args.channels, i);
  std::int32_t v;
  if constexpr (kResidual) {
    v = rq.single_plus(L.acc[i], L.residual[i], k);
  } else {
    v = rq.single(L.acc[i], k);
  }
  static_cast<Out*>(L.out)[i] = static_cast<Out>(v);
}

// The thread's first output vector; its grid-stride loop goes on from there.
__device__ __forceinline__ std::uint64_t first_vector() {
  return static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// The grid-stride loop over whole output vectors from vector v; `apply` turns a vector's
// accumulators (and residual pairs) into its packed output words and steps to the next vector.
template <typename Out, bool kResidual, typename Apply>
__device__ __forceinline__ void requantize_vectors(const RequantLaunch& L, std::uint64_t v, Apply& apply) {
  constexpr int kPerVector = kVectorBytes / sizeof(Out);
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (; v < L.split.chunks; v += stride) {
    const std::uint64_t e = L.split.head + v * kPerVector;
    std::int32_t acc[kPerVector];
    load_int32(L.acc + e, L.acc_vec, acc);
    std::uint32_t w[kPerVector / 2];
    if constexpr (kResidual) {
      std::uint32_t res[kPerVector / 2];
      load_pairs(L.residual + e, L.residual_vec, res);
      apply(acc, res, w);
    } else {
      apply(acc, w);
    }
    store_vector(static_cast<Out*>(L.out) + e, w);
  }
}

// Constants walked element by element (any table): after its vector a thread's walker skips to the
// element its next vector starts on.
template <typename Ops, typename K>
struct WalkedVectors {
  Requantizer<Ops> rq;
  K k;
  std::uint32_t step;

  template <int N>
  __device__ void operator()(const std::int32_t (&acc)[N], std::uint32_t (&w)[N / 2]) {
    rq.pairs(acc, k, w);
    k.skip(step);
  }
  template <int N>
  __device__ void operator()(const std::int32_t (&acc)[N], const std::uint32_t (&res)[N / 2],
                             std::uint32_t (&w)[N / 2]) {
    rq.pairs_plus(acc, res, k, w);
    k.skip(step);
  }
};

template <typename Ops, typename K, typename Out, bool kResidual>
__global__ void __launch_bounds__(kThreads) requantize_kernel(const RequantLaunch L) {
  const Requantizer<Ops> rq{L.args};
  requantize_edges<Ops, K, Out, kResidual>(rq, L);
  const std::uint64_t v = first_vector();
  if (v >= L.split.chunks) return;
  constexpr std::uint64_t kPerVector = kVectorBytes / sizeof(Out);
  WalkedVectors<Ops, K> apply{rq, K(L.args.channels, L.split.head + v * kPerVector), L.channel_step};
  requantize_vectors<Out, kResidual>(L, v, apply);
}

// ---- requantize with each thread's channels in registers ---------------------------------------
// int16 output, per-channel constants: the grid is sized so that a thread's stride is a whole
// number of channel periods (blocks * kThreads * 8 a multiple of C), so every vector a thread
// takes starts on the same channel. It prepares its 8 channels once and reads no table after.

struct ResidentVectors {
  static constexpr int kPerVector = kVectorBytes / sizeof(std::int16_t);
  PreparedRequantizer<ops::Dpx> rq;
  PreparedChannel ch[kPerVector];

  // The channels of the 8 elements from `first` on.
  __device__ ResidentVectors(const RequantLaunch& L, std::uint64_t first, bool residual)
      : rq(PreparedRequantizer<ops::Dpx>::make(L.args, residual)) {
    const ChannelTable& t = L.args.channels;
    std::uint32_t c = static_cast<std::uint32_t>(first % t.count);
    DPX_UNROLL
    for (int j = 0; j < kPerVector; ++j) {
      const RequantChannel e = t.entries[c];
      ch[j] = prepare_channel(e.bias, t.channel_shifts ? e.shift : t.tensor_shift);
      if (++c == t.count) c = 0;
    }
  }
  __device__ void operator()(const std::int32_t (&acc)[kPerVector],
                             std::uint32_t (&w)[kPerVector / 2]) const {
    rq.pairs(acc, ch, w);
  }
  __device__ void operator()(const std::int32_t (&acc)[kPerVector],
                             const std::uint32_t (&res)[kPerVector / 2],
                             std::uint32_t (&w)[kPerVector / 2]) const {
    rq.pairs_plus(acc, res, ch, w);
  }
};

template <bool kResidual>
__global__ void __launch_bounds__(kThreads) requantize_resident_kernel(const RequantLaunch L) {
  requantize_edges<ops::Dpx, ChannelConstants, std::int16_t, kResidual>(Requantizer<ops::Dpx>{L.args}, L);
  const std::uint64_t v = first_vector();
  if (v >= L.split.chunks) return;
  ResidentVectors apply(L, L.split.head + v * ResidentVectors::kPerVector, kResidual);
  requantize_vectors<std::int16_t, kResidual>(L, v, apply);
}

// ---- merge3 ----------------------------------------------------------------------------------

struct MergeLaunch {
  const std::int16_t* a;
  const std::int16_t* b;
  const std::int16_t* c;
  std::int16_t* out;
  Split split;
  bool a_vec, b_vec, c_vec;
  MergeArgs args;
};

template <typename Ops>
__device__ __forceinline__ void merge3_edges(const Merger<Ops>& merge, const MergeLaunch& L) {
  constexpr std::uint64_t kPerVector = kVectorBytes / sizeof(std::int16_t);
  if (blockIdx.x != 0 || threadIdx.x >= L.split.head + L.split.tail) return;
  const std::uint64_t i = edge_index(L.split, kPerVector, threadIdx.x);
  L.out[i] = static_cast<std::int16_t>(merge.single(L.a[i], L.b[i], L.c[i]));
}

template <typename Ops>
__device__ __forceinline__ void merge3_vectors(const Merger<Ops>& merge, const MergeLaunch& L) {
  constexpr int kWords = kVectorBytes / sizeof(std::uint32_t);
  constexpr int kPerVector = kVectorBytes / sizeof(std::int16_t);
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = first_vector(); v < L.split.chunks; v += stride) {
    const std::uint64_t e = L.split.head + v * kPerVector;
    std::uint32_t a[kWords], b[kWords], c[kWords], w[kWords];
    load_pairs(L.a + e, L.a_vec, a);
    load_pairs(L.b + e, L.b_vec, b);
    load_pairs(L.c + e, L.c_vec, c);
    merge(a, b, c, w);
    store_vector(L.out + e, w);
  }
}

template <typename Ops>
__global__ void __launch_bounds__(kThreads) merge3_kernel(const MergeLaunch L) {
  const Merger<Ops> merge{L.args};
  merge3_edges(merge, L);
  merge3_vectors(merge, L);
}

// ---- launch plans (host) ----------------------------------------------------------------------

// The requantize launch for [0, n) given `split` (from split_output on out) and `blocks` blocks.
template <typename Out>
RequantLaunch plan_requantize(const std::int32_t* acc, const std::int16_t* residual, void* out, const Split& split,
                              const RequantArgs& args, int blocks) {
  constexpr std::uint64_t kPerVector = kVectorBytes / sizeof(Out);
  RequantLaunch L{};
  L.acc = acc;
  L.residual = residual;
  L.out = out;
  L.split = split;
  L.acc_vec = vector_aligned(acc, split.head);
  L.residual_vec = residual != nullptr && vector_aligned(residual, split.head);
  // After its vector a thread's walker stands kPerVector elements on; its next vector starts
  // blocks * kThreads * kPerVector elements on from the last.
  const std::uint64_t stride = static_cast<std::uint64_t>(blocks) * kThreads;
  L.channel_step = static_cast<std::uint32_t>(((stride - 1) * kPerVector) % args.channels.count);
  L.args = args;
  return L;
}

inline MergeLaunch plan_merge3(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::int16_t* out,
                               const Split& split, const MergeArgs& args) {
  MergeLaunch L{};
  L.a = a;
  L.b = b;
  L.c = c;
  L.out = out;
  L.split = split;
  L.a_vec = vector_aligned(a, split.head);
  L.b_vec = vector_aligned(b, split.head);
  L.c_vec = vector_aligned(c, split.head);
  L.args = args;
  return L;
}

}  // namespace epilogue
}  // namespace dpx
