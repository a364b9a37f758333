/* GstDpxFilter: backend choice, CUDA context, allocation and per-plane frame mapping shared by
 * the dpx elements. See gstdpxfilter.h for what subclasses implement. */
#include "gstdpxfilter.h"

#include <mutex>
#include <string>

#include "gstdpxhostcopy.h"

#if DPX_HAVE_CUDA
#ifndef GST_USE_UNSTABLE_API
#define GST_USE_UNSTABLE_API
#endif
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "gstdpxpinned.h"
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
  std::mutex lock;              /* guards the properties and `context` */
  GstDpxBackend backend_prop = DEFAULT_BACKEND;
  gint device_id = DEFAULT_CUDA_DEVICE_ID;

  /* Streaming state (start/stop, set_caps and the streaming thread). */
  GstDpxBackend resolved_from = DEFAULT_BACKEND;        /* the property value `backend` came from */
  dpx::Backend backend = dpx::Backend::kCpu;
  bool negotiated = false;
  GstVideoInfo info;
#if DPX_HAVE_CUDA
  GstCudaContext *context = nullptr;
  gstdpx::CudaStager stager;
#endif
};

GType
gst_dpx_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_DPX_BACKEND_AUTO, "CUDA when a device is usable, else the CPU", "auto"},
    {GST_DPX_BACKEND_CUDA, "CUDA (fails to start without a usable device)", "cuda"},
    {GST_DPX_BACKEND_CPU, "CPU", "cpu"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDpxBackend", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_dpx_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstDpxFilter, gst_dpx_filter, GST_TYPE_VIDEO_FILTER);

/* ------------------------------------------------------------------------------------------ */
/* Formats and planes */

gboolean
gst_dpx_filter_plane_layout (const GstVideoInfo * info, guint plane, int *channels,
    dpx::SampleType * type)
{
  const GstVideoFormatInfo *f = info->finfo;
  if (f == nullptr || plane >= GST_VIDEO_INFO_N_PLANES (info))
    return FALSE;
  if (GST_VIDEO_FORMAT_INFO_IS_COMPLEX (f) || GST_VIDEO_FORMAT_INFO_HAS_PALETTE (f) ||
      GST_VIDEO_FORMAT_INFO_IS_TILED (f))
    return FALSE;
  const guint depth = GST_VIDEO_FORMAT_INFO_DEPTH (f, 0);
  const int bytes = depth <= 8 ? 1 : 2;
  if (bytes == 2 && !GST_VIDEO_FORMAT_INFO_IS_LE (f))
    return FALSE;
  /* The components stored in this plane: one sample each per pixel, all at the same
   * subsampling (no 4:2:2 packed formats, where chroma shares a pixel with two lumas). */
  int first = -1;
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (f); ++c) {
    if (GST_VIDEO_FORMAT_INFO_PLANE (f, c) != plane)
      continue;
    if (GST_VIDEO_FORMAT_INFO_DEPTH (f, c) != depth)
      return FALSE;
    if (first < 0) {
      first = static_cast<int> (c);
    } else if (GST_VIDEO_FORMAT_INFO_W_SUB (f, c) != GST_VIDEO_FORMAT_INFO_W_SUB (f, first) ||
        GST_VIDEO_FORMAT_INFO_H_SUB (f, c) != GST_VIDEO_FORMAT_INFO_H_SUB (f, first)) {
      return FALSE;
    }
  }
  if (first < 0)
    return FALSE;
  const int pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (f, first);
  const int ch = pstride / bytes;
  if (pstride % bytes != 0 || (ch != 1 && ch != 2 && ch != 4))
    return FALSE;
  *channels = ch;
  *type = bytes == 1 ? dpx::SampleType::kU8 : dpx::SampleType::kU16;
  return TRUE;
}

/* The first component stored in `plane` (its width and height are the plane's). */
static guint
plane_component (const GstVideoFormatInfo * f, guint plane)
{
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (f); ++c) {
    if (GST_VIDEO_FORMAT_INFO_PLANE (f, c) == plane)
      return c;
  }
  return 0;
}

