// The few CUDA runtime calls the bindings make themselves (pointer attributes, the current device,
// copies between numpy arrays and device memory). Built without CUDA they return kNotBuilt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "dpx/device.h"
#include "dpx/status.h"

namespace dpx {
namespace py_bindings {

// The device that holds `p` (device or managed memory); an error naming `name` for host memory.
Status pointer_device(const void* p, const char* name, int* device);

// The calling thread's current device; errors name `name`.
Status current_device(const char* name, int* device);

// A stream handle as Python passes it: 0 the legacy default stream, 1 its __cuda_array_interface__
// alias, 2 the per-thread default stream, anything else a cudaStream_t.
cudaStream_t stream_from_handle(std::uintptr_t handle);

// Makes `device` current for the scope and restores the previous one after.
class DeviceScope {
 public:
  DeviceScope() = default;
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  Status enter(int device);

 private:
  int previous_ = -1;
};

// Device memory in a stream's order, from libdpx's pool (the one its scratch leases take): given
// back on that stream when this goes, so nothing waits for the work that uses it.
class StreamBuffer {
 public:
  StreamBuffer();
  ~StreamBuffer();
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;
  Status allocate(std::size_t bytes, cudaStream_t stream);
  void* data() const { return data_; }

 private:
  struct Lease;
  std::unique_ptr<Lease> lease_;
  void* data_ = nullptr;
};

// Stream-ordered copies in either direction (the runtime works the direction out), flat or 2-D.
Status copy_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
Status copy_2d_async(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, std::size_t width_bytes,
                     std::size_t rows, cudaStream_t stream);
Status synchronize(cudaStream_t stream);

}  // namespace py_bindings
}  // namespace dpx
