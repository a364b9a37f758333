// Device discovery and the RAII owners, on the CUDA runtime.
#include <cuda_runtime_api.h>

#include "cuda_backend.h"
#include "cuda_check.h"
#include "dpx/device.h"

namespace dpx {

bool cuda_built() { return true; }

Status runtime::copy_to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes > 0) DPX_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
  return Status::ok();
}

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error so later calls start clean
    return 0;
  }
  return count;
}

Status set_cuda_device(int device) {
  DPX_CUDA_TRY(cudaSetDevice(device));
  return Status::ok();
}

Status cuda_memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return invalid_argument("cuda_memory_info: null output");
  DPX_CUDA_TRY(cudaMemGetInfo(free_bytes, total_bytes));
  return Status::ok();
}

template <MemoryKind kKind>
Status CudaBuffer<kKind>::allocate(std::size_t bytes) {
  reset();
  if (bytes == 0) return Status::ok();
  if constexpr (kKind == MemoryKind::kDevice) {
    DPX_CUDA_TRY(cudaMalloc(&data_, bytes));
  } else {
    DPX_CUDA_TRY(cudaHostAlloc(&data_, bytes, cudaHostAllocDefault));
  }
  bytes_ = bytes;
  return Status::ok();
}

template <MemoryKind kKind>
void CudaBuffer<kKind>::reset() {
  if (data_ != nullptr) {
    if constexpr (kKind == MemoryKind::kDevice) {
      cudaFree(data_);
    } else {
      cudaFreeHost(data_);
    }
  }
  data_ = nullptr;
  bytes_ = 0;
}

template class CudaBuffer<MemoryKind::kDevice>;
template class CudaBuffer<MemoryKind::kPinnedHost>;

Stream::~Stream() { reset(); }
Stream::Stream(Stream&& other) noexcept : stream_(other.stream_) { other.stream_ = nullptr; }
Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    reset();
    stream_ = other.stream_;
    other.stream_ = nullptr;
  }
  return *this;
}
Status Stream::create() {
  reset();
  DPX_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  return Status::ok();
}
void Stream::reset() {
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
  stream_ = nullptr;
}
Status Stream::synchronize() const {
  DPX_CUDA_TRY(cudaStreamSynchronize(stream_));
  return Status::ok();
}
Status stream_wait(cudaStream_t waiter, cudaStream_t producer) {
  cudaEvent_t e;
  DPX_CUDA_TRY(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  cudaError_t r = cudaEventRecord(e, producer);
  if (r == cudaSuccess) r = cudaStreamWaitEvent(waiter, e, 0);
  cudaEventDestroy(e);  // released once the wait is done with it
  DPX_CUDA_TRY(r);
  return Status::ok();
}

}  // namespace dpx
