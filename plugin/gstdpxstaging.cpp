#include "gstdpxstaging.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "dpx/cuda_status.h"
#include "gstdpxhostcopy.h"

namespace gstdpx {
namespace {

// Device rows start on this boundary so kernels read aligned rows.
constexpr std::size_t kDevicePitchAlign = 256;

std::size_t device_pitch(const dpx::PlaneView& shape) {
  return (shape.row_bytes() + kDevicePitchAlign - 1) / kDevicePitchAlign * kDevicePitchAlign;
}

std::size_t plane_bytes(std::size_t pitch, int height) {
  return pitch * static_cast<std::size_t>(height);
}

template <typename Buffer>
dpx::Status ensure_size(Buffer& buffer, std::size_t bytes) {
  if (buffer.size() >= bytes) return dpx::Status::ok();
  return buffer.allocate(bytes);
}

bool pointer_is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();  // clear: an unknown pointer is simply not pinned
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

dpx::Status bad_plane(unsigned plane) {
  return dpx::invalid_argument("plane index " + std::to_string(plane) + " out of range");
}

}  // namespace

bool host_plane_is_pinned(const dpx::PlaneView& plane) {
  const auto* first = static_cast<const std::uint8_t*>(plane.data);
  const std::uint8_t* last = plane.row(plane.height - 1) + plane.row_bytes() - 1;
  return pointer_is_pinned(first) && pointer_is_pinned(last);
}

void CudaStager::release() {
  for (auto& slot : slots_) slot = PlaneSlot();
  staged_downloads_.clear();
}

dpx::Status CudaStager::host_to_device(unsigned plane, const dpx::PlaneView& host, void* device,
                                       std::size_t device_pitch, cudaStream_t stream) {
  const void* from = host.data;
  std::size_t from_pitch = host.pitch;
  if (!host_plane_is_pinned(host)) {
    dpx::PinnedBuffer& stage = slots_[plane].stage_in;
    DPX_RETURN_IF_ERROR(ensure_size(stage, plane_bytes(host.row_bytes(), host.height)));
    copy_rows(stage.data(), host.row_bytes(), host.data, host.pitch, host.row_bytes(), host.height);
    from = stage.data();
    from_pitch = host.row_bytes();
  }
  DPX_CUDA_TRY(cudaMemcpy2DAsync(device, device_pitch, from, from_pitch, host.row_bytes(), host.height,
                                 cudaMemcpyHostToDevice, stream));
  return dpx::Status::ok();
}

dpx::Status CudaStager::upload(unsigned plane, const dpx::PlaneView& host, cudaStream_t stream,
                               dpx::PlaneView* device) {
  if (plane >= kMaxPlanes) return bad_plane(plane);
  PlaneSlot& slot = slots_[plane];
  const std::size_t pitch = device_pitch(host);
  DPX_RETURN_IF_ERROR(ensure_size(slot.in, plane_bytes(pitch, host.height)));
  DPX_RETURN_IF_ERROR(host_to_device(plane, host, slot.in.data(), pitch, stream));
  *device = host;
  device->data = slot.in.data();
  device->pitch = pitch;
  return dpx::Status::ok();
}

dpx::Status CudaStager::output_plane(unsigned plane, const dpx::PlaneView& shape,
                                     dpx::MutablePlaneView* device) {
  if (plane >= kMaxPlanes) return bad_plane(plane);
  PlaneSlot& slot = slots_[plane];
  const std::size_t pitch = device_pitch(shape);
  DPX_RETURN_IF_ERROR(ensure_size(slot.out, plane_bytes(pitch, shape.height)));
  *device =
      dpx::MutablePlaneView{slot.out.data(), shape.width, shape.height, pitch, shape.channels, shape.type};
  return dpx::Status::ok();
}

dpx::Status CudaStager::download(unsigned plane, const dpx::PlaneView& device,
                                 const dpx::MutablePlaneView& host, cudaStream_t stream) {
  if (plane >= kMaxPlanes) return bad_plane(plane);
  PlaneSlot& slot = slots_[plane];
  void* to = host.data;
  std::size_t to_pitch = host.pitch;
  if (!host_plane_is_pinned(host.as_const())) {
    DPX_RETURN_IF_ERROR(ensure_size(slot.stage_out, plane_bytes(host.row_bytes(), host.height)));
    to = slot.stage_out.data();
    to_pitch = host.row_bytes();
    staged_downloads_.push_back({slot.stage_out.data(), host});
  }
  DPX_CUDA_TRY(cudaMemcpy2DAsync(to, to_pitch, device.data, device.pitch, host.row_bytes(), host.height,
                                 cudaMemcpyDeviceToHost, stream));
  return dpx::Status::ok();
}

dpx::Status CudaStager::copy_to_device(unsigned plane, const dpx::PlaneView& src, bool src_on_device,
                                       const dpx::MutablePlaneView& device, cudaStream_t stream) {
  if (plane >= kMaxPlanes) return bad_plane(plane);
  if (!src_on_device) return host_to_device(plane, src, device.data, device.pitch, stream);
  DPX_CUDA_TRY(cudaMemcpy2DAsync(device.data, device.pitch, src.data, src.pitch, src.row_bytes(), src.height,
                                 cudaMemcpyDeviceToDevice, stream));
  return dpx::Status::ok();
}

void CudaStager::complete_downloads() {
  for (const StagedDownload& d : staged_downloads_) {
    copy_rows(d.host.data, d.host.pitch, d.staged, d.host.row_bytes(), d.host.row_bytes(), d.host.height);
  }
  staged_downloads_.clear();
}

}  // namespace gstdpx
