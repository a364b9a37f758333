// The one way libdpx builds without CUDA. A CUDA entry point lives in a host file compiled in both
// builds: it checks its arguments, then ends with DPX_CUDA_BACKEND(what, launcher(...)). With the
// CUDA backend that returns the launcher's Status; without it the launcher is named only inside a
// discarded `if constexpr` branch (so it need not be defined) and the call returns kNotBuilt.
// Only the runtime's own primitives (device_cuda.cpp / device_nocuda.cpp) come in two files.
#pragma once

#include <cstddef>

#include "dpx/device.h"
#include "dpx/status.h"

namespace dpx {
namespace runtime {

constexpr bool kCudaBuilt = DPX_HAVE_CUDA != 0;

// kNotBuilt, "`what`: libdpx was built without CUDA support".
Status cuda_not_built(const char* what);

// Host-to-device copy on `stream` (kNotBuilt without CUDA).
Status copy_to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

}  // namespace runtime
}  // namespace dpx

#define DPX_CUDA_BACKEND(what, ...)                          \
  do {                                                       \
    if constexpr (::dpx::runtime::kCudaBuilt) {              \
      return (__VA_ARGS__);                                  \
    } else {                                                 \
      return ::dpx::runtime::cuda_not_built(what);           \
    }                                                        \
  } while (0)
