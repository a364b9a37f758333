/**
 * SECTION:element-dpxdeshake
 * @title: dpxdeshake
 *
 * Video stabilisation. The camera's motion from each frame to the one before is measured on the
 * luma plane (green for RGB formats): block vectors of a downscaled copy (predictive search,
 * quarter pixels), blocks without texture left out, and a similarity (translation, rotation,
 * scale) fitted by RANSAC so that moving objects do not count. The camera path is smoothed by a
 * Gaussian over a window of `smoothing` frames on each side, and every frame is warped (bilinear
 * or bicubic) by the difference between the smoothed and the measured path, limited to
 * `max-shift` pixels and `max-angle` degrees. A frame the fit cannot explain (a scene cut, a
 * flat picture) starts a new path instead of swinging the picture. The parts of the output the
 * moved input leaves are black, the nearest edge pixel, or hidden by a zoom (`border`). Runs on
 * CUDA when a device is usable and on the CPU otherwise, with bit-identical output; frames in CUDA
 * memory stay on the GPU.
 *
 * The window looks `smoothing` frames ahead, so the element holds that many frames and reports
 * them as latency. Every frame comes out, in order, with its timestamps: held frames leave before
 * EOS, caps, segment, gap and stream-start events (the path restarts after them), and are dropped
 * by a flush. A change of `smoothing` while playing lets the held frames out first.
 *
 * Each frame carries a GstDpxDeshakeMeta (gstdpxdeshakemeta.h) with the measured motion and the
 * applied correction; the same figures can go to a JSON-lines file (`location`, checked when the
 * element starts: an unwritable path fails the change to PAUSED; gstdpxmotionfile.h says when it
 * is truncated) and to an element message
 * `dpx-deshake` per frame (`post-messages`).
 *
 * Frames smaller than 64x48 are refused at caps negotiation: they hold too few blocks to measure
 * the camera.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=shaky.mp4 ! decodebin ! videoconvert ! dpxdeshake ! videoconvert ! x264enc
 * ! mp4mux ! filesink location=steady.mp4
 * ]| Stabilises a file.
 * |[
 * gst-launch-1.0 filesrc location=shaky.mp4 ! qtdemux ! h264parse ! nvh264dec ! dpxdeshake border=zoom !
 * cudadownload ! autovideosink
 * ]| Decoded NV12 in CUDA memory, stabilised on the GPU, the border hidden by a zoom.
 */
#define GST_DPX_PLUGIN_BUILD /* the plugin-side declarations of gstdpxdeshakemeta.h */
#include "gstdpxdeshake.h"

#include <cmath>
#include <deque>
#include <mutex>
#include <string>

#include "dpx/stabilise.h"
#include "gstdpxdeshakemeta.h"
#include "gstdpxdeshakereport.h"
#include "gstdpxinflight.h"
#include "gstdpxmotionfile.h"
#include "gstdpxstabiliser.h"

#if DPX_HAVE_CUDA
#include <gst/cuda/gstcudamemory.h>
#endif

GST_DEBUG_CATEGORY_STATIC(gst_dpx_deshake_debug);
#define GST_CAT_DEFAULT gst_dpx_deshake_debug

enum {
  PROP_0,
  PROP_SMOOTHING,
  PROP_MAX_SHIFT,
  PROP_MAX_ANGLE,
  PROP_BORDER,
  PROP_INTERPOLATION,
  PROP_LOCATION,
  PROP_POST_MESSAGES,
};

#define DEFAULT_SMOOTHING 15
#define MAX_SMOOTHING 120
#define DEFAULT_MAX_SHIFT 64.0
#define MAX_MAX_SHIFT 1000.0
#define DEFAULT_MAX_ANGLE 3.0
#define MAX_MAX_ANGLE 45.0
#define DEFAULT_BORDER GST_DPX_DESHAKE_BORDER_BLACK
#define DEFAULT_INTERPOLATION GST_DPX_DESHAKE_INTERPOLATION_BILINEAR
#define DEFAULT_POST_MESSAGES FALSE

#define DPX_DESHAKE_FORMATS                                                                 \
  "{ GRAY8, GRAY16_LE, I420, YV12, Y42B, Y444, NV12, NV21, P010_10LE, P016_LE, Y444_16LE, " \
  "RGBA, BGRA, RGBx, BGRx, ARGB, ABGR }"

constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;

