#include "cuda_support.h"

#include <string>

#if DPX_HAVE_CUDA
#include "dpx/cuda_status.h"
#include "scratch.h"
#endif

namespace dpx {
namespace py_bindings {

#if DPX_HAVE_CUDA

Status pointer_device(const void* p, const char* name, int* device) {
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, p);
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky; leave nothing behind for the next call
    return cuda_status(e, name, __FILE__, __LINE__);
  }
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
    return invalid_argument(std::string(name) + ": __cuda_array_interface__ points to host memory, not device memory");
  *device = attr.device;
  return Status::ok();
}

Status current_device(const char* name, int* device) {
  const cudaError_t e = cudaGetDevice(device);
  return e == cudaSuccess ? Status::ok() : cuda_status(e, name, __FILE__, __LINE__);
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
  DPX_CUDA_TRY(cudaGetDevice(&current));
  if (current == device) return Status::ok();
  DPX_CUDA_TRY(cudaSetDevice(device));
  previous_ = current;
  return Status::ok();
}

struct StreamBuffer::Lease {
  runtime::ScratchLease lease;
};

StreamBuffer::StreamBuffer() = default;
StreamBuffer::~StreamBuffer() = default;

Status StreamBuffer::allocate(std::size_t bytes, cudaStream_t stream) {
  lease_.reset();
  data_ = nullptr;
  // the legacy default stream by its plainest name (this file is built without per-thread default streams)
  lease_.reset(new Lease{runtime::ScratchLease(nullptr, stream == cudaStreamLegacy ? nullptr : stream)});
  return lease_->lease.acquire(bytes, &data_);
}

Status copy_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  DPX_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
  return Status::ok();
}

Status copy_2d_async(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width_bytes,
                     std::size_t rows, cudaStream_t stream) {
  DPX_CUDA_TRY(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width_bytes, rows, cudaMemcpyDefault, stream));
  return Status::ok();
}

Status synchronize(cudaStream_t stream) {
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  return Status::ok();
}

#else  // built without CUDA: no array can be on a device

namespace {
Status not_built() { return Status(StatusCode::kNotBuilt, "dpx was built without CUDA support"); }
Status not_built_for(const char* name) {
  return Status(StatusCode::kNotBuilt, std::string(name) + ": a CUDA array, but dpx was built without CUDA support");
}
}  // namespace

Status pointer_device(const void*, const char* name, int*) { return not_built_for(name); }
Status current_device(const char* name, int*) { return not_built_for(name); }
cudaStream_t stream_from_handle(std::uintptr_t) { return nullptr; }
DeviceScope::~DeviceScope() = default;
Status DeviceScope::enter(int) { return not_built(); }
struct StreamBuffer::Lease {};
StreamBuffer::StreamBuffer() = default;
StreamBuffer::~StreamBuffer() = default;
Status StreamBuffer::allocate(std::size_t, cudaStream_t) { return not_built(); }
Status copy_async(void*, const void*, std::size_t, cudaStream_t) { return not_built(); }
Status copy_2d_async(void*, std::size_t, const void*, std::size_t, std::size_t, std::size_t, cudaStream_t) {
  return not_built();
}
Status synchronize(cudaStream_t) { return not_built(); }

#endif

}  // namespace py_bindings
}  // namespace dpx
