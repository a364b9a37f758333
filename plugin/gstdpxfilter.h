/* GstDpxFilter: the base class of the dpx video elements.
 *
 * It owns what every element of the plugin shares, one concern per file:
 *  - this file: the element (GObject, the `backend`, `cuda-device-id` and `frames-in-flight`
 *    properties, the GstBaseTransform vfuncs) and the subclass interface;
 *  - gstdpxcudacontext.h: where frames run (the one decision of `backend`) and the
 *    GstCudaContext, shared with neighbours through GstContext;
 *  - gstdpxallocation.h: buffer pools (CUDA memory, pinned host memory) for both pads;
 *  - gstdpxframelayout.h: the planes of the negotiated format, worked out once per caps;
 *  - gstdpxframepipeline.h: the frame pipeline: frames started (mapped, run on the CPU or
 *    enqueued on CUDA) and completed (waited for, unmapped, frame_done), with frames in flight
 *    between the two (gstdpxinflight.h) and the CUDA streams, events and device copies of frames
 *    (gstdpxcudaframes.h, gstdpxstaging.h).
 * A subclass sees one plane at a time through `process_plane`, or on the CUDA backend every plane
 * of the frame at once through `process_planes`.
 *
 * Two modes, chosen in class_init:
 *  - filter (the default): a new output buffer; planes the subclass does not ask for are copied;
 *  - analysis (`analysis_only = TRUE`): the buffer passes through with its pixels unchanged and
 *    writable metadata; the subclass reads the planes it asks for (e.g. luma for motion search).
 *
 * On the CUDA backend views are device pointers: system-memory frames are staged through pinned
 * memory with asynchronous copies, CUDA-memory frames of the element's context are used in place.
 * On the CUDA backend the element's CUDA context is current during setup, process_plane(s),
 * frame_done and reset.
 *
 * Frames in flight (`frames-in-flight`, both modes): a frame's work is
 * enqueued when it arrives and the frame is pushed once `depth` newer frames have been started,
 * so on CUDA the upload of one frame overlaps the kernels and downloads of the one before and the
 * element never waits for the GPU while it has other work; the host synchronises once per frame,
 * on a frame that is normally complete already (GStreamer 1.22's CUDA memory carries no stream, so
 * a buffer must be complete when it leaves). The element reports the added latency, drains on EOS
 * and every other serialized event (caps, segment, gap, ...), drops frames in flight on a flush
 * or stop (after their frame_done: what a subclass reports never depends on the depth), and keeps
 * each frame's timestamps, flags and metas. With 0 frames in flight (the CPU backend by default)
 * each frame is complete when transform returns.
 *
 * Properties flagged GST_PARAM_CONTROLLABLE follow their GstControlBindings: the base class
 * syncs them to each buffer's stream time before begin_frame takes its snapshot.
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/gstvideofilter.h>
#include <gst/video/video.h>

#include "dpx/device.h"
#include "dpx/plane.h"
#include "dpx/status.h"
#include "gstdpxcudacontext.h"
#include "gstdpxframelayout.h"

G_BEGIN_DECLS

// clang-format off
#define GST_TYPE_DPX_FILTER            (gst_dpx_filter_get_type ())
#define GST_DPX_FILTER(obj)            (G_TYPE_CHECK_INSTANCE_CAST ((obj), GST_TYPE_DPX_FILTER, GstDpxFilter))
#define GST_DPX_FILTER_CLASS(klass)    (G_TYPE_CHECK_CLASS_CAST ((klass), GST_TYPE_DPX_FILTER, GstDpxFilterClass))
#define GST_DPX_FILTER_GET_CLASS(obj)  (G_TYPE_INSTANCE_GET_CLASS ((obj), GST_TYPE_DPX_FILTER, GstDpxFilterClass))
#define GST_IS_DPX_FILTER(obj)         (G_TYPE_CHECK_INSTANCE_TYPE ((obj), GST_TYPE_DPX_FILTER))
// clang-format on

typedef struct _GstDpxFilter GstDpxFilter;
typedef struct _GstDpxFilterClass GstDpxFilterClass;
typedef struct _GstDpxFilterPrivate GstDpxFilterPrivate;

/* One plane of one frame, handed to process_plane. */
typedef struct {
  guint plane;               /* index of the plane in the frame */
  dpx::PlaneView src;        /* the input plane */
  dpx::MutablePlaneView dst; /* the output plane; data == nullptr in analysis mode */
  dpx::Backend backend;      /* kCuda: src/dst are device pointers; kCpu: host pointers */
  cudaStream_t stream;       /* kCuda: enqueue all work on it (the base class synchronises
                              * before the buffer leaves); nullptr on the CPU */
  GstBuffer* buffer;         /* the input buffer (analysis mode: writable, for metadata) */
  guint slot;                /* the frame's in-flight slot, as given to begin_frame */
} GstDpxPlaneJob;