struct DeshakeSettings {
  gint smoothing = DEFAULT_SMOOTHING;
  gdouble max_shift = DEFAULT_MAX_SHIFT;
  gdouble max_angle = DEFAULT_MAX_ANGLE; /* degrees */
  GstDpxDeshakeBorder border = DEFAULT_BORDER;
  GstDpxDeshakeInterpolation interpolation = DEFAULT_INTERPOLATION;
  std::string location;
  bool post_messages = DEFAULT_POST_MESSAGES;
};

/* A frame that arrived and is not out yet. */
struct HeldFrame {
  GstBuffer* buffer = nullptr;
  bool measured = false; /* its motion is in the stabiliser */
  bool restart = false;  /* it follows no frame */
};

struct _GstDpxDeshakePrivate {
  std::mutex lock; /* guards `settings`: properties change while playing */
  DeshakeSettings settings;

  /* Streaming thread only. */
  DeshakeSettings frame_settings; /* of the frame going out */
  gstdpx::Stabiliser stabiliser;
  std::deque<HeldFrame> held;         /* oldest first */
  HeldFrame current;                  /* the frame going out, taken from `held` */
  gint lookahead = DEFAULT_SMOOTHING; /* the frames held: `smoothing` in effect */
  bool draining = false;
  bool restart_next = true;
  bool prepared = false; /* the frame going out has its correction */
  gstdpx::DeshakeFrame out;
  gstdpx::MotionFile file;
  guint64 frames_out = 0; /* since the element started */
};

GType gst_dpx_deshake_border_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_DESHAKE_BORDER_BLACK, "Black where the input does not reach", "black"},
      {GST_DPX_DESHAKE_BORDER_REPLICATE, "The nearest edge pixel of the input", "replicate"},
      {GST_DPX_DESHAKE_BORDER_ZOOM, "A zoom just large enough to hide the border, adapted over time", "zoom"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstDpxDeshakeBorder", values));
  return type;
}

GType gst_dpx_deshake_interpolation_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_DESHAKE_INTERPOLATION_BILINEAR, "Bilinear (2x2 taps)", "bilinear"},
      {GST_DPX_DESHAKE_INTERPOLATION_BICUBIC, "Bicubic, Catmull-Rom (4x4 taps)", "bicubic"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstDpxDeshakeInterpolation", values));
  return type;
}

#define gst_dpx_deshake_parent_class parent_class
G_DEFINE_TYPE(GstDpxDeshake, gst_dpx_deshake, GST_TYPE_DPX_FILTER);
GST_ELEMENT_REGISTER_DEFINE(dpxdeshake, "dpxdeshake", GST_RANK_NONE, GST_TYPE_DPX_DESHAKE);

/* ------------------------------------------------------------------------------------------ */
/* Properties */

