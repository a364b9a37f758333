// Just enough of CUDA's device vocabulary for a host compiler to build the block-matching kernel's
// device functions (block_match_kernel.cuh) and the second stage's warps (refine_warp.cuh), so a
// test can run their steps on the CPU, one thread index after another, or a warp's lanes as the
// contexts of a HostWarp (host_warp.h), on a machine without a GPU. Every stand-in has the CUDA semantics the
// kernel relies on. Include before the kernel header, in a file compiled without nvcc (and with
// -Wno-unknown-pragmas: the kernel's `#pragma unroll` hints mean nothing to a host compiler).
#pragma once

#if defined(__CUDACC__)
#error "cuda_host_shim.h is for host compilers only"
#endif

#include <cstdint>

#include "host_warp.h"

#define __device__
#define __global__
#define __shared__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

struct uint2 {
  std::uint32_t x, y;
};
struct alignas(16) uint4 {
  std::uint32_t x, y, z, w;
};
inline uint4 make_uint4(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t w) { return uint4{x, y, z, w}; }

struct HostDim3 {
  unsigned x = 0, y = 0, z = 0;
};
inline HostDim3 threadIdx, blockIdx, blockDim;

// Byte s of the result is byte (selector nibble s) of the 8 bytes y:x.
inline std::uint32_t __byte_perm(std::uint32_t x, std::uint32_t y, std::uint32_t s) {
  const std::uint64_t bytes = (static_cast<std::uint64_t>(y) << 32) | x;
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<std::uint32_t>((bytes >> (8 * ((s >> (4 * i)) & 7u))) & 0xFFu) << (8 * i);
  return r;
}

// The low word of hi:lo shifted right by (shift & 31).
inline std::uint32_t __funnelshift_r(std::uint32_t lo, std::uint32_t hi, unsigned shift) {
  const std::uint64_t v = (static_cast<std::uint64_t>(hi) << 32) | lo;
  return static_cast<std::uint32_t>(v >> (shift & 31u));
}

// |a - b| + c.
inline unsigned __sad(int a, int b, unsigned c) { return c + static_cast<unsigned>(a > b ? a - b : b - a); }

inline void __syncthreads() {}  // the test runs each step for every thread before the next

// A warp's lanes meet: on the host, the lanes of a dpx::test::HostWarp.
inline void __syncwarp(unsigned = 0xFFFFFFFFu) { dpx::test::HostWarp::sync(); }
template <typename V>
inline V __shfl_xor_sync(unsigned, V v, int mask) {
  return dpx::test::HostWarp::shuffle_xor(v, mask);
}

template <typename T>
inline T __ldg(const T* p) {
  return *p;
}

inline unsigned long long atomicMin(unsigned long long* p, unsigned long long v) {
  const unsigned long long old = *p;
  if (v < old) *p = v;
  return old;
}