static gboolean
format_supported (const GstVideoInfo * info)
{
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); ++p) {
    int channels;
    dpx::SampleType type;
    if (!gst_dpx_filter_plane_layout (info, p, &channels, &type))
      return FALSE;
  }
  return TRUE;
}

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

/* The view of plane `p` of a mapped frame (host or device pointers, as mapped). */
static dpx::MutablePlaneView
frame_plane (const GstVideoFrame * frame, guint p)
{
  dpx::MutablePlaneView v;
  gst_dpx_filter_plane_layout (&frame->info, p, &v.channels, &v.type);
  const guint c = plane_component (frame->info.finfo, p);
  v.data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
  v.width = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
  v.height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
  v.pitch = static_cast<std::size_t> (GST_VIDEO_FRAME_PLANE_STRIDE (frame, p));
  return v;
}

/* Checks that every plane a mapped frame describes (offsets and strides from its GstVideoMeta
 * or from the caps) lies inside the buffer: a short buffer is an error, not a crash. */
static bool
frame_fits_buffer (const GstVideoFrame * frame, std::string * why)
{
  const gsize size = gst_buffer_get_size (frame->buffer);
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); ++p) {
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    const dpx::MutablePlaneView v = frame_plane (frame, p);
    if (stride < 0 || static_cast<std::size_t> (stride) < v.row_bytes ()) {
      *why = "plane " + std::to_string (p) + " has stride " + std::to_string (stride) +
          " for rows of " + std::to_string (v.row_bytes ()) + " bytes";
      return false;
    }
    const std::size_t end = GST_VIDEO_FRAME_PLANE_OFFSET (frame, p) +
        static_cast<std::size_t> (stride) * (v.height - 1) + v.row_bytes ();
    if (end > size) {
      *why = "buffer of " + std::to_string (size) + " bytes ends before plane " +
          std::to_string (p) + " (which needs " + std::to_string (end) + " bytes)";
      return false;
    }
  }
  return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Backend and CUDA context */

#if DPX_HAVE_CUDA
/* Makes the element's CUDA context current for the lifetime of the guard. */
class ContextGuard
{
public:
  explicit ContextGuard (GstCudaContext * ctx):pushed_ (ctx != nullptr
      && gst_cuda_context_push (ctx))
  {
  }
  ~ContextGuard ()
  {
    if (pushed_)
      gst_cuda_context_pop (nullptr);
  }
  bool pushed () const
  {
    return pushed_;
  }
  ContextGuard (const ContextGuard &) = delete;
  ContextGuard & operator= (const ContextGuard &) = delete;

private:
  bool pushed_;
};

static GstCudaContext *
current_context (GstDpxFilter * self)
{
  std::lock_guard < std::mutex > lk (self->priv->lock);
  return self->priv->context;
}

/* Finds or creates the CUDA context: neighbours first (GstContext query, need-context), else a new
 * one that is then announced. gst-cuda stores what it finds through set_context() on this element,
 * which fills priv->context, and checks that same pointer; so the search gets priv->context
 * itself and runs without the lock, which set_context() takes. */
static bool
ensure_context (GstDpxFilter * self, std::string * why)
{
  GstDpxFilterPrivate *priv = self->priv;
  if (current_context (self) != nullptr)
    return true;
  if (dpx::cuda_device_count () == 0) {
    *why = "no usable CUDA device";
    return false;
  }
  if (!gst_cuda_load_library ()) {
    *why = "the CUDA driver library could not be loaded";
    return false;
  }
  gint device_id;
  {
    std::lock_guard < std::mutex > lk (priv->lock);
    device_id = priv->device_id;
  }
  if (!gst_cuda_ensure_element_context (GST_ELEMENT_CAST (self), device_id, &priv->context)) {
    *why = "no CUDA context for device " + std::to_string (device_id);
    return false;
  }
  return true;
}

/* True when every memory of `buffer` is CUDA memory of the element's context, so frames can be
 * mapped with GST_MAP_CUDA and used in place. */
