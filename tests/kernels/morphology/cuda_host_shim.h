// Host stand-ins for the few CUDA built-ins the morphology device code uses, so that the device
// functions of morph_band.cuh / morph_tile.cuh can run on the CPU one thread after another
// (test_morph_tile_emulated.cpp), those of morph_rows.cuh / morph_rows_compound.cuh a warp at a
// time, its 32 lanes on 32 host threads that meet at every shuffle (test_morph_rows_emulated.cpp),
// and the separable passes and the one-pass shape schedule a block at a time
// (test_morph_separable_emulated.cpp, test_morph_shape_emulated.cpp). Semantics as
// documented in the CUDA Math API and the PTX ISA.
#pragma once

#define DPX_MORPH_HOST_SHIM 1

#if defined(__CUDACC__)
#error "cuda_host_shim.h is for host compilers only"
#endif

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__  // a host thread's own copy: the device code's static shared arrays hold each thread's own slots

struct uint4 {
  unsigned x, y, z, w;
};
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }
struct uint2 {
  unsigned x, y;
};
inline uint2 make_uint2(unsigned x, unsigned y) { return uint2{x, y}; }

struct HostThreadIndex {
  unsigned x = 0, y = 0, z = 0;
};
inline thread_local HostThreadIndex threadIdx;  // set by the emulation before each thread's call
inline thread_local HostThreadIndex blockIdx;   // the kernels' bodies take the block as arguments

template <class T>
inline T __ldg(const T* p) {
  return *p;
}

inline thread_local HostThreadIndex blockDim;  // set where a kernel body reads it (the separable passes)

// A block's threads run as host threads that meet at each __syncthreads (the separable row pass,
// test_morph_separable_emulated.cpp): a barrier that counts its rounds.
class EmulatedBlockBarrier {
 public:
  explicit EmulatedBlockBarrier(unsigned threads) : threads_(threads) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const unsigned round = round_;
    if (++arrived_ == threads_) {
      arrived_ = 0;
      ++round_;
      all_arrived_.notify_all();
      return;
    }
    all_arrived_.wait(lock, [&] { return round_ != round; });
  }

 private:
  const unsigned threads_;
  unsigned arrived_ = 0, round_ = 0;
  std::mutex mutex_;
  std::condition_variable all_arrived_;
};
inline thread_local EmulatedBlockBarrier* emulated_block_barrier = nullptr;

// With a block barrier set, the block's threads meet there; without one every thread of a block
// runs one phase to its end before the next phase starts (the tile emulation's schedule).
inline void __syncthreads() {
  if (emulated_block_barrier != nullptr) emulated_block_barrier->arrive_and_wait();
}

inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }

// Result byte i is byte (s >> 4i) & 7 of the eight bytes y:x (x = bytes 0..3).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const std::uint64_t v = (static_cast<std::uint64_t>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((v >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
  return r;
}

// max(a - b, 0) per byte (__vsubus4) / per 16-bit half (__vsubus2).
template <int kBits>
inline unsigned emulated_subtract_saturated(unsigned a, unsigned b) {
  constexpr unsigned kMask = (1u << kBits) - 1;
  unsigned r = 0;
  for (int i = 0; i < 32; i += kBits) {
    const unsigned x = (a >> i) & kMask, y = (b >> i) & kMask;
    r |= (x > y ? x - y : 0) << i;
  }
  return r;
}
inline unsigned __vsubus4(unsigned a, unsigned b) { return emulated_subtract_saturated<8>(a, b); }
inline unsigned __vsubus2(unsigned a, unsigned b) { return emulated_subtract_saturated<16>(a, b); }

// Per byte (…u4) / per 16-bit half (…u2) unsigned maximum and minimum.
template <int kBits, bool kMax>
inline unsigned emulated_max_or_min(unsigned a, unsigned b) {
  constexpr unsigned kMask = (1u << kBits) - 1;
  unsigned r = 0;
  for (int i = 0; i < 32; i += kBits) {
    const unsigned x = (a >> i) & kMask, y = (b >> i) & kMask;
    r |= (kMax ? (x > y ? x : y) : (x < y ? x : y)) << i;
  }
  return r;
}
inline unsigned __vmaxu4(unsigned a, unsigned b) { return emulated_max_or_min<8, true>(a, b); }
inline unsigned __vminu4(unsigned a, unsigned b) { return emulated_max_or_min<8, false>(a, b); }
inline unsigned __vmaxu2(unsigned a, unsigned b) { return emulated_max_or_min<16, true>(a, b); }
inline unsigned __vminu2(unsigned a, unsigned b) { return emulated_max_or_min<16, false>(a, b); }

