// A warp of 32 lanes on the host, for device code whose lanes meet at shuffles and __syncwarp
// (cuda_host_shim.h routes both here): each lane runs as a context of its own on the calling
// thread until it reaches the warp's barrier, then the next lane runs; once lane 31 has arrived,
// lane 0 goes on. So no lane passes a barrier before every lane has reached it, as on the GPU, and
// the run is deterministic. The lanes must meet at the same barriers (code that never diverges, as
// full-mask shuffles require); a lane that finishes while another waits is reported. Under
// AddressSanitizer every switch is announced (the fiber interface), so it follows the stacks.
#pragma once

#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#define DPX_HOST_WARP_ASAN
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DPX_HOST_WARP_ASAN
#endif
#endif
#ifdef DPX_HOST_WARP_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>

namespace dpx {
namespace test {

class HostWarp {
 public:
  static constexpr int kLanes = 32;

  // Runs lane(0) .. lane(31) as the lanes of one warp. Returns false when they diverged.
  static bool run(const std::function<void(int)>& lane) {
    HostWarp w(lane);
    current_ = &w;
    w.jump(&w.main_, 0);
    current_ = nullptr;
    return !w.diverged_;
  }

  // The warp's barrier, called by each lane (__syncwarp).
  static void sync() {
    HostWarp& w = *current_;
    const int lane = w.lane_, next = (lane + 1) % kLanes;
    if (w.finished_[next]) {  // a lane left while this one waits: end the run
      w.diverged_ = true;
      w.jump(nullptr, kMain);
    }
    w.lane_ = next;
    w.jump(&w.lanes_[lane], next);
  }

  // v from lane (this lane ^ mask), every lane exchanging at once (__shfl_xor_sync). Shuffles
  // alternate between two rows of slots, so one barrier each suffices: a lane writes a row again
  // only after the next shuffle's barrier, which every lane reaches after reading it.
  template <typename V>
  static V shuffle_xor(V v, int mask) {
    static_assert(sizeof(V) <= sizeof(std::uint64_t) && std::is_trivially_copyable<V>::value,
                  "shuffled type");
    HostWarp& w = *current_;
    const int lane = w.lane_, row = w.shuffles_[lane]++ & 1;
    std::memcpy(&w.slots_[row][lane], &v, sizeof(V));
    sync();
    std::memcpy(&v, &w.slots_[row][lane ^ (mask & (kLanes - 1))], sizeof(V));
    return v;
  }

 private:
  static constexpr std::size_t kStackBytes = 256 * 1024;

  explicit HostWarp(const std::function<void(int)>& lane)
      : body_(lane), stacks_(new char[kLanes * kStackBytes]) {
    for (int i = 0; i < kLanes; ++i) {
      getcontext(&lanes_[i]);
      lanes_[i].uc_stack.ss_sp = stacks_.get() + i * kStackBytes;
      lanes_[i].uc_stack.ss_size = kStackBytes;
      lanes_[i].uc_link = nullptr;
      makecontext(&lanes_[i], &HostWarp::entry, 0);
    }
  }

  static constexpr int kMain = -1;  // the context that called run()

  // Leaves the running context for lane `to` or kMain, keeping the running one's state in `from`
  // (null: it is done or abandoned, and never resumes).
  void jump(ucontext_t* from, int to) {
    ucontext_t* target = to == kMain ? &main_ : &lanes_[to];
#ifdef DPX_HOST_WARP_ASAN
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(from != nullptr ? &fake_stack : nullptr,
                                   to == kMain ? main_stack_ : stacks_.get() + to * kStackBytes,
                                   to == kMain ? main_stack_bytes_ : kStackBytes);
#endif
    if (from != nullptr)
      swapcontext(from, target);
    else
      setcontext(target);
#ifdef DPX_HOST_WARP_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
  }

  static void entry() {
    HostWarp& w = *current_;
    const int lane = w.lane_, next = (lane + 1) % kLanes;
#ifdef DPX_HOST_WARP_ASAN
    // Lane 0 starts from run(): the stack to announce on the way back.
    const void* from_stack = nullptr;
    std::size_t from_bytes = 0;
    __sanitizer_finish_switch_fiber(nullptr, &from_stack, &from_bytes);
    if (lane == 0) w.main_stack_ = from_stack, w.main_stack_bytes_ = from_bytes;
#endif
    w.body_(lane);
    w.finished_[lane] = true;
    if (lane == kLanes - 1) {  // the last lane of the last round: every lane must be done
      for (bool done : w.finished_) w.diverged_ = w.diverged_ || !done;
      w.jump(nullptr, kMain);
    }
    if (w.finished_[next]) {
      w.diverged_ = true;
      w.jump(nullptr, kMain);
    }
    w.lane_ = next;
    w.jump(nullptr, next);
  }

  inline static HostWarp* current_ = nullptr;
  const std::function<void(int)>& body_;
  std::unique_ptr<char[]> stacks_;  // not zeroed: a lane touches only the pages it uses
  ucontext_t main_{}, lanes_[kLanes]{};
  std::uint64_t slots_[2][kLanes]{};
  unsigned shuffles_[kLanes]{};
  bool finished_[kLanes]{};
  int lane_ = 0;
  bool diverged_ = false;
#ifdef DPX_HOST_WARP_ASAN
  const void* main_stack_ = nullptr;
  std::size_t main_stack_bytes_ = 0;
#endif
};

}  // namespace test
}  // namespace dpx