static bool
is_own_cuda_memory (GstDpxFilter * self, GstBuffer * buffer)
{
  GstCudaContext *ctx = current_context (self);
  const guint n = gst_buffer_n_memory (buffer);
  if (ctx == nullptr || n == 0)
    return false;
  for (guint i = 0; i < n; ++i) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    if (!gst_is_cuda_memory (mem) || GST_CUDA_MEMORY_CAST (mem)->context != ctx)
      return false;
  }
  return true;
}

static bool
caps_are_cuda_memory (GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);
  return features && gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}
#endif

/* Calls the subclass's reset with the CUDA context current. */
static void
reset_subclass (GstDpxFilter * self)
{
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  if (klass->reset == nullptr)
    return;
#if DPX_HAVE_CUDA
  ContextGuard guard (current_context (self));
#endif
  klass->reset (self);
}

/* Calls the subclass's setup for the negotiated info and current backend. */
static bool
setup_subclass (GstDpxFilter * self)
{
  GstDpxFilterPrivate *priv = self->priv;
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  if (!priv->negotiated || klass->setup == nullptr)
    return true;
#if DPX_HAVE_CUDA
  ContextGuard guard (current_context (self));
#endif
  return klass->setup (self, &priv->info, priv->backend);
}

/* Turns the `backend` property into the backend frames run on; posts an element error and
 * returns false when CUDA is required but not usable. */
static bool
resolve_backend (GstDpxFilter * self, GstDpxBackend requested)
{
  GstDpxFilterPrivate *priv = self->priv;
  priv->resolved_from = requested;
  priv->backend = dpx::Backend::kCpu;
  if (requested == GST_DPX_BACKEND_CPU) {
    GST_INFO_OBJECT (self, "backend: cpu (requested)");
    return true;
  }
  std::string why;
#if DPX_HAVE_CUDA
  if (ensure_context (self, &why)) {
    ContextGuard guard (current_context (self));
    dpx::Status st = guard.pushed () ? (priv->stager.ready () ? dpx::Status::ok () : priv->stager.init ())
        : dpx::Status (dpx::StatusCode::kCudaError, "cannot make the CUDA context current");
    if (st.is_ok ()) {
      priv->backend = dpx::Backend::kCuda;
      GST_INFO_OBJECT (self, "backend: cuda (requested %s)",
          requested == GST_DPX_BACKEND_AUTO ? "auto" : "cuda");
      return true;
    }
    why = st.message ();
  }
#else
  why = "this build of the plugin has no CUDA backend";
#endif
  if (requested == GST_DPX_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("backend=cuda was requested but CUDA cannot be used"), ("%s", why.c_str ()));
    return false;
  }
  GST_INFO_OBJECT (self, "backend: cpu (auto: %s)", why.c_str ());
  return true;
}

/* Drops the CUDA side: streams, staging and the context (found again on the next start). */
static void
release_cuda (GstDpxFilter * self)
{
#if DPX_HAVE_CUDA
  GstDpxFilterPrivate *priv = self->priv;
  {
    ContextGuard guard (current_context (self));
    priv->stager.release ();
  }
  std::lock_guard < std::mutex > lk (priv->lock);
  gst_clear_object (&priv->context);
#else
  (void) self;
#endif
}

dpx::Backend
gst_dpx_filter_get_backend (GstDpxFilter * filter)
{
  g_return_val_if_fail (GST_IS_DPX_FILTER (filter), dpx::Backend::kCpu);
  return filter->priv->backend;
}

/* ------------------------------------------------------------------------------------------ */
/* GObject / GstElement */

static void
gst_dpx_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstDpxFilter *self = GST_DPX_FILTER (object);
  std::lock_guard < std::mutex > lk (self->priv->lock);
  switch (prop_id) {
    case PROP_BACKEND:
      self->priv->backend_prop = static_cast<GstDpxBackend> (g_value_get_enum (value));
      break;
    case PROP_CUDA_DEVICE_ID:
      self->priv->device_id = g_value_get_int (value);
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
  std::lock_guard < std::mutex > lk (self->priv->lock);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum (value, self->priv->backend_prop);
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, self->priv->device_id);
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
#if DPX_HAVE_CUDA
  GstDpxFilter *self = GST_DPX_FILTER (element);
  {
    std::lock_guard < std::mutex > lk (self->priv->lock);
    gst_cuda_handle_set_context (element, context, self->priv->device_id, &self->priv->context);
  }
