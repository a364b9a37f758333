// Host stand-ins for the few CUDA built-ins the morphology tile code uses, so that the device
// functions of morph_tile.cuh can run on the CPU, one thread after another (see
// test_morph_tile_emulated.cpp). Semantics as documented in the CUDA Math API.
#pragma once

#if defined(__CUDACC__)
#error "cuda_host_shim.h is for host compilers only"
#endif

#include <cstdint>

#define __device__
#define __forceinline__ inline

struct uint4 {
  unsigned x, y, z, w;
};
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }

struct HostThreadIndex {
  unsigned x = 0, y = 0, z = 0;
};
inline HostThreadIndex threadIdx;  // set by the emulation loop before each call

// Every thread of a block runs one phase to its end before the next phase starts.
inline void __syncthreads() {}

// Result byte i is byte (s >> 4i) & 7 of the eight bytes y:x (x = bytes 0..3).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const std::uint64_t v = (static_cast<std::uint64_t>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((v >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
  return r;
}

// The low 32 bits of hi:lo shifted right by (shift & 31).
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>(((static_cast<std::uint64_t>(hi) << 32) | lo) >> (shift & 31));
}
