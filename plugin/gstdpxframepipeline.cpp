#include "gstdpxframepipeline.h"

#include "gstdpxcudacontext.h"
#include "gstdpxfilter.h"
#include "gstdpxframelayout.h"
#include "gstdpxhostcopy.h"

#if DPX_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <gst/cuda/gstcudamemory.h>
#endif

GST_DEBUG_CATEGORY_EXTERN(gst_dpx_filter_debug);
#define GST_CAT_DEFAULT gst_dpx_filter_debug

namespace gstdpx {

// One started frame as the paths see it.
struct FramePipeline::FrameWork {
  GstVideoFrame* in;
  GstVideoFrame* out;  // nullptr when analysed in place
  unsigned planes;     // bit mask of the planes process_plane gets
  bool in_on_device;
  bool out_on_device;
  unsigned slot;      // the in-flight slot whose resources the frame uses
  GstBuffer* buffer;  // the input buffer (writable when analysed in place)
};

namespace {

void unmap_frame(InFlightFrame* f) {
  if (f->out_map.buffer != nullptr) gst_video_frame_unmap(&f->out_map);
  if (f->in_map.buffer != nullptr) gst_video_frame_unmap(&f->in_map);
  f->out_map = GstVideoFrame();
  f->in_map = GstVideoFrame();
}

}  // namespace

FramePipeline::FramePipeline(GstDpxFilter* filter, CudaDevice& device, const FrameLayout& layout,
                             FrameStats& stats)
    : filter_(filter), device_(device), layout_(layout), stats_(stats) {}

void FramePipeline::set_backend(dpx::Backend backend) {
  backend_ = backend;
#if DPX_HAVE_CUDA
  process_ = on_cuda() ? &FramePipeline::enqueue_on_cuda : &FramePipeline::process_on_cpu;
#endif
}

GstFlowReturn FramePipeline::failed(const dpx::Status& st) {
  GST_ELEMENT_ERROR(filter_, STREAM, FAILED, ("Processing a frame failed"),
                    ("%s (%s backend)", st.message().c_str(), dpx::backend_name(backend_)));
  return GST_FLOW_ERROR;
}

GstFlowReturn FramePipeline::no_context() {
  return failed(dpx::Status(dpx::StatusCode::kCudaError, "cannot make the CUDA context current"));
}

// ---------------------------------------------------------------------------------------------
// The CPU path: every plane in turn, complete when it returns.

dpx::Status FramePipeline::process_on_cpu(const FrameWork& w) {
  GstDpxFilterClass* klass = GST_DPX_FILTER_GET_CLASS(filter_);
  for (unsigned p = 0; p < layout_.n_planes(); ++p) {
    const dpx::PlaneView src = layout_.view(w.in, p).as_const();
    const dpx::MutablePlaneView dst = w.out ? layout_.view(w.out, p) : dpx::MutablePlaneView{};
    if (w.planes & (1u << p)) {
      const GstDpxPlaneJob job = {p, src, dst, dpx::Backend::kCpu, nullptr, w.buffer, w.slot};
      DPX_RETURN_IF_ERROR(klass->process_plane(filter_, &job));
    } else if (w.out) {
      copy_plane(src, dst);
    }
  }
  return dpx::Status::ok();
}

// ---------------------------------------------------------------------------------------------
// The CUDA path: enqueued when the frame starts, waited for when it completes.

#if DPX_HAVE_CUDA
namespace {

// The subclass's work on the planes: all at once where it can, else plane by plane.
dpx::Status run_jobs(GstDpxFilter* filter, const GstDpxPlaneJob* jobs, unsigned n) {
  GstDpxFilterClass* klass = GST_DPX_FILTER_GET_CLASS(filter);
  if (n == 0) return dpx::Status::ok();
  if (klass->process_planes != nullptr) {
    const dpx::Status st = klass->process_planes(filter, jobs, n);
    if (st.code() != dpx::StatusCode::kUnsupported) return st;
  }
  for (unsigned i = 0; i < n; ++i) DPX_RETURN_IF_ERROR(klass->process_plane(filter, &jobs[i]));
  return dpx::Status::ok();
}

}  // namespace

// Host planes are uploaded on the upload stream; the work stream waits for them, runs the
// subclass on every plane, copies the planes it does not process, downloads to host outputs and
// records the slot's event. Nothing waits here.
dpx::Status FramePipeline::enqueue_on_cuda(const FrameWork& w) {
  DPX_RETURN_IF_ERROR(cuda_.ensure(in_flight_.slots()));
  CudaStager& stager = cuda_.stager(w.slot);
  cudaStream_t up = cuda_.upload_stream(), work = cuda_.work_stream();
  GstDpxPlaneJob jobs[GST_VIDEO_MAX_PLANES];
  unsigned n = 0;
  bool uploads = false;
  for (unsigned p = 0; p < layout_.n_planes(); ++p) {
    const dpx::PlaneView src = layout_.view(w.in, p).as_const();
    const dpx::MutablePlaneView dst = w.out ? layout_.view(w.out, p) : dpx::MutablePlaneView{};
    if (w.planes & (1u << p)) {
      dpx::PlaneView dev_src = src;
      if (!w.in_on_device) DPX_RETURN_IF_ERROR(stager.upload(p, src, up, &dev_src));
      dpx::MutablePlaneView dev_dst = dst;
      if (w.out && !w.out_on_device) DPX_RETURN_IF_ERROR(stager.output_plane(p, src, &dev_dst));
      jobs[n++] = {p, dev_src, dev_dst, dpx::Backend::kCuda, work, w.buffer, w.slot};
      uploads = uploads || !w.in_on_device;
    } else if (w.out && !w.in_on_device) {
      if (w.out_on_device)
        DPX_RETURN_IF_ERROR(stager.copy_to_device(p, src, false, dst, up));
      else
        copy_plane(src, dst);
      uploads = uploads || w.out_on_device;
    }
  }
  if (uploads) DPX_RETURN_IF_ERROR(cuda_.work_after_uploads());
  DPX_RETURN_IF_ERROR(run_jobs(filter_, jobs, n));
  for (unsigned p = 0, j = 0; w.out && p < layout_.n_planes(); ++p) {
    const dpx::MutablePlaneView dst = layout_.view(w.out, p);
    if (w.planes & (1u << p)) {
      if (!w.out_on_device) DPX_RETURN_IF_ERROR(stager.download(p, jobs[j].dst.as_const(), dst, work));
      ++j;
    } else if (w.in_on_device) {
      const dpx::PlaneView src = layout_.view(w.in, p).as_const();
      if (w.out_on_device)
        DPX_RETURN_IF_ERROR(stager.copy_to_device(p, src, true, dst, work));
      else
        DPX_RETURN_IF_ERROR(stager.download(p, src, dst, work));
    }
  }
  return cuda_.record(w.slot);
}

// Blocks until the frame in `slot` has run; then its staged downloads are copied out (`keep`) or
// dropped. Every stream is waited for after a failure: nothing may still write into buffers
// about to be released.
dpx::Status FramePipeline::wait_on_cuda(unsigned slot, bool keep, bool failed) {
  dpx::Status st = failed ? dpx::Status::ok() : cuda_.wait(slot);
  if (failed || !st.is_ok()) {
    cudaStreamSynchronize(cuda_.upload_stream());
    cudaStreamSynchronize(cuda_.work_stream());
    cudaGetLastError();
  }
  CudaStager& stager = cuda_.stager(slot);
  if (keep && st.is_ok() && !failed)
    stager.complete_downloads();
  else
    stager.forget_downloads();
  return st;
}

// Recurring pageable buffers get page-locked, so their copies need no staging.
void FramePipeline::note_host_memory(GstBuffer* buffer) {
  host_registry_.note(buffer, device_.context());
}
#endif

cudaStream_t FramePipeline::stream() const {
#if DPX_HAVE_CUDA
  return on_cuda() ? cuda_.work_stream() : nullptr;
#else
  return nullptr;
#endif
}

void FramePipeline::release_cuda() {
#if DPX_HAVE_CUDA
  CudaDevice::Current current(device_);
  cuda_.release();
#endif
}

// ---------------------------------------------------------------------------------------------
// Frames: started, completed or abandoned.

// Maps `inbuf` -> `outbuf` (nullptr: analysed in place) and runs or enqueues the frame in f->slot.
// On success `f` holds the mappings until finish or abandon; errors are posted here and leave
// nothing mapped. The caller holds the CUDA context.
GstFlowReturn FramePipeline::start(GstBuffer* inbuf, GstBuffer* outbuf, InFlightFrame* f) {
  GstDpxFilterClass* klass = GST_DPX_FILTER_GET_CLASS(filter_);
  FrameWork w = {
      nullptr, nullptr, klass->begin_frame(filter_, &layout_.info(), inbuf, f->slot) & layout_.all_planes(),
      false,   false,   f->slot,
      inbuf};
  if (outbuf == nullptr && w.planes == 0) return GST_FLOW_OK;
#if DPX_HAVE_CUDA
  const bool cuda = on_cuda();
  w.in_on_device = cuda && device_.holds(inbuf);
  w.out_on_device = cuda && outbuf != nullptr && device_.holds(outbuf);
  const int map_cuda = GST_MAP_CUDA;
  if (cuda && !w.in_on_device && w.planes != 0) note_host_memory(inbuf);
  if (cuda && outbuf != nullptr && !w.out_on_device) note_host_memory(outbuf);
#else
  const int map_cuda = 0;
#endif
  GST_LOG_OBJECT(filter_, "frame on %s: input %s, output %s", dpx::backend_name(backend_),
                 w.in_on_device ? "in device memory" : "in host memory",
                 outbuf == nullptr ? "none"
                 : w.out_on_device ? "in device memory"
                                   : "in host memory");
  bool mapped;
  {
    FrameStats::Timer timer(stats_, FrameStats::kMapInput);
    mapped = gst_dpx_filter_map_frame(
        filter_, &f->in_map, inbuf, static_cast<GstMapFlags>(GST_MAP_READ | (w.in_on_device ? map_cuda : 0)),
        "input");
  }
  if (!mapped) return GST_FLOW_ERROR;
  w.in = &f->in_map;
  if (outbuf != nullptr) {
    {
      FrameStats::Timer timer(stats_, FrameStats::kMapOutput);
      mapped = gst_dpx_filter_map_frame(
          filter_, &f->out_map, outbuf,
          static_cast<GstMapFlags>(GST_MAP_WRITE | (w.out_on_device ? map_cuda : 0)), "output");
    }
    if (!mapped) {
      unmap_frame(f);
      return GST_FLOW_ERROR;
    }
    w.out = &f->out_map;
  }
  dpx::Status st;
  {
    FrameStats::Timer timer(stats_, FrameStats::kProcess);
    st = (this->*process_)(w);
  }
  if (st.is_ok()) return GST_FLOW_OK;
#if DPX_HAVE_CUDA
  if (on_cuda()) wait_on_cuda(f->slot, false, true);
#endif
  unmap_frame(f);
  return failed(st);
}

// Waits for a started frame's work, unmaps it and calls frame_done on `buffer` (the output, or
// the input analysed in place). The caller holds the CUDA context.
GstFlowReturn FramePipeline::finish(InFlightFrame* f, GstBuffer* buffer) {
  GstDpxFilterClass* klass = GST_DPX_FILTER_GET_CLASS(filter_);
  dpx::Status st;
#if DPX_HAVE_CUDA
  if (on_cuda() && f->in_map.buffer != nullptr) {
    FrameStats::Timer timer(stats_, FrameStats::kWait);
    st = wait_on_cuda(f->slot, true, false);
  }
#endif
  unmap_frame(f);
  if (!st.is_ok()) return failed(st);
  stats_.frame_completed();
  return klass->frame_done ? klass->frame_done(filter_, buffer, f->slot) : GST_FLOW_OK;
}

// Drops a started frame: waits until nothing writes into it, then releases it.
void FramePipeline::abandon(InFlightFrame* f) {
#if DPX_HAVE_CUDA
  if (on_cuda() && f->in_map.buffer != nullptr) wait_on_cuda(f->slot, false, false);
#endif
  unmap_frame(f);
  gst_clear_buffer(&f->out);
}

GstFlowReturn FramePipeline::run(GstBuffer* inbuf, GstBuffer* outbuf) {
  // Every CUDA call of the frame, frame_done's included, runs in the element's context.
  CudaDevice::Current current(device_);
  if (on_cuda() && !current.pushed()) return no_context();
  InFlightFrame f;
  const GstFlowReturn ret = start(inbuf, outbuf, &f);
  if (ret != GST_FLOW_OK) return ret;
  return finish(&f, outbuf ? outbuf : inbuf);
}

GstFlowReturn FramePipeline::submit(GstBuffer* inbuf, GstBuffer* outbuf, GstBuffer** done) {
  *done = nullptr;
  InFlightFrame f;
  f.out = outbuf;
  GstFlowReturn ret;
  {
    CudaDevice::Current current(device_);
    f.slot = in_flight_.next_slot();
    ret =
        on_cuda() && !current.pushed() ? no_context() : start(inbuf, outbuf == inbuf ? nullptr : outbuf, &f);
  }
  if (inbuf != outbuf) gst_buffer_unref(inbuf);  // the mapped frame holds its own reference
  if (ret != GST_FLOW_OK) {
    gst_clear_buffer(&f.out);
    return ret;
  }
  in_flight_.push(f);
  return in_flight_.over_depth() ? complete_oldest(done) : GST_FLOW_OK;
}

// Completes the oldest frame in flight; on success `*outbuf` is its buffer.
GstFlowReturn FramePipeline::complete_oldest(GstBuffer** outbuf) {
  InFlightFrame f = in_flight_.pop();
  CudaDevice::Current current(device_);
  const GstFlowReturn ret = finish(&f, f.out);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref(f.out);
    return ret;
  }
  *outbuf = f.out;
  return GST_FLOW_OK;
}

GstFlowReturn FramePipeline::drain(GstPad* srcpad) {
  if (!in_flight_.empty())
    GST_DEBUG_OBJECT(filter_, "draining %u frames in flight", static_cast<unsigned>(in_flight_.size()));
  while (!in_flight_.empty()) {
    GstBuffer* out = nullptr;
    GstFlowReturn ret = complete_oldest(&out);
    if (ret == GST_FLOW_OK) ret = gst_pad_push(srcpad, out);
    if (ret != GST_FLOW_OK) {
      drop();
      return ret;
    }
  }
  return GST_FLOW_OK;
}

void FramePipeline::drop() {
  if (in_flight_.empty()) return;
  GST_DEBUG_OBJECT(filter_, "dropping %u frames in flight", static_cast<unsigned>(in_flight_.size()));
  CudaDevice::Current current(device_);
  bool report = GST_DPX_FILTER_GET_CLASS(filter_)->frame_done != nullptr;
  while (!in_flight_.empty()) {
    InFlightFrame f = in_flight_.pop();
    if (report) {
      report = finish(&f, f.out) == GST_FLOW_OK; /* after a failure the rest are only released */
      gst_clear_buffer(&f.out);
    } else {
      abandon(&f);
    }
  }
}

}  // namespace gstdpx
