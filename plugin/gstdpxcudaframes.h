// Frames in flight on the CUDA backend: two streams (uploads; kernels and downloads) and, per
// slot, the staging of one frame and the event that says its work is complete. A frame's uploads
// run on the upload stream and the work stream waits for them with an event, so the upload of the
// next frame overlaps the kernels and downloads of this one. Only built with the CUDA backend;
// the element's CUDA context must be current for every call. Streaming thread only.
#pragma once

#include <vector>

#include "dpx/device.h"
#include "dpx/status.h"
#include "gstdpxstaging.h"

typedef struct CUevent_st* cudaEvent_t;

namespace gstdpx {

class CudaFrames {
 public:
  CudaFrames() = default;
  ~CudaFrames() { release(); }
  CudaFrames(const CudaFrames&) = delete;
  CudaFrames& operator=(const CudaFrames&) = delete;

  /* Streams, and `slots` slots (grown, never shrunk, while frames may be in flight). */
  dpx::Status ensure(unsigned slots);
  void release();

  cudaStream_t upload_stream() const { return upload_.get(); }
  cudaStream_t work_stream() const { return work_.get(); }
  CudaStager& stager(unsigned slot) { return slots_[slot].stager; }

  /* The work stream waits for everything enqueued on the upload stream so far. */
  dpx::Status work_after_uploads();
  /* Marks the end of `slot`'s frame on the work stream; wait() blocks until it has run. */
  dpx::Status record(unsigned slot);
  dpx::Status wait(unsigned slot);

 private:
  struct Slot {
    CudaStager stager;
    cudaEvent_t done = nullptr;
  };
  dpx::Stream upload_, work_;
  cudaEvent_t uploaded_ = nullptr;
  std::vector<Slot> slots_;
};

}  // namespace gstdpx
