/* GstDpxFilter: the element side of the dpx base class — properties, GstBaseTransform vfuncs, and
 * what is decided once per caps or backend (the frame layout, the path and depth of the frame
 * pipeline). Frames themselves run in gstdpxframepipeline.h. See gstdpxfilter.h for what
 * subclasses implement and where the other concerns live. */
#include "gstdpxfilter.h"

#include <atomic>
#include <mutex>
#include <string>

#include "gstdpxallocation.h"
#include "gstdpxframepipeline.h"

#if DPX_HAVE_CUDA
#include <gst/cuda/gstcudamemory.h>
#endif

/* Shared with the frame pipeline, which logs for the element. */
GST_DEBUG_CATEGORY(gst_dpx_filter_debug);
#define GST_CAT_DEFAULT gst_dpx_filter_debug

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
  PROP_STATS,
};

#define DEFAULT_BACKEND GST_DPX_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1
#define DEFAULT_FRAMES_IN_FLIGHT -1
#define MAX_FRAMES_IN_FLIGHT 8
/* What `frames-in-flight` = -1 picks on CUDA (update_auto_depth). */
#define AUTO_IN_FLIGHT_SYSTEM_MEMORY 2
#define AUTO_IN_FLIGHT_CUDA_MEMORY 1

struct _GstDpxFilterPrivate {
  explicit _GstDpxFilterPrivate(GstDpxFilter* filter)
      : device(GST_ELEMENT_CAST(filter)), pipeline(filter, device, layout, stats) {}

  std::mutex lock; /* guards backend_prop and frames_in_flight_prop */
  GstDpxBackend backend_prop = DEFAULT_BACKEND;
  gint frames_in_flight_prop = DEFAULT_FRAMES_IN_FLIGHT;
  gstdpx::CudaDevice device;

  /* Streaming state (start/stop, set_caps and the streaming thread). */
  GstDpxBackend decided_for = DEFAULT_BACKEND; /* the property value `backend` was decided for */
  bool backend_ready = false; /* false after a failed decision or setup: retried every frame */
  bool negotiated = false;
  gstdpx::FrameLayout layout;
  /* Frames in flight with frames-in-flight=-1, for the negotiated memory and the backend. */
  unsigned auto_depth = 0;
  bool cuda_caps = false;   /* the input caps are memory:CUDAMemory */
  gstdpx::FrameStats stats; /* the `stats` property, since start */
  gstdpx::FramePipeline pipeline;
  std::atomic<unsigned> latency_depth{0}; /* the pipeline's depth, for LATENCY queries */
};

#define gst_dpx_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE(GstDpxFilter, gst_dpx_filter, GST_TYPE_VIDEO_FILTER);

/* ------------------------------------------------------------------------------------------ */
/* Caps */

#if DPX_HAVE_CUDA
/* The formats GstCudaMemory of GStreamer 1.22 can lay out: its allocator aborts on any other
 * (GRAY8 and GRAY16_LE among them), so CUDA-memory caps never offer those. */
#define CUDA_MEMORY_FORMATS                                                                     \
  "{ I420, YV12, Y42B, NV12, NV21, P010_10LE, P016_LE, I420_10LE, I422_10LE, I422_12LE, Y444, " \
  "Y444_16LE, BGRA, RGBA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, BGR10A2_LE, RGB10A2_LE }"
#endif

static std::string raw_video_caps(const gchar* formats) {
  return std::string("video/x-raw, format = (string) ") + formats +
         ", width = " GST_VIDEO_SIZE_RANGE ", height = " GST_VIDEO_SIZE_RANGE
         ", framerate = " GST_VIDEO_FPS_RANGE;
}