static void gst_dpx_deshake_set_property(GObject* object, guint prop_id, const GValue* value,
                                         GParamSpec* pspec) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(object);
  std::lock_guard<std::mutex> lk(self->priv->lock);
  DeshakeSettings& s = self->priv->settings;
  switch (prop_id) {
    case PROP_SMOOTHING:
      s.smoothing = g_value_get_int(value);
      break;
    case PROP_MAX_SHIFT:
      s.max_shift = g_value_get_double(value);
      break;
    case PROP_MAX_ANGLE:
      s.max_angle = g_value_get_double(value);
      break;
    case PROP_BORDER:
      s.border = static_cast<GstDpxDeshakeBorder>(g_value_get_enum(value));
      break;
    case PROP_INTERPOLATION:
      s.interpolation = static_cast<GstDpxDeshakeInterpolation>(g_value_get_enum(value));
      break;
    case PROP_LOCATION: {
      const gchar* path = g_value_get_string(value);
      s.location = path ? path : "";
      break;
    }
    case PROP_POST_MESSAGES:
      s.post_messages = g_value_get_boolean(value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

static void gst_dpx_deshake_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(object);
  std::lock_guard<std::mutex> lk(self->priv->lock);
  const DeshakeSettings& s = self->priv->settings;
  switch (prop_id) {
    case PROP_SMOOTHING:
      g_value_set_int(value, s.smoothing);
      break;
    case PROP_MAX_SHIFT:
      g_value_set_double(value, s.max_shift);
      break;
    case PROP_MAX_ANGLE:
      g_value_set_double(value, s.max_angle);
      break;
    case PROP_BORDER:
      g_value_set_enum(value, s.border);
      break;
    case PROP_INTERPOLATION:
      g_value_set_enum(value, s.interpolation);
      break;
    case PROP_LOCATION:
      g_value_set_string(value, s.location.empty() ? nullptr : s.location.c_str());
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean(value, s.post_messages);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

static DeshakeSettings snapshot(GstDpxDeshakePrivate* priv) {
  std::lock_guard<std::mutex> lk(priv->lock);
  return priv->settings;
}

/* ------------------------------------------------------------------------------------------ */
/* Frames held for the lookahead */

static void drop_held(GstDpxDeshakePrivate* priv) {
  for (HeldFrame& h : priv->held) gst_buffer_unref(h.buffer);
  priv->held.clear();
  priv->stabiliser.reset();
  priv->restart_next = true;
}

/* Sends the oldest held frame through the base class (its correction is worked out in
 * process_plane) and pushes the result. */
static GstFlowReturn push_oldest(GstDpxDeshake* self) {
  GstBaseTransform* trans = GST_BASE_TRANSFORM(self);
  GstDpxDeshakePrivate* priv = self->priv;
  priv->current = priv->held.front();
  priv->held.pop_front();
  trans->queued_buf = priv->current.buffer; /* owned by the base class's output step from here */
  GstBuffer* out = nullptr;
  GstFlowReturn ret = GST_BASE_TRANSFORM_CLASS(parent_class)->generate_output(trans, &out);
  priv->current = HeldFrame();
  if (ret != GST_FLOW_OK) {
    gst_clear_buffer(&out);
    drop_held(priv);
    return ret;
  }
  return out != nullptr ? gst_pad_push(GST_BASE_TRANSFORM_SRC_PAD(trans), out) : GST_FLOW_OK;
}

/* Lets every held frame out, the window of the last ones narrowed to the frames there are. */
static GstFlowReturn drain_held(GstDpxDeshake* self) {
  GstDpxDeshakePrivate* priv = self->priv;
  if (!priv->held.empty())
    GST_DEBUG_OBJECT(self, "draining %u held frames", static_cast<guint>(priv->held.size()));
  priv->draining = true;
  GstFlowReturn ret = GST_FLOW_OK;
  while (!priv->held.empty() && ret == GST_FLOW_OK) ret = push_oldest(self);
  priv->draining = false;
  priv->stabiliser.finish();
  return ret;
}

/* The input queued by submit_input_buffer is held; frames older than the lookahead go out. */
static GstFlowReturn gst_dpx_deshake_generate_output(GstBaseTransform* trans, GstBuffer** outbuf) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(trans);
  GstDpxDeshakePrivate* priv = self->priv;
  *outbuf = nullptr;
  GstBuffer* in = trans->queued_buf;
  if (in == nullptr) return GST_FLOW_OK;
  trans->queued_buf = nullptr;
  const DeshakeSettings s = snapshot(priv);
  if (s.smoothing != priv->lookahead) {
    const GstFlowReturn drained = drain_held(self);
    priv->lookahead = s.smoothing;
    gst_element_post_message(GST_ELEMENT_CAST(self), gst_message_new_latency(GST_OBJECT_CAST(self)));
    if (drained != GST_FLOW_OK) {
      gst_buffer_unref(in);
      return drained;
    }
  }
  dpx::PathParams path;
  path.smoothing = priv->lookahead;
  path.max_shift = s.max_shift;
  path.max_angle = s.max_angle * kRadiansPerDegree;
  priv->stabiliser.set_params(path);
  priv->held.push_back(HeldFrame{in, false, priv->restart_next || GST_BUFFER_IS_DISCONT(in)});
  priv->restart_next = false;
  GstFlowReturn ret = GST_FLOW_OK;
  while (ret == GST_FLOW_OK && priv->held.size() > static_cast<std::size_t>(priv->lookahead))
    ret = push_oldest(self);
  return ret;
}

/* ------------------------------------------------------------------------------------------ */
/* The frame going out */

static gboolean gst_dpx_deshake_setup(GstDpxFilter* filter, const GstVideoInfo* info, dpx::Backend) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(filter);
  std::string why;
  if (self->priv->stabiliser.configure(*info, &why)) return TRUE;
  GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("Cannot stabilise this video"), ("%s", why.c_str()));
  return FALSE;
}