struct _GstDpxFilter {
  GstVideoFilter parent;

  /*< private >*/
  GstDpxFilterPrivate* priv;
};

struct _GstDpxFilterClass {
  GstVideoFilterClass parent_class;

  /* TRUE: analysis mode (in place, pixels unchanged); FALSE (default): filter mode. */
  gboolean analysis_only;

  /* Negotiated caps or a new backend: prepare per-stream state for `info` on `backend` (the
   * base class's decision; a subclass keeps it rather than deciding again). Called again after
   * reset(); may be NULL. */
  gboolean (*setup)(GstDpxFilter* filter, const GstVideoInfo* info, dpx::Backend backend);

  /* Once per frame, before any plane: returns the bit mask of the planes process_plane gets
   * (bit i = plane i). Take a snapshot of properties here so they apply from this frame on.
   * Filter mode copies the other planes; 0 makes the frame a plain copy (or, in analysis mode,
   * skips it). `slot` (0 .. frames in flight) names the frame until frame_done: state a subclass
   * keeps for one frame is kept per slot, because newer frames start before it completes.
   * Required. */
  guint (*begin_frame)(GstDpxFilter* filter, const GstVideoInfo* info, GstBuffer* inbuf, guint slot);

  /* One plane of the current frame. Required. */
  dpx::Status (*process_plane)(GstDpxFilter* filter, const GstDpxPlaneJob* job);

  /* CUDA backend only: every plane begin_frame asked for, `n_jobs` of them, all on one stream, in
   * one call (e.g. one kernel launch). kUnsupported hands the planes to process_plane one by one
   * instead. May be NULL. */
  dpx::Status (*process_planes)(GstDpxFilter* filter, const GstDpxPlaneJob* jobs, guint n_jobs);

  /* After every plane of the frame is complete (CUDA work synchronised): e.g. attach metadata to
   * `buffer` (the output in filter mode, the writable input in analysis mode). Frames complete
   * in the order they began, `slot` as given to begin_frame. May be NULL. */
  GstFlowReturn (*frame_done)(GstDpxFilter* filter, GstBuffer* buffer, guint slot);

  /* Drops what setup made: on stop, before a new setup, on a backend change. May be NULL. */
  void (*reset)(GstDpxFilter* filter);
};

GType gst_dpx_filter_get_type(void);

/* The planes of the negotiated format (valid from setup on). */
const gstdpx::FrameLayout* gst_dpx_filter_get_layout(GstDpxFilter* filter);

/* Maps `buffer` as the negotiated format and checks that every plane lies inside it; on failure
 * posts an element error naming `what` ("input", ...) and returns FALSE with nothing mapped. */
gboolean gst_dpx_filter_map_frame(GstDpxFilter* filter, GstVideoFrame* frame, GstBuffer* buffer,
                                  GstMapFlags flags, const char* what);

/* The stream of the CUDA backend's frame work, for GPU work in frame_done (the caller
 * synchronises it); nullptr on the CPU or before the first frame. */
cudaStream_t gst_dpx_filter_get_stream(GstDpxFilter* filter);

/* TRUE when `buffer` is CUDA memory the element processes in place (CUDA backend, its context). */
gboolean gst_dpx_filter_buffer_on_device(GstDpxFilter* filter, GstBuffer* buffer);

/* Caps for `formats` ("{ GRAY8, NV12 }") on system memory, preceded, when this build has the CUDA
 * backend, by memory:CUDAMemory caps for those of them GstCudaMemory can hold. Free with
 * gst_caps_unref. */
GstCaps* gst_dpx_filter_make_caps(const gchar* formats);

G_END_DECLS