#endif
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* ------------------------------------------------------------------------------------------ */
/* GstBaseTransform */

static gboolean
gst_dpx_filter_start (GstBaseTransform * trans)
{
  GstDpxFilter *self = GST_DPX_FILTER (trans);
  GstDpxBackend requested;
  {
    std::lock_guard < std::mutex > lk (self->priv->lock);
    requested = self->priv->backend_prop;
  }
  self->priv->negotiated = false;
  return resolve_backend (self, requested);
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
  (void) outcaps;
  if (!format_supported (in_info) || GST_VIDEO_INFO_FORMAT (in_info) != GST_VIDEO_INFO_FORMAT (out_info)
      || in_info->width != out_info->width || in_info->height != out_info->height) {
    GST_ERROR_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
#if DPX_HAVE_CUDA
  /* CUDA-memory caps need the context for buffer pools, whatever the backend. */
  std::string why;
  if ((caps_are_cuda_memory (incaps) || caps_are_cuda_memory (outcaps)) && !ensure_context (self, &why)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("memory:CUDAMemory caps but CUDA cannot be used"),
        ("%s", why.c_str ()));
    return FALSE;
  }
#endif
  reset_subclass (self);
  priv->info = *in_info;
  priv->negotiated = true;
  if (!setup_subclass (self)) {
    GST_ERROR_OBJECT (self, "setup failed for %" GST_PTR_FORMAT, incaps);
    priv->negotiated = false;
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_dpx_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
#if DPX_HAVE_CUDA
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GstDpxFilter *self = GST_DPX_FILTER (trans);
    std::lock_guard < std::mutex > lk (self->priv->lock);
    if (gst_cuda_handle_context_query (GST_ELEMENT_CAST (self), query, self->priv->context))
      return TRUE;
  }
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

#if DPX_HAVE_CUDA
/* Configures `pool` for `caps` and returns the buffer size it settled on (0 on failure). */
static guint
configure_pool (GstBufferPool * pool, GstCaps * caps, guint size, guint min, guint max)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (!gst_buffer_pool_set_config (pool, config))
    return 0;
  config = gst_buffer_pool_get_config (pool);
  guint actual = 0;
  gst_buffer_pool_config_get_params (config, nullptr, &actual, nullptr, nullptr);
  gst_structure_free (config);
  return actual;
}

/* The pool this element offers or uses for `caps` on the CUDA side: CUDA memory for CUDA caps,
 * pinned host memory for system-memory caps on the CUDA backend; nullptr when neither applies. */
static GstBufferPool *
make_cuda_side_pool (GstDpxFilter * self, GstCaps * caps, guint * size)
{
  GstCudaContext *ctx = current_context (self);
  GstVideoInfo info;
  if (ctx == nullptr || !gst_video_info_from_caps (&info, caps))
    return nullptr;
  GstBufferPool *pool = nullptr;
  if (caps_are_cuda_memory (caps)) {
    pool = gst_cuda_buffer_pool_new (ctx);
    *size = configure_pool (pool, caps, GST_VIDEO_INFO_SIZE (&info), 0, 0);
  } else if (self->priv->backend == dpx::Backend::kCuda) {
    pool = gst_dpx_pinned_pool_new (ctx, caps, 0, 0);
    *size = GST_VIDEO_INFO_SIZE (&info);
  }
  if (pool != nullptr && *size == 0)
    gst_clear_object (&pool);
  return pool;
}
#endif

