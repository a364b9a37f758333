/* GstDpxFilter: the element side of the dpx base class — properties, GstBaseTransform vfuncs and
 * the frame loop. See gstdpxfilter.h for what subclasses implement and where the other concerns
 * live. */
#include "gstdpxfilter.h"

#include <mutex>
#include <string>

#include "gstdpxallocation.h"
#include "gstdpxhostcopy.h"

#if DPX_HAVE_CUDA
#include <gst/cuda/gstcudamemory.h>

#include "gstdpxstaging.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_dpx_filter_debug);
#define GST_CAT_DEFAULT gst_dpx_filter_debug

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
};

#define DEFAULT_BACKEND GST_DPX_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1

struct _GstDpxFilterPrivate
{
  explicit _GstDpxFilterPrivate (GstElement * element):device (element)
  {
  }

  std::mutex lock;              /* guards backend_prop */
  GstDpxBackend backend_prop = DEFAULT_BACKEND;
  gstdpx::CudaDevice device;

  /* Streaming state (start/stop, set_caps and the streaming thread). */
  GstDpxBackend decided_for = DEFAULT_BACKEND;  /* the property value `backend` was decided for */
  bool backend_ready = false;   /* false after a failed decision or setup: retried every frame */
  dpx::Backend backend = dpx::Backend::kCpu;
  bool negotiated = false;
  gstdpx::FrameLayout layout;
#if DPX_HAVE_CUDA
  gstdpx::CudaStager stager;
#endif
};

#define gst_dpx_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstDpxFilter, gst_dpx_filter, GST_TYPE_VIDEO_FILTER);

/* ------------------------------------------------------------------------------------------ */
/* Caps */

#if DPX_HAVE_CUDA
/* The formats GstCudaMemory of GStreamer 1.22 can lay out: its allocator aborts on any other
 * (GRAY8 and GRAY16_LE among them), so CUDA-memory caps never offer those. */
#define CUDA_MEMORY_FORMATS \
  "{ I420, YV12, Y42B, NV12, NV21, P010_10LE, P016_LE, I420_10LE, I422_10LE, I422_12LE, Y444, " \
  "Y444_16LE, BGRA, RGBA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, BGR10A2_LE, RGB10A2_LE }"
#endif

static std::string
raw_video_caps (const gchar * formats)
{
  return std::string ("video/x-raw, format = (string) ") + formats +
      ", width = " GST_VIDEO_SIZE_RANGE ", height = " GST_VIDEO_SIZE_RANGE
      ", framerate = " GST_VIDEO_FPS_RANGE;
}

GstCaps *
gst_dpx_filter_make_caps (const gchar * formats)
{
  GstCaps *system = gst_caps_from_string (raw_video_caps (formats).c_str ());
#if DPX_HAVE_CUDA
  GstCaps *layouts = gst_caps_from_string (raw_video_caps (CUDA_MEMORY_FORMATS).c_str ());
  GstCaps *cuda = gst_caps_intersect (system, layouts);
  gst_caps_unref (layouts);
  if (!gst_caps_is_empty (cuda)) {
    gst_caps_set_features_simple (cuda, gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, nullptr));
    return gst_caps_merge (cuda, system);
  }
  gst_caps_unref (cuda);
#endif
  return system;
}

/* ------------------------------------------------------------------------------------------ */
/* Backend and subclass state */

/* Calls the subclass's reset with the CUDA context current. */
static void
reset_subclass (GstDpxFilter * self)
{
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  if (klass->reset == nullptr)
    return;
  gstdpx::CudaDevice::Current current (self->priv->device);
  klass->reset (self);
}

/* Calls the subclass's setup for the negotiated format and the decided backend. */
static bool
setup_subclass (GstDpxFilter * self)
{
  GstDpxFilterPrivate *priv = self->priv;
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  if (!priv->negotiated || klass->setup == nullptr)
    return true;
  gstdpx::CudaDevice::Current current (priv->device);
  return klass->setup (self, &priv->layout.info (), priv->backend);
}

