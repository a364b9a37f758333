// Device discovery and the RAII owners, on the CUDA runtime.
#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "dpx/device.h"

namespace dpx {

bool cuda_built() { return true; }

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error so later calls start clean
    return 0;
  }
  return count;
}

DeviceBuffer::~DeviceBuffer() { reset(); }
DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept : data_(other.data_), bytes_(other.bytes_) {
  other.data_ = nullptr;
  other.bytes_ = 0;
}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = other.data_;
    bytes_ = other.bytes_;
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}
Status DeviceBuffer::allocate(std::size_t bytes) {
  reset();
  if (bytes == 0) return Status::ok();
  DPX_CUDA_TRY(cudaMalloc(&data_, bytes));
  bytes_ = bytes;
  return Status::ok();
}
void DeviceBuffer::reset() {
  if (data_ != nullptr) cudaFree(data_);
  data_ = nullptr;
  bytes_ = 0;
}

PinnedBuffer::~PinnedBuffer() { reset(); }
PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept : data_(other.data_), bytes_(other.bytes_) {
  other.data_ = nullptr;
  other.bytes_ = 0;
}
PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = other.data_;
    bytes_ = other.bytes_;
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}
Status PinnedBuffer::allocate(std::size_t bytes) {
  reset();
  if (bytes == 0) return Status::ok();
  DPX_CUDA_TRY(cudaHostAlloc(&data_, bytes, cudaHostAllocDefault));
  bytes_ = bytes;
  return Status::ok();
}
void PinnedBuffer::reset() {
  if (data_ != nullptr) cudaFreeHost(data_);
  data_ = nullptr;
  bytes_ = 0;
}

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

}  // namespace dpx