static gboolean
gst_dpx_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query, GstQuery * query)
{
#if DPX_HAVE_CUDA
  GstDpxFilter *self = GST_DPX_FILTER (trans);
  GstCaps *caps = nullptr;
  gboolean need_pool = FALSE;
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (caps == nullptr)
    return FALSE;
  guint size = 0;
  GstBufferPool *pool = make_cuda_side_pool (self, caps, &size);
  if (pool != nullptr) {
    if (need_pool)
      gst_query_add_allocation_pool (query, pool, size, 0, 0);
    /* Upstream's default decide_allocation gives its pool the first allocator of the query:
     * offer the pool's own (the pinned one) so that it is kept. */
    GstStructure *config = gst_buffer_pool_get_config (pool);
    GstAllocator *allocator = nullptr;
    GstAllocationParams params;
    if (gst_buffer_pool_config_get_allocator (config, &allocator, &params) && allocator != nullptr)
      gst_query_add_allocation_param (query, allocator, &params);
    gst_structure_free (config);
    gst_object_unref (pool);
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, nullptr);
    return TRUE;
  }
  if (caps_are_cuda_memory (caps))
    return FALSE;
#endif
  return GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans, decide_query, query);
}

static gboolean
gst_dpx_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
#if DPX_HAVE_CUDA
  GstDpxFilter *self = GST_DPX_FILTER (trans);
  GstCaps *caps = nullptr;
  gst_query_parse_allocation (query, &caps, nullptr);
  if (caps == nullptr)
    return FALSE;
  GstBufferPool *pool = nullptr;
  guint size = 0, min = 0, max = 0;
  const bool has_pool = gst_query_get_n_allocation_pools (query) > 0;
  if (has_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  const bool cuda_caps = caps_are_cuda_memory (caps);
  if (cuda_caps && pool != nullptr && (!GST_IS_CUDA_BUFFER_POOL (pool) ||
          GST_CUDA_BUFFER_POOL (pool)->context != current_context (self))) {
    gst_clear_object (&pool);   /* a pool of another device or memory type: use ours */
  }
  if (pool != nullptr) {
    /* Downstream's pool: system memory (copied through staging) or CUDA memory of our context. */
    gst_object_unref (pool);
    return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
  }
  GstBufferPool *own = make_cuda_side_pool (self, caps, &size);
  if (own == nullptr) {
    if (cuda_caps)
      return FALSE;
    return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
  }
  if (has_pool)
    gst_query_set_nth_allocation_pool (query, 0, own, size, min, max);
  else
    gst_query_add_allocation_pool (query, own, size, min, max);
  gst_object_unref (own);
  /* The pool is configured: the default decide_allocation would replace its allocator. */
  return TRUE;
#else
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* Frames */

/* Applies a change of the `backend` property made while streaming (from this frame on). */
static bool
follow_backend_property (GstDpxFilter * self)
{
  GstDpxFilterPrivate *priv = self->priv;
  GstDpxBackend requested;
  {
    std::lock_guard < std::mutex > lk (priv->lock);
    requested = priv->backend_prop;
  }
  if (requested == priv->resolved_from)
    return true;
  reset_subclass (self);
  if (!resolve_backend (self, requested))
    return false;
  if (!setup_subclass (self)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("setup failed after a backend change"), (nullptr));
    return false;
  }
  return true;
}

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
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (w.in); ++p) {
    const dpx::PlaneView src = frame_plane (w.in, p).as_const ();
    const dpx::MutablePlaneView dst = w.out ? frame_plane (w.out, p) : dpx::MutablePlaneView{};
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
 * subclass, downloads to host outputs, copies the planes it does not process; then waits. */
static dpx::Status
enqueue_on_cuda (GstDpxFilter * self, const FrameWork & w)
{
  GstDpxFilterClass *klass = GST_DPX_FILTER_GET_CLASS (self);
  gstdpx::CudaStager & stager = self->priv->stager;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (w.in); ++p) {
    const dpx::PlaneView src = frame_plane (w.in, p).as_const ();
    const dpx::MutablePlaneView dst = w.out ? frame_plane (w.out, p) : dpx::MutablePlaneView{};
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

static dpx::Status
process_on_cuda (GstDpxFilter * self, const FrameWork & w)
{
  ContextGuard guard (current_context (self));
  if (!guard.pushed ())
    return dpx::Status (dpx::StatusCode::kCudaError, "cannot make the CUDA context current");
  const dpx::Status enqueued = enqueue_on_cuda (self, w);
  /* Wait even after a failure: nothing may still write into buffers about to be released. */
  const dpx::Status finished = self->priv->stager.finish ();
  return enqueued.is_ok ()? finished : enqueued;
}
#endif

static bool
map_frame (GstDpxFilter * self, GstVideoFrame * frame, GstBuffer * buffer, GstMapFlags flags,
    const char *what)
{
  if (!gst_video_frame_map (frame, &self->priv->info, buffer, flags)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Invalid video buffer"),
        ("cannot map the %s buffer of %" G_GSIZE_FORMAT " bytes as %s %dx%d (%" G_GSIZE_FORMAT
            " bytes)", what, gst_buffer_get_size (buffer),
            GST_VIDEO_INFO_NAME (&self->priv->info), GST_VIDEO_INFO_WIDTH (&self->priv->info),
            GST_VIDEO_INFO_HEIGHT (&self->priv->info), GST_VIDEO_INFO_SIZE (&self->priv->info)));
    return false;
  }
  std::string why;
  if (!frame_fits_buffer (frame, &why)) {
    gst_video_frame_unmap (frame);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Invalid video buffer"), ("%s buffer: %s", what,
            why.c_str ()));
    return false;
  }
  return true;
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
  if (!follow_backend_property (self))
    return GST_FLOW_ERROR;

  const guint all = (1u << GST_VIDEO_INFO_N_PLANES (&priv->info)) - 1;
  FrameWork w = { nullptr, nullptr, klass->begin_frame (self, &priv->info, inbuf) & all, false, false };
  if (outbuf == nullptr && w.planes == 0)
    return klass->frame_done ? klass->frame_done (self, inbuf) : GST_FLOW_OK;

  const bool cuda = priv->backend == dpx::Backend::kCuda;