static GstDpxBackend
requested_backend (GstDpxFilter * self)
{
  std::lock_guard < std::mutex > lk (self->priv->lock);
  return self->priv->backend_prop;
}

/* Decides the backend for `requested` and sets the subclass up for it. An explicit backend=cuda
 * that cannot be used is an element error, never a silent CPU run; auto falls back to the CPU
 * and says so in the log. */
static bool
apply_backend (GstDpxFilter * self, GstDpxBackend requested)
{
  GstDpxFilterPrivate *priv = self->priv;
  reset_subclass (self);
  priv->decided_for = requested;
  priv->backend_ready = false;
  std::string why;
  if (!gstdpx::decide_backend (requested, priv->device, &priv->backend, &why)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("backend=cuda was requested but CUDA cannot be used"), ("%s", why.c_str ()));
    return false;
  }
  if (requested == GST_DPX_BACKEND_AUTO && priv->backend == dpx::Backend::kCpu)
    GST_INFO_OBJECT (self, "backend: cpu (auto: %s)", why.c_str ());
  else
    GST_INFO_OBJECT (self, "backend: %s (requested)", dpx::backend_name (priv->backend));
  if (!setup_subclass (self)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("Setting up the %s backend failed",
            dpx::backend_name (priv->backend)), (nullptr));
    return false;
  }
  priv->backend_ready = true;
  return true;
}

/* Drops the CUDA side: streams, staging and the context (found again on the next start). */
static void
release_cuda (GstDpxFilter * self)
{
#if DPX_HAVE_CUDA
  {
    gstdpx::CudaDevice::Current current (self->priv->device);
    self->priv->stager.release ();
  }
#endif
  self->priv->device.release ();
}

const gstdpx::FrameLayout *
gst_dpx_filter_get_layout (GstDpxFilter * filter)
{
  g_return_val_if_fail (GST_IS_DPX_FILTER (filter), nullptr);
  return &filter->priv->layout;
}

gboolean
gst_dpx_filter_map_frame (GstDpxFilter * filter, GstVideoFrame * frame, GstBuffer * buffer,
    GstMapFlags flags, const char *what)
{
  std::string why;
  if (filter->priv->layout.map (frame, buffer, flags, &why))
    return TRUE;
  GST_ELEMENT_ERROR (filter, STREAM, FORMAT, ("Invalid video buffer"), ("%s buffer: %s", what,
          why.c_str ()));
  return FALSE;
}

/* ------------------------------------------------------------------------------------------ */
/* GObject / GstElement */

