// Launch sizing shared by every CUDA family: how many SMs the current device has and how many
// blocks of a kernel it holds at once. Both are asked of the driver once per device (and per
// kernel, block size and shared memory) and cached; the cache is thread-safe. CUDA builds only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/status.h"

namespace dpx {
namespace runtime {

// SMs of the current device.
Status sm_count(int* sms);

// Blocks of `kernel` (a __global__ function) with `threads` threads and `smem` bytes of dynamic
// shared memory that the whole current device holds at once: SMs x resident blocks per SM, at least 1.
Status resident_blocks(const void* kernel, int threads, std::size_t smem, std::int64_t* blocks);

template <class Kernel>
Status resident_blocks(Kernel* kernel, int threads, std::size_t smem, std::int64_t* blocks) {
  return resident_blocks(reinterpret_cast<const void*>(kernel), threads, smem, blocks);
}

}  // namespace runtime
}  // namespace dpx
