// Host stand-ins for the few CUDA built-ins the morphology tile code uses, so that the device
// functions of morph_band.cuh / morph_tile.cuh can run on the CPU, one thread after another (see
// test_morph_tile_emulated.cpp). Semantics as documented in the CUDA Math API and the PTX ISA.
#pragma once

#define DPX_MORPH_HOST_SHIM 1

#if defined(__CUDACC__)
#error "cuda_host_shim.h is for host compilers only"
#endif

#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

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

// cp.async as the hardware may run it: a copy lands at some time between its issue and the wait
// for its group. The emulation takes either extreme: late (at the wait), so a schedule that reads
// rows before waiting for them reads stale shared memory, or early (at the issue), so one that
// requests rows into ring slots still to be read overwrites them.
struct EmulatedAsyncCopies {
  struct Copy {
    std::uint8_t* dst;
    const std::uint8_t* src;
  };
  std::vector<Copy> open;                   // issued, not yet committed
  std::deque<std::vector<Copy>> committed;  // oldest first
};
inline std::vector<EmulatedAsyncCopies> emulated_copies(1024);  // per threadIdx.x
inline bool emulated_copies_land_early = false;

inline void emulated_copy16_async(std::uint8_t* dst, const std::uint8_t* src) {
  if (emulated_copies_land_early) {
    std::memcpy(dst, src, 16);
  } else {
    emulated_copies[threadIdx.x].open.push_back({dst, src});
  }
}
inline void emulated_commit_async_copies() {
  EmulatedAsyncCopies& t = emulated_copies[threadIdx.x];
  t.committed.push_back(std::move(t.open));
  t.open.clear();
}
inline void emulated_wait_async_copies(int pending) {
  EmulatedAsyncCopies& t = emulated_copies[threadIdx.x];
  while (static_cast<int>(t.committed.size()) > (pending > 0 ? pending : 0)) {
    for (const auto& c : t.committed.front()) std::memcpy(c.dst, c.src, 16);
    t.committed.pop_front();
  }
}
// Copies issued but never waited for: none may be left when a block ends. Drops them either way
// (their destination is the ending block's shared memory).
inline bool emulated_copies_drained() {
  bool drained = true;
  for (EmulatedAsyncCopies& t : emulated_copies) {
    drained = drained && t.open.empty();
    for (const auto& g : t.committed) drained = drained && g.empty();
    t.open.clear();
    t.committed.clear();
  }
  return drained;
}