GstCaps* gst_dpx_filter_make_caps(const gchar* formats) {
  GstCaps* system = gst_caps_from_string(raw_video_caps(formats).c_str());
#if DPX_HAVE_CUDA
  GstCaps* layouts = gst_caps_from_string(raw_video_caps(CUDA_MEMORY_FORMATS).c_str());
  GstCaps* cuda = gst_caps_intersect(system, layouts);
  gst_caps_unref(layouts);
  if (!gst_caps_is_empty(cuda)) {
    gst_caps_set_features_simple(cuda, gst_caps_features_new(GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
    return gst_caps_merge(cuda, system);
  }
  gst_caps_unref(cuda);
#endif
  return system;
}

/* ------------------------------------------------------------------------------------------ */
/* Backend and subclass state */

/* Calls the subclass's reset with the CUDA context current. */
static void reset_subclass(GstDpxFilter* self) {
  GstDpxFilterClass* klass = GST_DPX_FILTER_GET_CLASS(self);
  if (klass->reset == nullptr) return;
  gstdpx::CudaDevice::Current current(self->priv->device);
  klass->reset(self);
}

/* Calls the subclass's setup for the negotiated format and the decided backend. */
static bool setup_subclass(GstDpxFilter* self) {
  GstDpxFilterPrivate* priv = self->priv;
  GstDpxFilterClass* klass = GST_DPX_FILTER_GET_CLASS(self);
  if (!priv->negotiated || klass->setup == nullptr) return true;
  gstdpx::CudaDevice::Current current(priv->device);
  return klass->setup(self, &priv->layout.info(), priv->pipeline.backend());
}

static GstDpxBackend requested_backend(GstDpxFilter* self) {
  std::lock_guard<std::mutex> lk(self->priv->lock);
  return self->priv->backend_prop;
}

/* The frames kept in flight with frames-in-flight=-1, chosen once per caps and backend: on CUDA,
 * system memory keeps two frames in flight so that both copy directions and the kernels stay
 * busy, CUDA memory one, so a frame's kernels run while the neighbours copy the frames before and
 * after it; the CPU completes each frame as it arrives. */
static void update_auto_depth(GstDpxFilter* self) {
  GstDpxFilterPrivate* priv = self->priv;
  if (!priv->pipeline.on_cuda())
    priv->auto_depth = 0;
  else
    priv->auto_depth = priv->cuda_caps ? AUTO_IN_FLIGHT_CUDA_MEMORY : AUTO_IN_FLIGHT_SYSTEM_MEMORY;
}

/* Decides the backend for `requested` and sets the subclass up for it. An explicit backend=cuda
 * that cannot be used is an element error, never a silent CPU run; auto falls back to the CPU
 * and says so in the log. */
static bool apply_backend(GstDpxFilter* self, GstDpxBackend requested) {
  GstDpxFilterPrivate* priv = self->priv;
  reset_subclass(self);
  priv->decided_for = requested;
  priv->backend_ready = false;
  std::string why;
  dpx::Backend backend = dpx::Backend::kCpu;
  const bool usable = gstdpx::decide_backend(requested, priv->device, &backend, &why);
  priv->pipeline.set_backend(backend);
  update_auto_depth(self);
  if (!usable) {
    GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND, ("backend=cuda was requested but CUDA cannot be used"),
                      ("%s", why.c_str()));
    return false;
  }
  if (requested == GST_DPX_BACKEND_AUTO && backend == dpx::Backend::kCpu)
    GST_INFO_OBJECT(self, "backend: cpu (auto: %s)", why.c_str());
  else
    GST_INFO_OBJECT(self, "backend: %s (requested)", dpx::backend_name(backend));
  if (!setup_subclass(self)) {
    GST_ELEMENT_ERROR(self, CORE, FAILED, ("Setting up the %s backend failed", dpx::backend_name(backend)),
                      (nullptr));
    return false;
  }
  priv->backend_ready = true;
  return true;
}

/* Drops the CUDA side: streams, staging and the context (READY->NULL, finalize). */
static void release_cuda(GstDpxFilter* self) {
  self->priv->pipeline.release_cuda();
  self->priv->device.release();
}

const gstdpx::FrameLayout* gst_dpx_filter_get_layout(GstDpxFilter* filter) {
  g_return_val_if_fail(GST_IS_DPX_FILTER(filter), nullptr);
  return &filter->priv->layout;
}

gboolean gst_dpx_filter_map_frame(GstDpxFilter* filter, GstVideoFrame* frame, GstBuffer* buffer,
                                  GstMapFlags flags, const char* what) {
  std::string why;
  if (filter->priv->layout.map(frame, buffer, flags, &why)) return TRUE;
  GST_ELEMENT_ERROR(filter, STREAM, FORMAT, ("Invalid video buffer"), ("%s buffer: %s", what, why.c_str()));
  return FALSE;
}

/* ------------------------------------------------------------------------------------------ */
/* GObject / GstElement */

static void gst_dpx_filter_set_property(GObject* object, guint prop_id, const GValue* value,
                                        GParamSpec* pspec) {
  GstDpxFilter* self = GST_DPX_FILTER(object);
  switch (prop_id) {
    case PROP_BACKEND: {
      std::lock_guard<std::mutex> lk(self->priv->lock);
      self->priv->backend_prop = static_cast<GstDpxBackend>(g_value_get_enum(value));
      break;
    }
    case PROP_CUDA_DEVICE_ID:
      self->priv->device.set_device_id(g_value_get_int(value));
      break;
    case PROP_FRAMES_IN_FLIGHT: {
      std::lock_guard<std::mutex> lk(self->priv->lock);
      self->priv->frames_in_flight_prop = g_value_get_int(value);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

static void gst_dpx_filter_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstDpxFilter* self = GST_DPX_FILTER(object);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum(value, requested_backend(self));
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int(value, self->priv->device.device_id());
      break;
    case PROP_FRAMES_IN_FLIGHT: {
      std::lock_guard<std::mutex> lk(self->priv->lock);
      g_value_set_int(value, self->priv->frames_in_flight_prop);
      break;
    }
    case PROP_STATS:
      g_value_take_boxed(value, self->priv->stats.snapshot());
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

static void gst_dpx_filter_finalize(GObject* object) {
  GstDpxFilter* self = GST_DPX_FILTER(object);
  release_cuda(self);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(parent_class)->finalize(object);
}

static void gst_dpx_filter_set_context(GstElement* element, GstContext* context) {
  GST_DPX_FILTER(element)->priv->device.handle_set_context(context);
  GST_ELEMENT_CLASS(parent_class)->set_context(element, context);
}

/* ------------------------------------------------------------------------------------------ */
/* GstBaseTransform */

/* Completes and pushes the frames in flight, oldest first. */
static GstFlowReturn drain_in_flight(GstDpxFilter* self) {
  return self->priv->pipeline.drain(GST_BASE_TRANSFORM_SRC_PAD(self));
}

/* The CUDA context kept from an earlier run is used again (making one is costly); the CPU
 * backend drops it. */
static gboolean gst_dpx_filter_start(GstBaseTransform* trans) {
  GstDpxFilter* self = GST_DPX_FILTER(trans);
  const GstDpxBackend requested = requested_backend(self);
  self->priv->negotiated = false;
  self->priv->stats.reset();
  self->priv->device.start(requested != GST_DPX_BACKEND_CPU);
  return apply_backend(self, requested);
}

/* Per-stream CUDA resources go; the context stays until READY->NULL. */
static gboolean gst_dpx_filter_stop(GstBaseTransform* trans) {
  GstDpxFilter* self = GST_DPX_FILTER(trans);
  self->priv->pipeline.drop();
  reset_subclass(self);
  self->priv->negotiated = false;
  self->priv->pipeline.release_cuda();
  self->priv->pipeline.set_backend(dpx::Backend::kCpu);
  self->priv->device.stop();
  return TRUE;
}

static GstStateChangeReturn gst_dpx_filter_change_state(GstElement* element, GstStateChange transition) {
  const GstStateChangeReturn ret = GST_ELEMENT_CLASS(parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) release_cuda(GST_DPX_FILTER(element));
  return ret;
}

static gboolean gst_dpx_filter_set_caps(GstBaseTransform* trans, GstCaps* incaps, GstCaps* outcaps) {
  /* GstVideoFilter parses the caps and calls set_info; it makes elements without
   * transform_frame in-place, so the mode is set after it. */
  if (!GST_BASE_TRANSFORM_CLASS(parent_class)->set_caps(trans, incaps, outcaps)) return FALSE;
  gst_base_transform_set_in_place(trans, GST_DPX_FILTER_GET_CLASS(trans)->analysis_only);
  gst_base_transform_set_passthrough(trans, FALSE);
  return TRUE;
}

static gboolean gst_dpx_filter_set_info(GstVideoFilter* vfilter, GstCaps* incaps, GstVideoInfo* in_info,
                                        GstCaps* outcaps, GstVideoInfo* out_info) {
  GstDpxFilter* self = GST_DPX_FILTER(vfilter);
  GstDpxFilterPrivate* priv = self->priv;
  std::string why;
  /* Frames of the old caps leave first (caps changes from a reconfigure come without a CAPS
   * event, which drains them otherwise). */
  drain_in_flight(self);
  reset_subclass(self);
  priv->negotiated = false;
  if (GST_VIDEO_INFO_FORMAT(in_info) != GST_VIDEO_INFO_FORMAT(out_info) ||
      in_info->width != out_info->width || in_info->height != out_info->height) {
    GST_ERROR_OBJECT(self, "input and output caps differ: %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps,
                     outcaps);
    return FALSE;
  }
  if (!priv->layout.set(*in_info, &why)) {
    GST_ERROR_OBJECT(self, "unsupported caps %" GST_PTR_FORMAT ": %s", incaps, why.c_str());
    return FALSE;
  }
  /* CUDA-memory caps need the context for buffer pools, whatever the backend. */
  if ((gstdpx::caps_are_cuda_memory(incaps) || gstdpx::caps_are_cuda_memory(outcaps)) &&
      !priv->device.ensure(&why)) {
    GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND, ("memory:CUDAMemory caps but CUDA cannot be used"),
                      ("%s", why.c_str()));
    return FALSE;
  }
  priv->cuda_caps = gstdpx::caps_are_cuda_memory(incaps);
  update_auto_depth(self);
  priv->negotiated = true;
  if (priv->backend_ready && !setup_subclass(self)) {
    GST_ERROR_OBJECT(self, "setup failed for %" GST_PTR_FORMAT, incaps);
    priv->negotiated = false;
    return FALSE;
  }
  return TRUE;
}

/* Frames in flight delay each frame by `depth` frame durations: added to upstream's latency. */
static gboolean add_in_flight_latency(GstDpxFilter* self, GstQuery* query) {
  GstDpxFilterPrivate* priv = self->priv;
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency(query, &live, &min, &max);
  const GstClockTime ours =
      priv->negotiated ? gstdpx::in_flight_latency(priv->latency_depth, priv->layout.info()) : 0;
  GST_DEBUG_OBJECT(self, "latency of frames in flight: %" GST_TIME_FORMAT, GST_TIME_ARGS(ours));
  min += ours;
  if (GST_CLOCK_TIME_IS_VALID(max)) max += ours;
  gst_query_set_latency(query, live, min, max);
  return TRUE;
}

static gboolean gst_dpx_filter_query(GstBaseTransform* trans, GstPadDirection direction, GstQuery* query) {
  GstDpxFilter* self = GST_DPX_FILTER(trans);
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT && self->priv->device.handle_context_query(query))
    return TRUE;
  if (!GST_BASE_TRANSFORM_CLASS(parent_class)->query(trans, direction, query)) return FALSE;
  if (GST_QUERY_TYPE(query) == GST_QUERY_LATENCY && direction == GST_PAD_SRC)
    return add_in_flight_latency(self, query);
  return TRUE;
}

/* kAnswered and kRefused are final (TRUE, FALSE); kDefault leaves the query to GstBaseTransform. */
static bool allocation_settled(gstdpx::AllocationReply reply, gboolean* result) {
  *result = reply == gstdpx::AllocationReply::kAnswered;
  return reply != gstdpx::AllocationReply::kDefault;
}

static gboolean gst_dpx_filter_propose_allocation(GstBaseTransform* trans, GstQuery* decide_query,
                                                  GstQuery* query) {
  GstDpxFilterPrivate* priv = GST_DPX_FILTER(trans)->priv;
  gboolean result;
  if (allocation_settled(gstdpx::propose_allocation(priv->device, priv->pipeline.backend(), query), &result))
    return result;
  return GST_BASE_TRANSFORM_CLASS(parent_class)->propose_allocation(trans, decide_query, query);
}

static gboolean gst_dpx_filter_decide_allocation(GstBaseTransform* trans, GstQuery* query) {
  GstDpxFilterPrivate* priv = GST_DPX_FILTER(trans)->priv;
  gboolean result;
  if (allocation_settled(gstdpx::decide_allocation(priv->device, priv->pipeline.backend(), query), &result))
    return result;
  return GST_BASE_TRANSFORM_CLASS(parent_class)->decide_allocation(trans, query);
}

/* Brings controllable properties to this buffer's stream time, before begin_frame's snapshot. */
static void gst_dpx_filter_before_transform(GstBaseTransform* trans, GstBuffer* buffer) {
  /* Stream time exists only in TIME segments (appsrc or a parser may send BYTES ones). */
  if (trans->segment.format != GST_FORMAT_TIME) return;
  const GstClockTime stream_time =
      gst_segment_to_stream_time(&trans->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
  if (GST_CLOCK_TIME_IS_VALID(stream_time)) gst_object_sync_values(GST_OBJECT(trans), stream_time);
}

/* ------------------------------------------------------------------------------------------ */
/* Frames */

/* Before a frame: caps must be set, and a new `backend` (or one that failed before) is decided
 * again from this frame on, once the frames in flight on the old one are out. */
static GstFlowReturn prepare_backend(GstDpxFilter* self) {
  GstDpxFilterPrivate* priv = self->priv;
  if (!priv->negotiated) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, (nullptr), ("no caps before the first buffer"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  const GstDpxBackend requested = requested_backend(self);
  if (requested == priv->decided_for && priv->backend_ready) return GST_FLOW_OK;
  const GstFlowReturn drained = drain_in_flight(self);
  if (drained != GST_FLOW_OK) return drained;
  return apply_backend(self, requested) ? GST_FLOW_OK : GST_FLOW_ERROR;
}

/* The frames to keep in flight for the decided backend and the negotiated memory. */
static unsigned wanted_depth(GstDpxFilter* self) {
  GstDpxFilterPrivate* priv = self->priv;
  gint prop;
  {
    std::lock_guard<std::mutex> lk(priv->lock);
    prop = priv->frames_in_flight_prop;
  }
  return prop >= 0 ? static_cast<unsigned>(prop) : priv->auto_depth;
}

/* One frame at a time: `outbuf` is the output in filter mode, nullptr in analysis mode. */
static GstFlowReturn run_frame(GstDpxFilter* self, GstBuffer* inbuf, GstBuffer* outbuf) {
  const GstFlowReturn ret = prepare_backend(self);
  return ret == GST_FLOW_OK ? self->priv->pipeline.run(inbuf, outbuf) : ret;
}

static GstFlowReturn gst_dpx_filter_transform(GstBaseTransform* trans, GstBuffer* inbuf, GstBuffer* outbuf) {
  return run_frame(GST_DPX_FILTER(trans), inbuf, outbuf);
}

static GstFlowReturn gst_dpx_filter_transform_ip(GstBaseTransform* trans, GstBuffer* buf) {
  return run_frame(GST_DPX_FILTER(trans), buf, nullptr);
}

/* With frames in flight: the input queued by submit_input_buffer (QoS and controller sync done)
 * gets its output buffer (timestamps, flags and metas copied) and is started; the oldest frame
 * is pushed once more than `depth` are in flight. Without, GstBaseTransform's one-frame path. */
static GstFlowReturn gst_dpx_filter_generate_output(GstBaseTransform* trans, GstBuffer** outbuf) {
  GstDpxFilter* self = GST_DPX_FILTER(trans);
  GstDpxFilterPrivate* priv = self->priv;
  *outbuf = nullptr;
  if (trans->queued_buf == nullptr) return GST_FLOW_OK;
  GstFlowReturn ret = prepare_backend(self);
  const unsigned depth = wanted_depth(self);
  if (ret == GST_FLOW_OK && depth != priv->pipeline.depth()) {
    ret = drain_in_flight(self);
    priv->pipeline.set_depth(depth);
    priv->latency_depth = depth;
    GST_INFO_OBJECT(self, "%u frames in flight", depth);
    gst_element_post_message(GST_ELEMENT_CAST(self), gst_message_new_latency(GST_OBJECT_CAST(self)));
  }
  if (ret != GST_FLOW_OK) {
    gst_clear_buffer(&trans->queued_buf);
    return ret;
  }
  if (depth == 0) return GST_BASE_TRANSFORM_CLASS(parent_class)->generate_output(trans, outbuf);

  GstBuffer* inbuf = trans->queued_buf;
  trans->queued_buf = nullptr;
  GstBuffer* out = nullptr;
  {
    gstdpx::FrameStats::Timer timer(priv->stats, gstdpx::FrameStats::kAllocate);
    ret = GST_BASE_TRANSFORM_GET_CLASS(trans)->prepare_output_buffer(trans, inbuf, &out);
  }
  if (ret == GST_FLOW_OK && out == nullptr) ret = GST_FLOW_ERROR;
  if (ret != GST_FLOW_OK) {
    if (out != inbuf) gst_clear_buffer(&out);
    gst_buffer_unref(inbuf);
    return ret;
  }
  if (GST_DPX_FILTER_GET_CLASS(self)->analysis_only && out != inbuf) {
    gst_buffer_unref(inbuf); /* analysed in place: the writable copy is the frame */
    inbuf = out;
  }
  GstBuffer* done = nullptr;
  ret = priv->pipeline.submit(inbuf, out, &done);
  /* Pushed here rather than handed back: GstBaseTransform would mark the older frame with the
   * DISCONT of the input that just arrived. */
  return ret == GST_FLOW_OK && done != nullptr ? gst_pad_push(GST_BASE_TRANSFORM_SRC_PAD(trans), done) : ret;
}

static gboolean gst_dpx_filter_sink_event(GstBaseTransform* trans, GstEvent* event) {
  GstDpxFilter* self = GST_DPX_FILTER(trans);
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP)
    self->priv->pipeline.drop();
  else if (GST_EVENT_IS_SERIALIZED(event))
    drain_in_flight(self); /* frames before the event leave before it */
  return GST_BASE_TRANSFORM_CLASS(parent_class)->sink_event(trans, event);
}

cudaStream_t gst_dpx_filter_get_stream(GstDpxFilter* filter) {
  return filter->priv->pipeline.stream();
}

gboolean gst_dpx_filter_buffer_on_device(GstDpxFilter* filter, GstBuffer* buffer) {
  return filter->priv->pipeline.on_cuda() && filter->priv->device.holds(buffer);
}

/* ------------------------------------------------------------------------------------------ */

static void gst_dpx_filter_class_init(GstDpxFilterClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstVideoFilterClass* vfilter_class = GST_VIDEO_FILTER_CLASS(klass);

  gobject_class->set_property = gst_dpx_filter_set_property;
  gobject_class->get_property = gst_dpx_filter_get_property;
  gobject_class->finalize = gst_dpx_filter_finalize;

  g_object_class_install_property(
      gobject_class, PROP_BACKEND,
      g_param_spec_enum(
          "backend", "Backend",
          "Where frames are processed: auto (CUDA when a device is usable, else the CPU), cuda or cpu",
          GST_TYPE_DPX_BACKEND, DEFAULT_BACKEND,
          static_cast<GParamFlags>(G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int(
          "cuda-device-id", "CUDA device ID",
          "The CUDA device to use (-1 = automatic: a neighbour's device, else the first)", -1, G_MAXINT,
          DEFAULT_CUDA_DEVICE_ID,
          static_cast<GParamFlags>(G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_int(
          "frames-in-flight", "Frames in flight",
          "Frames held while their work runs, each adding one frame of latency (-1 = automatic: "
          "2 on CUDA with system memory, 1 on CUDA memory, 0 on the CPU)",
          -1, MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
          static_cast<GParamFlags>(G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, PROP_STATS,
      g_param_spec_boxed(
          "stats", "Statistics",
          "Frames completed since the element started and the mean time a frame spends on the streaming "
          "thread in each stage, in microseconds: allocate-us (the output buffer, with frames in flight), "
          "map-input-us and map-output-us (mapping; for CUDA memory this waits for the producer's stream), "
          "process-us (the CPU work, or enqueueing the CUDA work), wait-us (waiting for a frame's CUDA work)",
          GST_TYPE_STRUCTURE, static_cast<GParamFlags>(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  element_class->set_context = GST_DEBUG_FUNCPTR(gst_dpx_filter_set_context);
  element_class->change_state = GST_DEBUG_FUNCPTR(gst_dpx_filter_change_state);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR(gst_dpx_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_dpx_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR(gst_dpx_filter_set_caps);
  trans_class->query = GST_DEBUG_FUNCPTR(gst_dpx_filter_query);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR(gst_dpx_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR(gst_dpx_filter_decide_allocation);
  trans_class->before_transform = GST_DEBUG_FUNCPTR(gst_dpx_filter_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR(gst_dpx_filter_transform);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR(gst_dpx_filter_transform_ip);
  trans_class->generate_output = GST_DEBUG_FUNCPTR(gst_dpx_filter_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_dpx_filter_sink_event);

  vfilter_class->set_info = GST_DEBUG_FUNCPTR(gst_dpx_filter_set_info);

  gst_type_mark_as_plugin_api(GST_TYPE_DPX_FILTER, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_BACKEND, static_cast<GstPluginAPIFlags>(0));
  GST_DEBUG_CATEGORY_INIT(gst_dpx_filter_debug, "dpxfilter", 0, "dpx filter base class");
}

static void gst_dpx_filter_init(GstDpxFilter* self) {
  self->priv = new GstDpxFilterPrivate(self);
}