static void
gst_dpx_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstDpxFilter *self = GST_DPX_FILTER (object);
  switch (prop_id) {
    case PROP_BACKEND:{
      std::lock_guard < std::mutex > lk (self->priv->lock);
      self->priv->backend_prop = static_cast<GstDpxBackend> (g_value_get_enum (value));
      break;
    }
    case PROP_CUDA_DEVICE_ID:
      self->priv->device.set_device_id (g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_dpx_filter_get_property (GObject * object, guint prop_id, GValue * value, GParamSpec * pspec)
{
  GstDpxFilter *self = GST_DPX_FILTER (object);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum (value, requested_backend (self));
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, self->priv->device.device_id ());
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_dpx_filter_finalize (GObject * object)
{
  GstDpxFilter *self = GST_DPX_FILTER (object);
  release_cuda (self);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_dpx_filter_set_context (GstElement * element, GstContext * context)
{
  GST_DPX_FILTER (element)->priv->device.handle_set_context (context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* ------------------------------------------------------------------------------------------ */
/* GstBaseTransform */

static gboolean
gst_dpx_filter_start (GstBaseTransform * trans)
{
  GstDpxFilter *self = GST_DPX_FILTER (trans);
  self->priv->negotiated = false;
  return apply_backend (self, requested_backend (self));
}

static gboolean
gst_dpx_filter_stop (GstBaseTransform * trans)
{
  GstDpxFilter *self = GST_DPX_FILTER (trans);
  reset_subclass (self);
  self->priv->negotiated = false;
  self->priv->backend = dpx::Backend::kCpu;
  release_cuda (self);
  return TRUE;
}

static gboolean
gst_dpx_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  /* GstVideoFilter parses the caps and calls set_info; it makes elements without
   * transform_frame in-place, so the mode is set after it. */
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->set_caps (trans, incaps, outcaps))
    return FALSE;
  gst_base_transform_set_in_place (trans, GST_DPX_FILTER_GET_CLASS (trans)->analysis_only);
  gst_base_transform_set_passthrough (trans, FALSE);
  return TRUE;
}

static gboolean
gst_dpx_filter_set_info (GstVideoFilter * vfilter, GstCaps * incaps, GstVideoInfo * in_info,
    GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstDpxFilter *self = GST_DPX_FILTER (vfilter);
  GstDpxFilterPrivate *priv = self->priv;
  std::string why;
  reset_subclass (self);
  priv->negotiated = false;
  if (GST_VIDEO_INFO_FORMAT (in_info) != GST_VIDEO_INFO_FORMAT (out_info) ||
      in_info->width != out_info->width || in_info->height != out_info->height) {
    GST_ERROR_OBJECT (self, "input and output caps differ: %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
        incaps, outcaps);
    return FALSE;
  }
  if (!priv->layout.set (*in_info, &why)) {
    GST_ERROR_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT ": %s", incaps, why.c_str ());
    return FALSE;
  }
  /* CUDA-memory caps need the context for buffer pools, whatever the backend. */
  if ((gstdpx::caps_are_cuda_memory (incaps) || gstdpx::caps_are_cuda_memory (outcaps)) &&
      !priv->device.ensure (&why)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("memory:CUDAMemory caps but CUDA cannot be used"),
        ("%s", why.c_str ()));
    return FALSE;
  }
  priv->negotiated = true;
  if (priv->backend_ready && !setup_subclass (self)) {
    GST_ERROR_OBJECT (self, "setup failed for %" GST_PTR_FORMAT, incaps);
    priv->negotiated = false;
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_dpx_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      GST_DPX_FILTER (trans)->priv->device.handle_context_query (query))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

/* kAnswered and kRefused are final (TRUE, FALSE); kDefault leaves the query to GstBaseTransform. */
static bool
allocation_settled (gstdpx::AllocationReply reply, gboolean * result)
{
  *result = reply == gstdpx::AllocationReply::kAnswered;
  return reply != gstdpx::AllocationReply::kDefault;
}

static gboolean
gst_dpx_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query, GstQuery * query)
{
  GstDpxFilterPrivate *priv = GST_DPX_FILTER (trans)->priv;
  gboolean result;
  if (allocation_settled (gstdpx::propose_allocation (priv->device, priv->backend, query), &result))
    return result;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans, decide_query, query);
}

static gboolean
gst_dpx_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstDpxFilterPrivate *priv = GST_DPX_FILTER (trans)->priv;
  gboolean result;
  if (allocation_settled (gstdpx::decide_allocation (priv->device, priv->backend, query), &result))
    return result;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
}

/* Brings controllable properties to this buffer's stream time, before begin_frame's snapshot. */
static void
gst_dpx_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  const GstClockTime stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

/* ------------------------------------------------------------------------------------------ */
/* Frames */

struct FrameWork
{
  GstVideoFrame *in;
  GstVideoFrame *out;           /* nullptr in analysis mode */
  guint planes;                 /* bit mask of the planes process_plane gets */
  bool in_on_device;
  bool out_on_device;
};

static dpx::Status
process_on_cpu (GstDpxFilter * self, const FrameWork & w)
{
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  const gstdpx::FrameLayout & layout = self->priv->layout;
  for (guint p = 0; p < layout.n_planes (); ++p) {
    const dpx::PlaneView src = layout.view (w.in, p).as_const ();
    const dpx::MutablePlaneView dst = w.out ? layout.view (w.out, p) : dpx::MutablePlaneView{};
    if (w.planes & (1u << p)) {
      const GstDpxPlaneJob job = { p, src, dst, dpx::Backend::kCpu, nullptr, w.in->buffer };
      DPX_RETURN_IF_ERROR (klass->process_plane (self, &job));
    } else if (w.out) {
      gstdpx::copy_plane (src, dst);
    }
  }
  return dpx::Status::ok ();
}