#if DPX_HAVE_CUDA
  w.in_on_device = cuda && is_own_cuda_memory (self, inbuf);
  w.out_on_device = cuda && outbuf != nullptr && is_own_cuda_memory (self, outbuf);
  const int map_cuda = GST_MAP_CUDA;
#else
  const int map_cuda = 0;
#endif
  GST_LOG_OBJECT (self, "frame on %s: input %s, output %s", dpx::backend_name (priv->backend),
      w.in_on_device ? "in device memory" : "in host memory",
      outbuf == nullptr ? "none" : w.out_on_device ? "in device memory" : "in host memory");
  GstVideoFrame in_frame, out_frame;
  if (!map_frame (self, &in_frame, inbuf,
          static_cast<GstMapFlags> (GST_MAP_READ | (w.in_on_device ? map_cuda : 0)), "input"))
    return GST_FLOW_ERROR;
  w.in = &in_frame;
  if (outbuf != nullptr) {
    if (!map_frame (self, &out_frame, outbuf,
            static_cast<GstMapFlags> (GST_MAP_WRITE | (w.out_on_device ? map_cuda : 0)), "output")) {
      gst_video_frame_unmap (&in_frame);
      return GST_FLOW_ERROR;
    }
    w.out = &out_frame;
  }

  dpx::Status st;
#if DPX_HAVE_CUDA
  st = cuda ? process_on_cuda (self, w) : process_on_cpu (self, w);
#else
  (void) cuda;
  st = process_on_cpu (self, w);
#endif
  if (w.out)
    gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  if (!st.is_ok ()) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Processing a frame failed"), ("%s (%s backend)",
            st.message ().c_str (), dpx::backend_name (priv->backend)));
    return GST_FLOW_ERROR;
  }
  if (klass->frame_done)
    return klass->frame_done (self, outbuf ? outbuf : inbuf);
  return GST_FLOW_OK;
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
  self->priv = new GstDpxFilterPrivate ();
  gst_video_info_init (&self->priv->info);
}
