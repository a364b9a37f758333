// Backends, CUDA device discovery and the RAII owners of device memory and streams.
// This header does not need the CUDA toolkit: cudaStream_t is the runtime's own
// `CUstream_st*`, declared here the same way, so applications without CUDA still compile.
#pragma once

#include <cstddef>

#include "dpx/status.h"

struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

namespace dpx {

enum class Backend {
  kAuto,  // CUDA when a device is usable, else the CPU
  kCuda,
  kCpu,
};

const char* backend_name(Backend backend);

// True when the library was built with its CUDA backend.
bool cuda_built();

// Number of usable CUDA devices (0 when none, or when built without CUDA).
int cuda_device_count();

// Resolves kAuto to kCuda or kCpu; fails for kCuda when no device is usable.
Status resolve_backend(Backend requested, Backend* resolved);

// Owns a cudaMalloc'ed block; moves, never copies. Empty when default-constructed.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  // Frees what it holds, then allocates `bytes` (0 leaves it empty).
  Status allocate(std::size_t bytes);
  void reset();

  void* data() const { return data_; }
  template <typename T>
  T* as() const { return static_cast<T*>(data_); }
  std::size_t size() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Owns a cudaHostAlloc'ed (pinned) block for asynchronous copies.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  Status allocate(std::size_t bytes);
  void reset();

  void* data() const { return data_; }
  template <typename T>
  T* as() const { return static_cast<T*>(data_); }
  std::size_t size() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Owns a non-blocking CUDA stream.
class Stream {
 public:
  Stream() = default;
  ~Stream();
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Status create();
  void reset();
  Status synchronize() const;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace dpx