#if DPX_HAVE_CUDA
/* Enqueues every plane on the element's streams: uploads what is on the host, runs the
 * subclass, downloads to host outputs, copies the planes it does not process. */
static dpx::Status
enqueue_on_cuda (GstDpxFilter * self, const FrameWork & w)
{
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  const gstdpx::FrameLayout & layout = self->priv->layout;
  gstdpx::CudaStager & stager = self->priv->stager;
  if (!stager.ready ())
    DPX_RETURN_IF_ERROR (stager.init ());
  for (guint p = 0; p < layout.n_planes (); ++p) {
    const dpx::PlaneView src = layout.view (w.in, p).as_const ();
    const dpx::MutablePlaneView dst = w.out ? layout.view (w.out, p) : dpx::MutablePlaneView{};
    if (w.planes & (1u << p)) {
      dpx::PlaneView dev_src = src;
      if (!w.in_on_device)
        DPX_RETURN_IF_ERROR (stager.upload (p, src, &dev_src));
      dpx::MutablePlaneView dev_dst = dst;
      if (w.out && !w.out_on_device)
        DPX_RETURN_IF_ERROR (stager.output_plane (p, src, &dev_dst));
      const GstDpxPlaneJob job = { p, dev_src, dev_dst, dpx::Backend::kCuda, stager.stream_for (p), w.in->buffer };
      DPX_RETURN_IF_ERROR (klass->process_plane (self, &job));
      if (w.out && !w.out_on_device)
        DPX_RETURN_IF_ERROR (stager.download (p, dev_dst.as_const (), dst));
    } else if (w.out) {
      if (w.out_on_device)
        DPX_RETURN_IF_ERROR (stager.copy_to_device (p, src, w.in_on_device, dst));
      else if (w.in_on_device)
        DPX_RETURN_IF_ERROR (stager.download (p, src, dst));
      else
        gstdpx::copy_plane (src, dst);
    }
  }
  return dpx::Status::ok ();
}

/* Runs the frame with the context current (the caller holds it) and waits for it. */
static dpx::Status
process_on_cuda (GstDpxFilter * self, const FrameWork & w)
{
  const dpx::Status enqueued = enqueue_on_cuda (self, w);
  /* Wait even after a failure: nothing may still write into buffers about to be released. */
  const dpx::Status finished = self->priv->stager.finish ();
  return enqueued.is_ok ()? finished : enqueued;
}
#endif

/* Maps the frame(s) and runs every plane on the decided backend; errors are posted here. */
static GstFlowReturn
process_frame (GstDpxFilter * self, FrameWork & w, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstDpxFilterPrivate *priv = self->priv;
  const bool cuda = priv->backend == dpx::Backend::kCuda;
#if DPX_HAVE_CUDA
  w.in_on_device = cuda && priv->device.holds (inbuf);
  w.out_on_device = cuda && outbuf != nullptr && priv->device.holds (outbuf);
  const int map_cuda = GST_MAP_CUDA;
#else
  const int map_cuda = 0;
#endif
  GST_LOG_OBJECT (self, "frame on %s: input %s, output %s", dpx::backend_name (priv->backend),
      w.in_on_device ? "in device memory" : "in host memory",
      outbuf == nullptr ? "none" : w.out_on_device ? "in device memory" : "in host memory");
  GstVideoFrame in_frame, out_frame;
  if (!gst_dpx_filter_map_frame (self, &in_frame, inbuf,
          static_cast<GstMapFlags> (GST_MAP_READ | (w.in_on_device ? map_cuda : 0)), "input"))
    return GST_FLOW_ERROR;
  w.in = &in_frame;
  if (outbuf != nullptr) {
    if (!gst_dpx_filter_map_frame (self, &out_frame, outbuf,
            static_cast<GstMapFlags> (GST_MAP_WRITE | (w.out_on_device ? map_cuda : 0)), "output")) {
      gst_video_frame_unmap (&in_frame);
      return GST_FLOW_ERROR;
    }
    w.out = &out_frame;
  }
#if DPX_HAVE_CUDA
  const dpx::Status st = cuda ? process_on_cuda (self, w) : process_on_cpu (self, w);
#else
  (void) cuda;
  const dpx::Status st = process_on_cpu (self, w);
#endif
  if (w.out)
    gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  if (!st.is_ok ()) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Processing a frame failed"), ("%s (%s backend)",
            st.message ().c_str (), dpx::backend_name (priv->backend)));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* One frame: `outbuf` is the output in filter mode, nullptr in analysis mode. */
