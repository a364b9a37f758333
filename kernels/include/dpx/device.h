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

// Makes `device` (0 .. cuda_device_count() - 1) the calling thread's current CUDA device: what the
// thread allocates, creates and launches from then on belongs to it.
Status set_cuda_device(int device);

// Free and total memory of the calling thread's current device, in bytes.
Status cuda_memory_info(std::size_t* free_bytes, std::size_t* total_bytes);

// Resolves kAuto to kCuda or kCpu; fails for kCuda when no device is usable.
Status resolve_backend(Backend requested, Backend* resolved);

enum class MemoryKind {
  kDevice,      // cudaMalloc
  kPinnedHost,  // cudaHostAlloc: page-locked host memory for asynchronous copies
};

// Owns one CUDA allocation of the given kind; moves, never copies. Empty when default-constructed.
template <MemoryKind kKind>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  ~CudaBuffer() { reset(); }
  CudaBuffer(CudaBuffer&& other) noexcept { take(other); }
  CudaBuffer& operator=(CudaBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;

  // Frees what it holds, then allocates `bytes` (0 leaves it empty).
  Status allocate(std::size_t bytes);
  void reset();

  void* data() const { return data_; }
  template <typename T>
  T* as() const { return static_cast<T*>(data_); }
  std::size_t size() const { return bytes_; }

 private:
  void take(CudaBuffer& other) {
    data_ = other.data_;
    bytes_ = other.bytes_;
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Temporary device memory (scratch), the same in every CUDA call that needs it: the call takes a
// `DeviceBuffer* scratch`. A buffer passed in stays the caller's; it is grown when too small
// (cudaFree + cudaMalloc, which synchronise) and reused as it is otherwise, so pass the same one
// to repeated calls and never use it on two streams at once. With nullptr the call takes
// stream-ordered memory from libdpx's pool on the stream's device (cudaMallocFromPoolAsync) and
// frees it on the same stream; the pool keeps up to 1 GiB mapped between calls, so repeated calls
// do not go back to the driver.
using DeviceBuffer = CudaBuffer<MemoryKind::kDevice>;
using PinnedBuffer = CudaBuffer<MemoryKind::kPinnedHost>;

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

// Work queued on `waiter` from now on waits for what is queued on `producer` now (an event
// between them; no host wait).
Status stream_wait(cudaStream_t waiter, cudaStream_t producer);

}  // namespace dpx