static void gst_dpx_deshake_reset(GstDpxFilter* filter) {
  /* With the CUDA context current: the device copies of the analysis belong to it. The path
   * goes on; the next frame starts a new one. */
  GST_DPX_DESHAKE(filter)->priv->stabiliser.release_device();
}

static guint gst_dpx_deshake_begin_frame(GstDpxFilter* filter, const GstVideoInfo*, GstBuffer*, guint) {
  GstDpxDeshakePrivate* priv = GST_DPX_DESHAKE(filter)->priv;
  priv->frame_settings = snapshot(priv);
  priv->prepared = false;
  return gst_dpx_filter_get_layout(filter)->all_planes();
}

/* Measures one arrived frame on its luma plane, where the frame is. */
static dpx::Status measure(GstDpxDeshake* self, HeldFrame& h, cudaStream_t stream) {
  GstDpxFilter* filter = GST_DPX_FILTER(self);
  GstDpxDeshakePrivate* priv = self->priv;
  const bool on_device = gst_dpx_filter_buffer_on_device(filter, h.buffer);
#if DPX_HAVE_CUDA
  const int map_cuda = on_device ? GST_MAP_CUDA : 0;
#else
  const int map_cuda = 0;
#endif
  GstVideoFrame frame;
  if (!gst_dpx_filter_map_frame(filter, &frame, h.buffer, static_cast<GstMapFlags>(GST_MAP_READ | map_cuda),
                                "held"))
    return dpx::Status(dpx::StatusCode::kInvalidArgument, "a held frame could not be mapped");
  const gstdpx::Stabiliser& stab = priv->stabiliser;
  const dpx::PlaneView luma = gst_dpx_filter_get_layout(filter)->view(&frame, stab.luma_plane()).as_const();
  const dpx::Status st =
      priv->stabiliser.measure(luma, stream, on_device, h.restart, GST_BUFFER_PTS(h.buffer));
  gst_video_frame_unmap(&frame);
  if (st.is_ok()) h.measured = true;
  return st;
}

/* Measures every frame that arrived and is not measured yet, in arrival order, then takes the
 * correction of the frame going out. */
static dpx::Status prepare(GstDpxDeshake* self, cudaStream_t stream) {
  GstDpxDeshakePrivate* priv = self->priv;
  if (!priv->current.measured) DPX_RETURN_IF_ERROR(measure(self, priv->current, stream));
  for (HeldFrame& h : priv->held)
    if (!h.measured) DPX_RETURN_IF_ERROR(measure(self, h, stream));
  if (priv->draining) priv->stabiliser.finish();
  if (!priv->stabiliser.ready())
    return dpx::Status(dpx::StatusCode::kInternal, "the camera path has no window for the frame going out");
  priv->out = priv->stabiliser.next(static_cast<gstdpx::DeshakeBorder>(priv->frame_settings.border));
  return dpx::Status::ok();
}

static dpx::Status gst_dpx_deshake_process_plane(GstDpxFilter* filter, const GstDpxPlaneJob* job) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(filter);
  GstDpxDeshakePrivate* priv = self->priv;
  if (!priv->prepared) {
    DPX_RETURN_IF_ERROR(prepare(self, job->stream));
    priv->prepared = true;
  }
  const DeshakeSettings& s = priv->frame_settings;
  const dpx::WarpPlan plan = priv->stabiliser.plan(
      job->plane, priv->out, static_cast<gstdpx::DeshakeBorder>(s.border),
      s.interpolation == GST_DPX_DESHAKE_INTERPOLATION_BICUBIC ? dpx::WarpInterpolation::kBicubic
                                                               : dpx::WarpInterpolation::kBilinear);
  return job->backend == dpx::Backend::kCuda ? dpx::warp_plane_cuda(job->src, job->dst, plan, job->stream)
                                             : dpx::warp_plane_cpu(job->src, job->dst, plan);
}

static GstDpxSimilarity to_meta(const dpx::Similarity& s) {
  return GstDpxSimilarity{s.tx, s.ty, s.angle, s.scale};
}

