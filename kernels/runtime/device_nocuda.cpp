// The same API in a build without CUDA: no devices, and allocations say why they cannot happen.
#include "dpx/device.h"

namespace dpx {

namespace {
Status not_built() { return Status(StatusCode::kNotBuilt, "libdpx was built without CUDA support"); }
}  // namespace

bool cuda_built() { return false; }
int cuda_device_count() { return 0; }

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

}  // namespace dpx
