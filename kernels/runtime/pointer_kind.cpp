#include "pointer_kind.h"

#include <cuda_runtime_api.h>

#include <string>

#include "cuda_check.h"

namespace dpx {
namespace runtime {

Status pointer_kind(const void* p, PointerKind* kind) {
  cudaPointerAttributes attr{};
  DPX_CUDA_TRY(cudaPointerGetAttributes(&attr, p));
  switch (attr.type) {
    case cudaMemoryTypeHost: *kind = PointerKind::kPinned; break;
    case cudaMemoryTypeDevice: *kind = PointerKind::kDevice; break;
    case cudaMemoryTypeManaged: *kind = PointerKind::kManaged; break;
    default: *kind = PointerKind::kPageable; break;
  }
  return Status::ok();
}

Status check_device_readable(const void* p, const char* what, const char* name) {
  PointerKind kind = PointerKind::kPageable;
  DPX_RETURN_IF_ERROR(pointer_kind(p, &kind));
  if (kind != PointerKind::kPageable) return Status::ok();
  int device = 0, pageable = 0;
  DPX_CUDA_TRY(cudaGetDevice(&device));
  DPX_CUDA_TRY(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  if (pageable) return Status::ok();
  return invalid_argument(std::string(what) + ": " + name +
                          " is ordinary host memory, which this GPU cannot read (pass device, managed or pinned memory)");
}

}  // namespace runtime
}  // namespace dpx
