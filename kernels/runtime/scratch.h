// Temporary device memory, one convention for every CUDA call that needs it (as CUB's temporary
// storage): the caller may pass a DeviceBuffer it owns, which is grown when too small and reused
// across calls; without one the call takes stream-ordered memory from the library's pool on the
// stream's device (cudaMallocFromPoolAsync) and frees it on the same stream when the lease ends.
// The pool keeps up to 1 GiB mapped between calls, so repeated calls allocate without the driver.
// Long-lived per-batch state (AlignPlan) is not scratch: the plan owns it. CUDA builds only.
#pragma once

#include <cstddef>

#include "dpx/device.h"

namespace dpx {
namespace runtime {

class ScratchLease {
 public:
  ScratchLease(DeviceBuffer* caller, cudaStream_t stream) : caller_(caller), stream_(stream) {}
  ~ScratchLease() { (void)release(); }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;

  // At least `bytes` bytes (0 gives nullptr), valid until the lease ends or the next acquire().
  Status acquire(std::size_t bytes, void** data);
  template <typename T>
  Status acquire_array(std::size_t count, T** data) {
    void* p = nullptr;
    DPX_RETURN_IF_ERROR(acquire(count * sizeof(T), &p));
    *data = static_cast<T*>(p);
    return Status::ok();
  }
  // Frees stream-ordered memory now; the Status of cudaFreeAsync.
  Status release();

 private:
  DeviceBuffer* caller_;
  cudaStream_t stream_;
  void* owned_ = nullptr;
};

}  // namespace runtime
}  // namespace dpx
