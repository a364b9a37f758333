// The frame pipeline of GstDpxFilter: what happens to a frame once the element has its buffers.
// A frame is started — its buffers mapped, then processed on the CPU, or on CUDA enqueued (uploads
// on one stream; the subclass's work, the copies of the other planes and the downloads on another;
// an event per in-flight slot) — and later completed: the host waits for the slot's event, staged
// downloads are copied out, the buffers unmapped and the subclass's frame_done called. Up to
// depth() frames stay started and not yet completed (gstdpxinflight.h), so on CUDA the host never
// waits for a frame while it has another to start.
//
// The path (the CPU loop or the CUDA enqueue) is chosen once per backend decision, not per frame.
// Errors are posted on the element here; the caller only passes the GstFlowReturn on.
// Streaming thread only.
#pragma once

#include <gst/video/video.h>

#include "dpx/device.h"
#include "dpx/status.h"
#include "gstdpxframestats.h"
#include "gstdpxinflight.h"

#if DPX_HAVE_CUDA
#include "gstdpxcudaframes.h"
#include "gstdpxhostregistry.h"
#endif

typedef struct _GstDpxFilter GstDpxFilter;

namespace gstdpx {

class CudaDevice;
class FrameLayout;

class FramePipeline {
 public:
  // Runs the subclass of `filter` on frames of `layout`, in the context of `device`, timing its
  // stages into `stats` (all the filter's, outliving the pipeline).
  FramePipeline(GstDpxFilter* filter, CudaDevice& device, const FrameLayout& layout, FrameStats& stats);
  FramePipeline(const FramePipeline&) = delete;
  FramePipeline& operator=(const FramePipeline&) = delete;

  // Where frames run from the next one on; only while no frame is in flight.
  void set_backend(dpx::Backend backend);
  dpx::Backend backend() const { return backend_; }
  bool on_cuda() const { return backend_ == dpx::Backend::kCuda; }

  // Frames held before the oldest is completed; only while none is in flight (drain first).
  unsigned depth() const { return in_flight_.depth(); }
  void set_depth(unsigned depth) { in_flight_.set_depth(depth); }

  // One frame, complete when this returns: `inbuf` -> `outbuf`, or `inbuf` analysed in place
  // (`outbuf` nullptr). The buffers stay the caller's.
  GstFlowReturn run(GstBuffer* inbuf, GstBuffer* outbuf);

  // Starts a frame and keeps it in flight, taking both references (`outbuf` == `inbuf` when the
  // frame is analysed in place). When more than depth() frames are then in flight the oldest is
  // completed and `*done` is its buffer, for the caller to push; else `*done` is nullptr.
  GstFlowReturn submit(GstBuffer* inbuf, GstBuffer* outbuf, GstBuffer** done);

  // Completes every frame in flight and pushes it on `srcpad`, oldest first; after a failed push
  // the rest are dropped and that flow is returned.
  GstFlowReturn drain(GstPad* srcpad);
  // Drops every frame in flight (flush, stop) once nothing writes into it any more; none is
  // pushed, but a subclass with frame_done still gets it for each, oldest first, so that what it
  // reports does not depend on how many frames were in flight.
  void drop();

  // The stream of the CUDA work, for GPU work in frame_done; nullptr on the CPU or before the
  // first frame.
  cudaStream_t stream() const;
  // Frees the CUDA streams, events and staging (made again by the next frame on CUDA).
  void release_cuda();

 private:
  struct FrameWork;
  using Process = dpx::Status (FramePipeline::*)(const FrameWork& w);

  GstFlowReturn start(GstBuffer* inbuf, GstBuffer* outbuf, InFlightFrame* f);
  GstFlowReturn finish(InFlightFrame* f, GstBuffer* buffer);
  void abandon(InFlightFrame* f);
  GstFlowReturn complete_oldest(GstBuffer** outbuf);
  GstFlowReturn failed(const dpx::Status& st);
  GstFlowReturn no_context();

  dpx::Status process_on_cpu(const FrameWork& w);
#if DPX_HAVE_CUDA
  dpx::Status enqueue_on_cuda(const FrameWork& w);
  dpx::Status wait_on_cuda(unsigned slot, bool keep, bool failed);
  void note_host_memory(GstBuffer* buffer);
#endif

  GstDpxFilter* filter_;
  CudaDevice& device_;
  const FrameLayout& layout_;
  FrameStats& stats_;
  dpx::Backend backend_ = dpx::Backend::kCpu;
  Process process_ = &FramePipeline::process_on_cpu;
  InFlightQueue in_flight_;
#if DPX_HAVE_CUDA
  CudaFrames cuda_;
  HostRegistry host_registry_;
#endif
};

}  // namespace gstdpx
