// The CUDA side of system-memory frames in GstDpxFilter: the device planes a frame is processed in
// and the pinned staging that makes its copies asynchronous. One CudaStager serves one frame in
// flight (gstdpxcudaframes.h owns one per slot); the streams are the caller's. Only built with the
// CUDA backend; the element's CUDA context must be current for every call. Streaming thread only.
#pragma once

#include <cstddef>
#include <vector>

#include "dpx/device.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace gstdpx {

class CudaStager {
 public:
  static constexpr unsigned kMaxPlanes = 4;

  void release();

  // A device copy of the host plane `host`, enqueued on `stream`. Pinned host memory is copied
  // from directly; pageable memory is first copied into pinned staging by the CPU.
  dpx::Status upload(unsigned plane, const dpx::PlaneView& host, cudaStream_t stream, dpx::PlaneView* device);

  // A device plane shaped like `shape`, for the output of `plane`.
  dpx::Status output_plane(unsigned plane, const dpx::PlaneView& shape, dpx::MutablePlaneView* device);

  // Enqueues the copy of the device plane `device` to the host plane `host` on `stream` (directly
  // when it is pinned, else through staging that complete_downloads() copies out).
  dpx::Status download(unsigned plane, const dpx::PlaneView& device, const dpx::MutablePlaneView& host,
                       cudaStream_t stream);

  // A copy between two device planes, or from a host plane to a device plane, on `stream`.
  dpx::Status copy_to_device(unsigned plane, const dpx::PlaneView& src, bool src_on_device,
                             const dpx::MutablePlaneView& device, cudaStream_t stream);

  // Once the frame's work has completed: copies the downloads that went through staging to their
  // host planes. forget_downloads() drops them (a frame abandoned on a flush).
  void complete_downloads();
  void forget_downloads() { staged_downloads_.clear(); }

 private:
  // Enqueues host -> device for `plane` (through pinned staging when `host` is pageable).
  dpx::Status host_to_device(unsigned plane, const dpx::PlaneView& host, void* device,
                             std::size_t device_pitch, cudaStream_t stream);

  struct PlaneSlot {
    dpx::DeviceBuffer in, out;
    dpx::PinnedBuffer stage_in, stage_out;
  };
  struct StagedDownload {
    const void* staged;
    dpx::MutablePlaneView host;
  };

  PlaneSlot slots_[kMaxPlanes];
  std::vector<StagedDownload> staged_downloads_;
};

// True when the whole of `plane` lies in page-locked host memory the GPU can copy from directly.
bool host_plane_is_pinned(const dpx::PlaneView& plane);

}  // namespace gstdpx