static GstFlowReturn
run_frame (GstDpxFilter * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstDpxFilterPrivate *priv = self->priv;
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  if (!priv->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (nullptr), ("no caps before the first buffer"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  /* A new `backend`, or one that failed before: decide again from this frame on. */
  const GstDpxBackend requested = requested_backend (self);
  if ((requested != priv->decided_for || !priv->backend_ready) && !apply_backend (self, requested))
    return GST_FLOW_ERROR;

  /* Every CUDA call of the frame, frame_done's included, runs in the element's context. */
  gstdpx::CudaDevice::Current current (priv->device);
  if (priv->backend == dpx::Backend::kCuda && !current.pushed ()) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Processing a frame failed"),
        ("cannot make the CUDA context current"));
    return GST_FLOW_ERROR;
  }
  FrameWork w = { nullptr, nullptr, klass->begin_frame (self, &priv->layout.info (), inbuf) &
        priv->layout.all_planes (), false, false };
  if (outbuf != nullptr || w.planes != 0) {
    const GstFlowReturn ret = process_frame (self, w, inbuf, outbuf);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  return klass->frame_done ? klass->frame_done (self, outbuf ? outbuf : inbuf) : GST_FLOW_OK;
}

static GstFlowReturn
gst_dpx_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf)
{
  return run_frame (GST_DPX_FILTER (trans), inbuf, outbuf);
}

static GstFlowReturn
gst_dpx_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  return run_frame (GST_DPX_FILTER (trans), buf, nullptr);
}

/* ------------------------------------------------------------------------------------------ */

static void
gst_dpx_filter_class_init (GstDpxFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);

  gobject_class->set_property = gst_dpx_filter_set_property;
  gobject_class->get_property = gst_dpx_filter_get_property;
  gobject_class->finalize = gst_dpx_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are processed: auto (CUDA when a device is usable, else the CPU), cuda or cpu",
          GST_TYPE_DPX_BACKEND, DEFAULT_BACKEND,
          static_cast<GParamFlags> (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
              G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "The CUDA device to use (-1 = automatic: a neighbour's device, else the first)",
          -1, G_MAXINT, DEFAULT_CUDA_DEVICE_ID,
          static_cast<GParamFlags> (G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
              G_PARAM_STATIC_STRINGS)));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_dpx_filter_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_dpx_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_dpx_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_dpx_filter_set_caps);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_dpx_filter_query);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_dpx_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_dpx_filter_decide_allocation);
  trans_class->before_transform = GST_DEBUG_FUNCPTR (gst_dpx_filter_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_dpx_filter_transform);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_dpx_filter_transform_ip);

  vfilter_class->set_info = GST_DEBUG_FUNCPTR (gst_dpx_filter_set_info);

  gst_type_mark_as_plugin_api (GST_TYPE_DPX_FILTER, static_cast<GstPluginAPIFlags> (0));
  gst_type_mark_as_plugin_api (GST_TYPE_DPX_BACKEND, static_cast<GstPluginAPIFlags> (0));
  GST_DEBUG_CATEGORY_INIT (gst_dpx_filter_debug, "dpxfilter", 0, "dpx filter base class");
}

static void
gst_dpx_filter_init (GstDpxFilter * self)
{
  self->priv = new GstDpxFilterPrivate (GST_ELEMENT_CAST (self));
}