// A warp on the host: run() calls f() on 32 threads, lane i with threadIdx.x = first_thread + i.
// A shuffle is an exchange: every lane stores its value in this exchange's slots, all meet, each
// reads its source lane's. Exchanges alternate between two sets of slots: a lane can only store
// into a set again after the next meeting, which every lane reaches after its read. The device
// code shuffles only where the whole warp does (a lane that returned early would leave the others
// waiting: reported and aborted, not a hang). Waiting lanes yield rather than sleep: a meeting
// needs every lane to run, and waking 31 sleeping threads costs more than letting them spin.
class EmulatedWarp {
 public:
  static constexpr unsigned kLanes = 32;

  static void run(unsigned first_thread, const std::function<void()>& f) {
    EmulatedWarp warp;
    std::vector<std::thread> lanes;
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      lanes.emplace_back([&warp, &f, first_thread, lane] {
        threadIdx.x = first_thread + lane;
        current() = &warp;
        f();
        warp.left_.fetch_add(1);
      });
    }
    for (std::thread& t : lanes) t.join();
  }

  static EmulatedWarp*& current() {
    static thread_local EmulatedWarp* warp = nullptr;
    return warp;
  }

  unsigned exchange(unsigned value, int from_lane) { return share(value)[from_lane]; }

  // Whether every lane's value is non-zero.
  bool all(unsigned value) {
    const unsigned* slots = share(value);
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      if (slots[lane] == 0) return false;
    }
    return true;
  }

 private:
  // Stores this lane's value, meets the others, returns every lane's.
  const unsigned* share(unsigned value) {
    thread_local unsigned exchanges = 0;  // this lane's, in this warp (a lane runs one warp)
    unsigned* slots = slots_[exchanges++ % 2];
    slots[threadIdx.x % kLanes] = value;
    meet();
    return slots;
  }

  void meet() {
    const unsigned generation = generation_.load();
    if (arrived_.fetch_add(1) + 1 == kLanes) {
      arrived_.store(0);
      generation_.fetch_add(1);
      return;
    }
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (generation_.load() == generation) {
      // A lane that left passed every meeting it had: re-read the generation after seeing it.
      const bool stranded = left_.load() > 0 && generation_.load() == generation;
      if (stranded || std::chrono::steady_clock::now() > give_up) {
        std::fprintf(stderr, "emulated warp: a shuffle that not every lane reached\n");
        std::abort();
      }
      std::this_thread::yield();
    }
  }

  unsigned slots_[2][kLanes] = {};
  std::atomic<unsigned> arrived_{0}, generation_{0}, left_{0};
};

inline unsigned __shfl_up_sync(unsigned, unsigned v, unsigned delta) {
  const unsigned lane = threadIdx.x % EmulatedWarp::kLanes;
  return EmulatedWarp::current()->exchange(v, static_cast<int>(lane >= delta ? lane - delta : lane));
}
// A source lane outside the warp reads lane (src_lane mod 32), as the hardware does.
inline unsigned __shfl_sync(unsigned, unsigned v, int src_lane) {
  return EmulatedWarp::current()->exchange(v, src_lane & static_cast<int>(EmulatedWarp::kLanes - 1));
}
// The warp's lanes meet (the one-pass shape schedule's in-place row widening).
inline void __syncwarp(unsigned = 0xFFFFFFFFu) {
  EmulatedWarp::current()->exchange(0, 0);
}
inline int __all_sync(unsigned, int predicate) { return EmulatedWarp::current()->all(predicate != 0) ? 1 : 0; }
inline unsigned __shfl_down_sync(unsigned, unsigned v, unsigned delta) {
  const unsigned lane = threadIdx.x % EmulatedWarp::kLanes;
  return EmulatedWarp::current()->exchange(v, static_cast<int>(lane + delta < EmulatedWarp::kLanes ? lane + delta : lane));
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
    int bytes;
  };
  std::vector<Copy> open;                   // issued, not yet committed
  std::deque<std::vector<Copy>> committed;  // oldest first
};
inline std::vector<EmulatedAsyncCopies> emulated_copies(1024);  // per thread of a block
inline bool emulated_copies_land_early = false;

// This thread's copies: threads of a block that run side by side (the separable column pass) each
// have their own.
inline EmulatedAsyncCopies& emulated_thread_copies() {
  return emulated_copies[threadIdx.y * blockDim.x + threadIdx.x];
}
inline void emulated_copy_async(std::uint8_t* dst, const std::uint8_t* src, int bytes) {
  if (emulated_copies_land_early) {
    std::memcpy(dst, src, static_cast<std::size_t>(bytes));
  } else {
    emulated_thread_copies().open.push_back({dst, src, bytes});
  }
}
inline void emulated_commit_async_copies() {
  EmulatedAsyncCopies& t = emulated_thread_copies();
  t.committed.push_back(std::move(t.open));
  t.open.clear();
}
inline void emulated_wait_async_copies(int pending) {
  EmulatedAsyncCopies& t = emulated_thread_copies();
  while (static_cast<int>(t.committed.size()) > (pending > 0 ? pending : 0)) {
    for (const auto& c : t.committed.front()) std::memcpy(c.dst, c.src, static_cast<std::size_t>(c.bytes));
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