static GstFlowReturn gst_dpx_deshake_frame_done(GstDpxFilter* filter, GstBuffer* buffer, guint) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(filter);
  GstDpxDeshakePrivate* priv = self->priv;
  const gstdpx::DeshakeFrame& f = priv->out;
  GstDpxDeshakeMeta values{};
  values.measured = to_meta(f.path.motion);
  values.correction = to_meta(f.path.correction);
  values.zoom = f.zoom;
  values.measured_valid = !f.path.cut;
  values.blocks = static_cast<guint>(f.fit.candidates);
  values.inliers = static_cast<guint>(f.fit.inliers);
  gst_buffer_add_dpx_deshake_meta(buffer, &values);
  GstStructure* s = gstdpx::deshake_structure(f);
  const bool written =
      gstdpx::write_line_or_post_error(GST_ELEMENT_CAST(self), priv->file, priv->frame_settings.location,
                                       [s] { return gstdpx::deshake_json_line(s); });
  ++priv->frames_out;
  if (written && priv->frame_settings.post_messages) {
    gst_element_post_message(GST_ELEMENT_CAST(self), gst_message_new_element(GST_OBJECT_CAST(self), s));
  } else {
    gst_structure_free(s);
  }
  return written ? GST_FLOW_OK : GST_FLOW_ERROR;
}

/* ------------------------------------------------------------------------------------------ */
/* Stream events, latency and state */

static gboolean gst_dpx_deshake_sink_event(GstBaseTransform* trans, GstEvent* event) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(trans);
  switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_FLUSH_STOP:
      drop_held(self->priv);
      break;
    case GST_EVENT_EOS:
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
    case GST_EVENT_STREAM_START:
      /* The held frames leave before the event (a new caps or segment restarts the path). */
      drain_held(self);
      self->priv->restart_next = true;
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS(parent_class)->sink_event(trans, event);
}

/* The lookahead's frames come on top of the base class's latency. */
static gboolean gst_dpx_deshake_query(GstBaseTransform* trans, GstPadDirection direction, GstQuery* query) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(trans);
  if (!GST_BASE_TRANSFORM_CLASS(parent_class)->query(trans, direction, query)) return FALSE;
  const gstdpx::FrameLayout* layout = gst_dpx_filter_get_layout(GST_DPX_FILTER(self));
  if (GST_QUERY_TYPE(query) != GST_QUERY_LATENCY || direction != GST_PAD_SRC || layout->n_planes() == 0)
    return TRUE;
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency(query, &live, &min, &max);
  const GstClockTime held =
      gstdpx::in_flight_latency(static_cast<unsigned>(self->priv->lookahead), layout->info());
  gst_query_set_latency(query, live, min + held, GST_CLOCK_TIME_IS_VALID(max) ? max + held : max);
  return TRUE;
}

static gboolean gst_dpx_deshake_start(GstBaseTransform* trans) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(trans);
  GstDpxDeshakePrivate* priv = self->priv;
  const DeshakeSettings s = snapshot(priv);
  priv->lookahead = s.smoothing;
  if (!priv->file.start(s.location)) {
    GST_ELEMENT_ERROR(self, RESOURCE, OPEN_WRITE,
                      ("Could not open file \"%s\" for writing.", s.location.c_str()), GST_ERROR_SYSTEM);
    return FALSE;
  }
  if (GST_BASE_TRANSFORM_CLASS(parent_class)->start(trans)) return TRUE;
  priv->file.stop(false);
  return FALSE;
}

static gboolean gst_dpx_deshake_stop(GstBaseTransform* trans) {
  GstDpxDeshakePrivate* priv = GST_DPX_DESHAKE(trans)->priv;
  drop_held(priv);
  const gboolean ok = GST_BASE_TRANSFORM_CLASS(parent_class)->stop(trans);
  priv->file.stop(priv->frames_out > 0);
  priv->frames_out = 0;
  priv->stabiliser.restart_numbering();
  return ok;
}

static void gst_dpx_deshake_finalize(GObject* object) {
  GstDpxDeshake* self = GST_DPX_DESHAKE(object);
  drop_held(self->priv);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(parent_class)->finalize(object);
}

/* Caps of `formats` at the smallest size the motion measurement needs. */
static GstCaps* deshake_caps(void) {
  GstCaps* caps = gst_dpx_filter_make_caps(DPX_DESHAKE_FORMATS);
  gst_caps_set_simple(caps, "width", GST_TYPE_INT_RANGE, dpx::kStabiliseMinWidth, G_MAXINT, "height",
                      GST_TYPE_INT_RANGE, dpx::kStabiliseMinHeight, G_MAXINT, nullptr);
  return caps;
}

