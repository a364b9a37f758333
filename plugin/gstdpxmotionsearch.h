// The search side of dpxmotionest: the previous frame's luma plane (the reference), the previous
// frame's vectors (a start of the predictive search) and, per in-flight slot, a frame's vectors
// until the frame completes. Everything lives where the search runs: host memory on the CPU,
// device memory on CUDA, where the vectors also get a pinned host copy enqueued on the frame's
// stream. Frames are searched in stream order, so the reference and the previous field are one
// each, however many frames are in flight. Streaming thread only; on CUDA the element's context is
// current for every call.
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <vector>

#include "dpx/device.h"
#include "dpx/motion.h"
#include "gstdpxfilter.h"

namespace gstdpx {

// One frame's vectors, readable on the host once the frame's work has run.
struct MotionResult {
  bool searched = false;  // the frame had a reference: the fields below are its vectors
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  GstClockTime reference_pts = GST_CLOCK_TIME_NONE;
  dpx::MotionGrid grid;
  const dpx::MotionVector* vectors = nullptr;         // host memory
  const dpx::MotionVector* device_vectors = nullptr;  // CUDA: the device copy; nullptr on the CPU

  // Where the vectors are kept (reused from frame to frame).
  dpx::MotionField field;  // the CPU's output
  dpx::DeviceBuffer device;
  dpx::PinnedBuffer pinned;
};

class MotionSearcher {
 public:
  // Searches the plane of `job` (the luma of the frame with presentation time `pts`) against the
  // reference when there is one of the same size and type and the frame continues the chain
  // (`discont` false); then keeps the plane as the next frame's reference. The vectors land in
  // result(job->slot).
  dpx::Status process(const GstDpxPlaneJob& job, const dpx::MotionParams& params, GstClockTime pts,
                      bool discont);

  // The result of the frame in `slot` (see MotionResult::searched).
  const MotionResult& result(unsigned slot) const { return results_[slot]; }

  // The next frame starts a new chain (a flush, new caps or a new backend).
  void forget_reference() { reference_.valid = false; }
  // Frees the memory (on CUDA with the element's context current).
  void reset();

 private:
  // The previous frame's luma plane, kept where the search runs.
  struct ReferencePlane {
    bool valid = false;
    dpx::PlaneView view;  // data: host or device
    GstClockTime pts = GST_CLOCK_TIME_NONE;
    std::vector<std::uint8_t> host;
    dpx::DeviceBuffer device;
  };
  // The last frame's vectors on `grid` (empty when the last frame had none), in the memory of the
  // search that made them.
  struct PreviousField {
    dpx::MotionGrid grid;
    std::vector<dpx::MotionVector> host;
    dpx::DeviceBuffer device;
  };

  dpx::Status search(const GstDpxPlaneJob& job, const dpx::MotionParams& params, MotionResult* out);
  dpx::Status store_reference(const GstDpxPlaneJob& job);

  ReferencePlane reference_;
  PreviousField previous_;
  std::vector<MotionResult> results_;  // one per in-flight slot
};

}  // namespace gstdpx
