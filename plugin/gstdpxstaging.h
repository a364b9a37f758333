// The CUDA side of a frame in GstDpxFilter: the element's own streams, the device planes that
// system-memory frames are processed in, and the pinned staging that makes their copies
// asynchronous. Only built with the CUDA backend; the element's CUDA context must be current
// for every call. Owned and used by the streaming thread only.
#pragma once

#include <cstddef>
#include <vector>

#include "dpx/device.h"
#include "dpx/plane.h"
#include "dpx/status.h"

namespace gstdpx {

class CudaStager {
 public:
  // Planes alternate between the streams, so one plane's copies overlap another's kernels.
  static constexpr unsigned kStreams = 2;
  static constexpr unsigned kMaxPlanes = 4;

  dpx::Status init();
  void release();
  bool ready() const { return streams_[0].get() != nullptr; }
  cudaStream_t stream_for(unsigned plane) const { return streams_[plane % kStreams].get(); }

  // A device copy of the host plane `host`, enqueued on the plane's stream. Pinned host memory is
  // copied from directly; pageable memory is first copied into pinned staging by the CPU.
  dpx::Status upload(unsigned plane, const dpx::PlaneView& host, dpx::PlaneView* device);

  // A device plane shaped like `shape`, for the output of `plane`.
  dpx::Status output_plane(unsigned plane, const dpx::PlaneView& shape, dpx::MutablePlaneView* device);

  // Enqueues the copy of the device plane `device` to the host plane `host` (directly when it is
  // pinned, else through staging that finish() copies out).
  dpx::Status download(unsigned plane, const dpx::PlaneView& device, const dpx::MutablePlaneView& host);

  // A copy between two device planes, or from a host plane to a device plane, on the plane's stream.
  dpx::Status copy_to_device(unsigned plane, const dpx::PlaneView& src, bool src_on_device,
                             const dpx::MutablePlaneView& device);

  // Waits for every stream, then completes the downloads that went through staging.
  dpx::Status finish();

 private:
  // Enqueues host -> device for `plane` (through pinned staging when `host` is pageable).
  dpx::Status host_to_device(unsigned plane, const dpx::PlaneView& host, void* device, std::size_t device_pitch);

  struct PlaneSlot {
    dpx::DeviceBuffer in, out;
    dpx::PinnedBuffer stage_in, stage_out;
  };
  struct StagedDownload {
    const void* staged;
    dpx::MutablePlaneView host;
  };

  dpx::Stream streams_[kStreams];
  PlaneSlot slots_[kMaxPlanes];
  std::vector<StagedDownload> staged_downloads_;
};

// True when the whole of `plane` lies in page-locked host memory the GPU can copy from directly.
bool host_plane_is_pinned(const dpx::PlaneView& plane);

}  // namespace gstdpx
