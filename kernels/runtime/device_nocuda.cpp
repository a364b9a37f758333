// The same API in a build without CUDA: no devices, and allocations say why they cannot happen.
#include "cuda_backend.h"
#include "dpx/device.h"

namespace dpx {

namespace {
Status not_built() { return runtime::cuda_not_built("libdpx"); }
}  // namespace

Status runtime::copy_to_device(void*, const void*, std::size_t, cudaStream_t) { return not_built(); }

bool cuda_built() { return false; }
int cuda_device_count() { return 0; }
Status set_cuda_device(int) { return not_built(); }
Status cuda_memory_info(std::size_t*, std::size_t*) { return not_built(); }

template <MemoryKind kKind>
Status CudaBuffer<kKind>::allocate(std::size_t bytes) {
  return bytes == 0 ? Status::ok() : not_built();
}
template <MemoryKind kKind>
void CudaBuffer<kKind>::reset() {}

template class CudaBuffer<MemoryKind::kDevice>;
template class CudaBuffer<MemoryKind::kPinnedHost>;

Stream::~Stream() = default;
Stream::Stream(Stream&&) noexcept {}
Stream& Stream::operator=(Stream&&) noexcept { return *this; }
Status Stream::create() { return not_built(); }
void Stream::reset() {}
Status Stream::synchronize() const { return not_built(); }
Status stream_wait(cudaStream_t, cudaStream_t) { return not_built(); }

}  // namespace dpx
