#include "device_pointer.h"

#include <cuda_runtime_api.h>

#include <string>

#include "cuda_check.h"

namespace dpx {
namespace motion_detail {

Status check_device_pointer(const void* p, const char* what) {
  cudaPointerAttributes attr{};
  DPX_CUDA_TRY(cudaPointerGetAttributes(&attr, p));
  if (attr.devicePointer == nullptr) {
    return invalid_argument(std::string(what) +
                            ": not device memory (pass cudaMalloc'ed, managed or mapped pinned memory)");
  }
  return Status::ok();
}

}  // namespace motion_detail
}  // namespace dpx