static void gst_dpx_deshake_class_init(GstDpxDeshakeClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstDpxFilterClass* filter_class = GST_DPX_FILTER_CLASS(klass);
  const GParamFlags flags =
      static_cast<GParamFlags>(G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS);

  gobject_class->set_property = gst_dpx_deshake_set_property;
  gobject_class->get_property = gst_dpx_deshake_get_property;
  gobject_class->finalize = gst_dpx_deshake_finalize;

  g_object_class_install_property(
      gobject_class, PROP_SMOOTHING,
      g_param_spec_int("smoothing", "Smoothing",
                       "Frames on each side of the Gaussian window that smooths the camera path: the frames "
                       "held (latency); 0 measures and reports without correcting",
                       0, MAX_SMOOTHING, DEFAULT_SMOOTHING, flags));
  g_object_class_install_property(
      gobject_class, PROP_MAX_SHIFT,
      g_param_spec_double("max-shift", "Largest shift", "Largest correction along each axis, in pixels", 0.0,
                          MAX_MAX_SHIFT, DEFAULT_MAX_SHIFT, flags));
  g_object_class_install_property(
      gobject_class, PROP_MAX_ANGLE,
      g_param_spec_double("max-angle", "Largest angle", "Largest rotation of the correction, in degrees", 0.0,
                          MAX_MAX_ANGLE, DEFAULT_MAX_ANGLE, flags));
  g_object_class_install_property(
      gobject_class, PROP_BORDER,
      g_param_spec_enum("border", "Border", "What fills the parts of the output the moved input leaves",
                        GST_TYPE_DPX_DESHAKE_BORDER, DEFAULT_BORDER, flags));
  g_object_class_install_property(
      gobject_class, PROP_INTERPOLATION,
      g_param_spec_enum("interpolation", "Interpolation", "How the warp reads between input pixels",
                        GST_TYPE_DPX_DESHAKE_INTERPOLATION, DEFAULT_INTERPOLATION, flags));
  g_object_class_install_property(
      gobject_class, PROP_LOCATION,
      g_param_spec_string(
          "location", "Location",
          "File to write every frame's measured motion and applied correction to, one JSON object "
          "per line (the fields of the dpx-deshake message); none when unset",
          nullptr, flags));
  g_object_class_install_property(
      gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean("post-messages", "Post messages",
                           "Post an element message \"dpx-deshake\" per frame with its measured motion and "
                           "applied correction",
                           DEFAULT_POST_MESSAGES, flags));

  GstCaps* caps = deshake_caps();
  gst_element_class_add_pad_template(element_class,
                                     gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template(element_class,
                                     gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref(caps);
  gst_element_class_set_static_metadata(
      element_class, "DPX video stabilisation", "Filter/Effect/Video",
      "Removes camera shake: motion measured by block matching and a robust "
      "similarity fit, a smoothed camera path with lookahead, each frame "
      "warped onto it, on CUDA or the CPU",
      "gst-dpx developers");

  trans_class->generate_output = GST_DEBUG_FUNCPTR(gst_dpx_deshake_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_dpx_deshake_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR(gst_dpx_deshake_query);
  trans_class->start = GST_DEBUG_FUNCPTR(gst_dpx_deshake_start);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_dpx_deshake_stop);

  filter_class->setup = GST_DEBUG_FUNCPTR(gst_dpx_deshake_setup);
  filter_class->begin_frame = GST_DEBUG_FUNCPTR(gst_dpx_deshake_begin_frame);
  filter_class->process_plane = GST_DEBUG_FUNCPTR(gst_dpx_deshake_process_plane);
  filter_class->frame_done = GST_DEBUG_FUNCPTR(gst_dpx_deshake_frame_done);
  filter_class->reset = GST_DEBUG_FUNCPTR(gst_dpx_deshake_reset);

  gst_dpx_deshake_meta_get_info();

  gst_type_mark_as_plugin_api(GST_TYPE_DPX_DESHAKE_BORDER, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_DESHAKE_INTERPOLATION, static_cast<GstPluginAPIFlags>(0));
  GST_DEBUG_CATEGORY_INIT(gst_dpx_deshake_debug, "dpxdeshake", 0, "dpxdeshake");
}

static void gst_dpx_deshake_init(GstDpxDeshake* self) {
  self->priv = new GstDpxDeshakePrivate();
}
