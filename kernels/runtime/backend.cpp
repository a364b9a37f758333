// Backend names and resolution; shared by both builds (with and without CUDA).
#include <string>

#include "cuda_backend.h"
#include "dpx/device.h"

namespace dpx {

namespace runtime {
Status cuda_not_built(const char* what) {
  return Status(StatusCode::kNotBuilt, std::string(what) + ": libdpx was built without CUDA support");
}
}  // namespace runtime

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::kAuto: return "auto";
    case Backend::kCuda: return "cuda";
    case Backend::kCpu: return "cpu";
  }
  return "unknown";
}

Status resolve_backend(Backend requested, Backend* resolved) {
  if (resolved == nullptr) return invalid_argument("resolve_backend: null output");
  if (requested == Backend::kCpu) {
    *resolved = Backend::kCpu;
    return Status::ok();
  }
  const bool usable = cuda_device_count() > 0;
  if (requested == Backend::kAuto) {
    *resolved = usable ? Backend::kCuda : Backend::kCpu;
    return Status::ok();
  }
  if (!cuda_built()) return Status(StatusCode::kNotBuilt, "libdpx was built without CUDA support");
  if (!usable) return Status(StatusCode::kNoDevice, "backend cuda requested but no usable CUDA device was found");
  *resolved = Backend::kCuda;
  return Status::ok();
}

}  // namespace dpx
