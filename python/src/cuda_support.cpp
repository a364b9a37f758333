#include "cuda_support.h"

#include <string>

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace dpx {
namespace py_bindings {

#if DPX_HAVE_CUDA
namespace {

Status cuda_status(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::ok();
  return Status(e == cudaErrorMemoryAllocation ? StatusCode::kOutOfMemory : StatusCode::kCudaError,
                std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

}  // namespace

Status pointer_device(const void* p, const char* name, int* device) {
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, p);
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky; leave nothing behind for the next call
    return cuda_status(e, name);
  }
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
    return invalid_argument(std::string(name) + ": __cuda_array_interface__ points to host memory, not device memory");
  *device = attr.device;
  return Status::ok();
}

cudaStream_t stream_from_handle(std::uintptr_t handle) {
  if (handle == 0 || handle == 1) return cudaStreamLegacy;
  if (handle == 2) return cudaStreamPerThread;
  return reinterpret_cast<cudaStream_t>(handle);
}

DeviceScope::~DeviceScope() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

Status DeviceScope::enter(int device) {
  int current = 0;
  DPX_RETURN_IF_ERROR(cuda_status(cudaGetDevice(&current), "cudaGetDevice"));
  if (current == device) return Status::ok();
  DPX_RETURN_IF_ERROR(cuda_status(cudaSetDevice(device), "cudaSetDevice"));
  previous_ = current;
  return Status::ok();
}

Status copy_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  return cuda_status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream), "cudaMemcpyAsync");
}

Status copy_2d_async(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width_bytes,
                     std::size_t rows, cudaStream_t stream) {
  return cuda_status(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width_bytes, rows, cudaMemcpyDefault, stream),
                     "cudaMemcpy2DAsync");
}

Status synchronize(cudaStream_t stream) {
  return cuda_status(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

#else  // built without CUDA: no array can be on a device

namespace {
Status not_built() { return Status(StatusCode::kNotBuilt, "dpx was built without CUDA support"); }
}  // namespace

Status pointer_device(const void*, const char* name, int*) {
  return Status(StatusCode::kNotBuilt, std::string(name) + ": a CUDA array, but dpx was built without CUDA support");
}
cudaStream_t stream_from_handle(std::uintptr_t) { return nullptr; }
DeviceScope::~DeviceScope() = default;
Status DeviceScope::enter(int) { return not_built(); }
Status copy_async(void*, const void*, std::size_t, cudaStream_t) { return not_built(); }
Status copy_2d_async(void*, std::size_t, const void*, std::size_t, std::size_t, std::size_t, cudaStream_t) {
  return not_built();
}
Status synchronize(cudaStream_t) { return not_built(); }

#endif

}  // namespace py_bindings
}  // namespace dpx
