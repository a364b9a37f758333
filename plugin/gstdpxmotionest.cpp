/**
 * SECTION:element-dpxmotionest
 * @title: dpxmotionest
 *
 * Block-matching motion estimation: every frame's luma plane is cut into blocks (4, 8, 16 or 32
 * pixels) and each block is searched in the previous frame within ±search-range pixels for the
 * smallest sum of absolute differences — exhaustively (`search=full`), or from predictors and a
 * 4× downsampled coarse search for ranges up to ±128 (`search=predictive`). `subpel` refines the
 * vectors to half or quarter pixels on a reference interpolated by HEVC's luma filters (by default;
 * `interpolation` also offers H.264's and bilinear weights), and `lambda` favours
 * vectors close to their neighbours' (H.264's median predictor) for coherent fields. Runs on CUDA
 * (the running best kept with the DPX instruction __vibmin_u32 on Hopper GPUs) when a device is
 * usable and on the CPU otherwise, with bit-identical vectors; frames in CUDA memory stay on the GPU.
 * On CUDA, `subpel` with the `hevc` or `h264` filters builds the reference's 16 quarter-pel phase
 * planes once a frame in temporary device memory: 16 times the luma plane (about 35 MB at 1080p,
 * 137 MB at 4K for 8-bit luma), besides the element's own reference copy and vectors.
 *
 * The video passes through unchanged, unless `draw` is on. Each frame that has a reference
 * carries a GstDpxMotionMeta (gstdpxmotionmeta.h) with one vector and SAD per block; the vectors
 * can also go to a JSON-lines file (`location`) and, as motion detection, to an element message
 * `dpx-motion` per frame (`post-messages`) with the mean vector length and the fraction of blocks
 * moving more than `motion-threshold` pixels. The file is checked when the element starts (an
 * unwritable path fails the change to PAUSED; a missing file is created), truncated when its first
 * line is due and each line is flushed as it is written. `location` may change while playing: the
 * lines of the frames from then on go to the new file, truncated when its first line is due (or
 * appended to, when the run wrote to it before).
 *
 * The first frame, and the first after a flush, a DISCONT buffer or a caps change, have no
 * reference: they carry no meta, write no line and post no message. Frames are numbered from 0
 * since the element started, with or without vectors.
 *
 * On CUDA the element keeps frames in flight like the other dpx elements (`frames-in-flight`; by
 * default 1 on CUDA memory, 2 on system memory, 0 on the CPU): a frame's search is enqueued when it
 * arrives and the frame leaves with its meta once newer frames have started, so the host never
 * waits for one frame's vectors while it has the next to start; the LATENCY query counts them.
 * Metas, lines and messages stay in frame order and are the same at every depth: frames in flight
 * are reported before a caps change, EOS or any other serialized event passes, and frames dropped
 * by a flush or a stop are reported too (without their meta, as they are not pushed).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball motion=sweep ! video/x-raw,format=GRAY8 ! dpxmotionest draw=true
 * block-size=16 ! videoconvert ! autovideosink
 * ]| Shows the vectors of a moving ball drawn over the picture.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! qtdemux ! h264parse ! nvh264dec ! cudaupload ! dpxmotionest
 * search-range=32 location=vectors.jsonl post-messages=true ! fakesink
 * ]| Writes every frame's vectors of decoded NV12 (in CUDA memory) to vectors.jsonl and posts
 * motion-detection messages on the bus.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! dpxmotionest search=predictive search-range=128
 * subpel=quarter lambda=4 location=vectors.jsonl ! fakesink
 * ]| Quarter-pel vectors of a coherent field over a ±128 pixel range.
 */
#define GST_DPX_PLUGIN_BUILD /* the plugin-side declarations of gstdpxmotionmeta.h */
#include "gstdpxmotionest.h"

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "dpx/motion.h"
#include "gstdpxmotionfile.h"
#include "gstdpxmotionmeta.h"
#include "gstdpxmotionreport.h"
#include "gstdpxmotionsearch.h"

#if DPX_HAVE_CUDA
#include <gst/cuda/gstcudamemory.h>

#include "dpx/cuda_status.h"
#endif

GST_DEBUG_CATEGORY_STATIC(gst_dpx_motion_est_debug);
#define GST_CAT_DEFAULT gst_dpx_motion_est_debug

enum {
  PROP_0,
  PROP_BLOCK_SIZE,
  PROP_SEARCH_RANGE,
  PROP_DRAW,
  PROP_LOCATION,
  PROP_MOTION_THRESHOLD,
  PROP_POST_MESSAGES,
  PROP_SUBPEL,
  PROP_LAMBDA,
  PROP_SEARCH,
  PROP_INTERPOLATION,
};

#define DEFAULT_BLOCK_SIZE GST_DPX_MOTION_BLOCK_16
#define DEFAULT_SEARCH_RANGE 16
#define DEFAULT_DRAW FALSE
#define DEFAULT_LOCATION nullptr
#define DEFAULT_MOTION_THRESHOLD 1.0
#define MAX_MOTION_THRESHOLD 1000.0
#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_SUBPEL GST_DPX_MOTION_SUBPEL_NONE
#define DEFAULT_LAMBDA 0
#define DEFAULT_SEARCH GST_DPX_MOTION_SEARCH_FULL
#define DEFAULT_INTERPOLATION GST_DPX_MOTION_INTERPOLATION_HEVC

#define DPX_MOTION_FORMATS "{ GRAY8, GRAY16_LE, I420, YV12, NV12, NV21, Y42B, Y444, P010_10LE, P016_LE }"

struct MotionSettings {
  dpx::MotionParams params;
  bool draw = DEFAULT_DRAW;
  std::string location;
  double threshold = DEFAULT_MOTION_THRESHOLD;
  bool post_messages = DEFAULT_POST_MESSAGES;
};

/* A frame's settings, from begin_frame until frame_done. */
struct MotionFrame {
  MotionSettings settings;
  bool discont = false; /* the frame starts a new reference chain */
};

struct _GstDpxMotionEstPrivate {
  std::mutex lock; /* guards `settings`: properties change while playing */
  MotionSettings settings;

  /* Streaming thread only. */
  std::vector<MotionFrame> frames; /* per in-flight slot */
  gstdpx::MotionSearcher search;
  std::uint64_t frame_number = 0; /* of the next frame to complete */
  gstdpx::MotionFile file;
};

GType gst_dpx_motion_subpel_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_MOTION_SUBPEL_NONE, "Whole pixels", "none"},
      {GST_DPX_MOTION_SUBPEL_HALF, "Half pixels (vectors in 1/2 pixel)", "half"},
      {GST_DPX_MOTION_SUBPEL_QUARTER, "Quarter pixels (vectors in 1/4 pixel)", "quarter"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxMotionSubpel", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

GType gst_dpx_motion_interpolation_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_MOTION_INTERPOLATION_BILINEAR, "Bilinear weights in quarter pixels", "bilinear"},
      {GST_DPX_MOTION_INTERPOLATION_H264, "H.264 luma: 6-tap half pixels, averaged quarters", "h264"},
      {GST_DPX_MOTION_INTERPOLATION_HEVC, "HEVC luma: 8-tap half and 7-tap quarter pixels", "hevc"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxMotionInterpolation", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

GType gst_dpx_motion_search_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_MOTION_SEARCH_FULL, "Exhaustive search of every candidate", "full"},
      {GST_DPX_MOTION_SEARCH_PREDICTIVE, "Predictors and a 4x downsampled coarse search", "predictive"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxMotionSearch", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

GType gst_dpx_motion_block_size_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_MOTION_BLOCK_4, "4x4 pixels", "4"},
      {GST_DPX_MOTION_BLOCK_8, "8x8 pixels", "8"},
      {GST_DPX_MOTION_BLOCK_16, "16x16 pixels", "16"},
      {GST_DPX_MOTION_BLOCK_32, "32x32 pixels", "32"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxMotionBlockSize", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

#define gst_dpx_motion_est_parent_class parent_class
G_DEFINE_TYPE(GstDpxMotionEst, gst_dpx_motion_est, GST_TYPE_DPX_FILTER);
GST_ELEMENT_REGISTER_DEFINE(dpxmotionest, "dpxmotionest", GST_RANK_NONE, GST_TYPE_DPX_MOTION_EST);

/* ------------------------------------------------------------------------------------------ */
/* Properties */

static void gst_dpx_motion_est_set_property(GObject* object, guint prop_id, const GValue* value,
                                            GParamSpec* pspec) {
  GstDpxMotionEst* self = GST_DPX_MOTION_EST(object);
  std::lock_guard<std::mutex> lk(self->priv->lock);
  MotionSettings& s = self->priv->settings;
  switch (prop_id) {
    case PROP_BLOCK_SIZE:
      s.params.block_size = g_value_get_enum(value);
      break;
    case PROP_SEARCH_RANGE:
      s.params.search_range = g_value_get_int(value);
      break;
    case PROP_DRAW:
      s.draw = g_value_get_boolean(value);
      break;
    case PROP_LOCATION: {
      const gchar* path = g_value_get_string(value);
      s.location = path ? path : "";
      break;
    }
    case PROP_MOTION_THRESHOLD:
      s.threshold = g_value_get_double(value);
      break;
    case PROP_POST_MESSAGES:
      s.post_messages = g_value_get_boolean(value);
      break;
    case PROP_SUBPEL:
      s.params.subpel = static_cast<dpx::MotionSubpel>(g_value_get_enum(value));
      break;
    case PROP_LAMBDA:
      s.params.lambda = g_value_get_int(value);
      break;
    case PROP_INTERPOLATION:
      s.params.interpolation = static_cast<dpx::MotionInterpolation>(g_value_get_enum(value));
      break;
    case PROP_SEARCH:
      s.params.search = g_value_get_enum(value) == GST_DPX_MOTION_SEARCH_PREDICTIVE
                            ? dpx::MotionSearch::kPredictive
                            : dpx::MotionSearch::kFull;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

static void gst_dpx_motion_est_get_property(GObject* object, guint prop_id, GValue* value,
                                            GParamSpec* pspec) {
  GstDpxMotionEst* self = GST_DPX_MOTION_EST(object);
  std::lock_guard<std::mutex> lk(self->priv->lock);
  const MotionSettings& s = self->priv->settings;
  switch (prop_id) {
    case PROP_BLOCK_SIZE:
      g_value_set_enum(value, s.params.block_size);
      break;
    case PROP_SEARCH_RANGE:
      g_value_set_int(value, s.params.search_range);
      break;
    case PROP_DRAW:
      g_value_set_boolean(value, s.draw);
      break;
    case PROP_LOCATION:
      g_value_set_string(value, s.location.empty() ? nullptr : s.location.c_str());
      break;
    case PROP_MOTION_THRESHOLD:
      g_value_set_double(value, s.threshold);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean(value, s.post_messages);
      break;
    case PROP_SUBPEL:
      g_value_set_enum(value, static_cast<gint>(s.params.subpel));
      break;
    case PROP_LAMBDA:
      g_value_set_int(value, s.params.lambda);
      break;
    case PROP_INTERPOLATION:
      g_value_set_enum(value, static_cast<gint>(s.params.interpolation));
      break;
    case PROP_SEARCH:
      g_value_set_enum(value, s.params.search == dpx::MotionSearch::kPredictive
                                  ? GST_DPX_MOTION_SEARCH_PREDICTIVE
                                  : GST_DPX_MOTION_SEARCH_FULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The search */

static gboolean gst_dpx_motion_est_setup(GstDpxFilter* filter, const GstVideoInfo* info,
                                         dpx::Backend backend) {
  (void)info;
  (void)backend;
  GST_DPX_MOTION_EST(filter)->priv->search.forget_reference(); /* new caps or backend */
  return TRUE;
}

static void gst_dpx_motion_est_reset(GstDpxFilter* filter) {
  /* Called with the CUDA context current: the device and pinned memory belong to it. */
  GST_DPX_MOTION_EST(filter)->priv->search.reset();
}

static guint gst_dpx_motion_est_begin_frame(GstDpxFilter* filter, const GstVideoInfo* info, GstBuffer* inbuf,
                                            guint slot) {
  GstDpxMotionEstPrivate* priv = GST_DPX_MOTION_EST(filter)->priv;
  (void)info;
  if (priv->frames.size() <= slot) priv->frames.resize(slot + 1);
  MotionFrame& frame = priv->frames[slot];
  {
    std::lock_guard<std::mutex> lk(priv->lock);
    frame.settings = priv->settings;
  }
  frame.discont = GST_BUFFER_FLAG_IS_SET(inbuf, GST_BUFFER_FLAG_DISCONT);
  return 1u; /* plane 0: luma (or gray) in every supported format */
}

static dpx::Status gst_dpx_motion_est_process_plane(GstDpxFilter* filter, const GstDpxPlaneJob* job) {
  GstDpxMotionEstPrivate* priv = GST_DPX_MOTION_EST(filter)->priv;
  const MotionFrame& frame = priv->frames[job->slot];
  return priv->search.process(*job, frame.settings.params, GST_BUFFER_PTS(job->buffer), frame.discont);
}

/* ------------------------------------------------------------------------------------------ */
/* Reporting, after the search has completed */

/* Draws the vectors onto the luma plane of `buffer` (writable in the base class's analysis mode),
 * mapped and checked like every frame of the base class: on the GPU with the device copy of the
 * vectors when the frame is CUDA memory the element processes in place (waiting for the draw
 * before the buffer leaves), else on the CPU. */
static bool draw_vectors(GstDpxMotionEst* self, GstBuffer* buffer, const gstdpx::MotionResult& result) {
  GstDpxFilter* filter = GST_DPX_FILTER(self);
  const bool on_device = gst_dpx_filter_buffer_on_device(filter, buffer);
#if DPX_HAVE_CUDA
  const int map_cuda = on_device ? GST_MAP_CUDA : 0;
#else
  const int map_cuda = 0;
#endif
  GstVideoFrame frame;
  if (!gst_dpx_filter_map_frame(filter, &frame, buffer,
                                static_cast<GstMapFlags>(GST_MAP_READWRITE | map_cuda), "drawn"))
    return false;
  const dpx::MutablePlaneView luma = gst_dpx_filter_get_layout(filter)->view(&frame, 0);
  dpx::Status st;
#if DPX_HAVE_CUDA
  if (on_device) {
    cudaStream_t stream = gst_dpx_filter_get_stream(filter);
    st = dpx::draw_motion_cuda(luma, result.grid, result.device_vectors, stream);
    const dpx::Status synced =
        dpx::cuda_status(cudaStreamSynchronize(stream), "cudaStreamSynchronize", __FILE__, __LINE__);
    if (st.is_ok()) st = synced;
  }
#endif
  if (!on_device) st = dpx::draw_motion_cpu(luma, result.grid, result.vectors);
  gst_video_frame_unmap(&frame);
  if (!st.is_ok()) {
    GST_ELEMENT_ERROR(self, STREAM, FAILED, ("Could not draw the vectors"), ("%s", st.message().c_str()));
    return false;
  }
  return true;
}

static GstFlowReturn gst_dpx_motion_est_frame_done(GstDpxFilter* filter, GstBuffer* buffer, guint slot) {
  GstDpxMotionEst* self = GST_DPX_MOTION_EST(filter);
  GstDpxMotionEstPrivate* priv = self->priv;
  const std::uint64_t number = priv->frame_number++;
  const gstdpx::MotionResult& result = priv->search.result(slot);
  const MotionSettings& settings = priv->frames[slot].settings;
  if (!result.searched) return GST_FLOW_OK;
  const gstdpx::MotionReport report = {number, result.pts, result.reference_pts, result.grid, result.vectors};
  gst_buffer_add_dpx_motion_meta(
      buffer, result.grid.block_size, result.grid.columns, result.grid.rows, result.grid.scale,
      reinterpret_cast<const GstDpxMotionVector*>(result.vectors), result.reference_pts);
  if (!gstdpx::write_line_or_post_error(GST_ELEMENT_CAST(self), priv->file, settings.location,
                                        [&report] { return gstdpx::motion_json_line(report); }))
    return GST_FLOW_ERROR;
  if (settings.post_messages) {
    gst_element_post_message(GST_ELEMENT_CAST(self),
                             gst_message_new_element(GST_OBJECT_CAST(self), gstdpx::motion_message_structure(
                                                                                report, settings.threshold)));
  }
  if (settings.draw && !draw_vectors(self, buffer, result)) return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Stream events and state */

static gboolean gst_dpx_motion_est_sink_event(GstBaseTransform* trans, GstEvent* event) {
  GstDpxMotionEst* self = GST_DPX_MOTION_EST(trans);
  /* After a flush the next frame need not follow the last one. */
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) self->priv->search.forget_reference();
  return GST_BASE_TRANSFORM_CLASS(parent_class)->sink_event(trans, event);
}

/* The file is checked when the element starts (READY to PAUSED): an unwritable path fails before
 * the first frame (gstdpxmotionfile.h says when it is truncated). */
static gboolean gst_dpx_motion_est_start(GstBaseTransform* trans) {
  GstDpxMotionEst* self = GST_DPX_MOTION_EST(trans);
  std::string path;
  {
    std::lock_guard<std::mutex> lk(self->priv->lock);
    path = self->priv->settings.location;
  }
  if (!self->priv->file.start(path)) {
    GST_ELEMENT_ERROR(self, RESOURCE, OPEN_WRITE, ("Could not open file \"%s\" for writing.", path.c_str()),
                      GST_ERROR_SYSTEM);
    return FALSE;
  }
  if (GST_BASE_TRANSFORM_CLASS(parent_class)->start(trans)) return TRUE;
  self->priv->file.stop(false);
  return FALSE;
}

static gboolean gst_dpx_motion_est_stop(GstBaseTransform* trans) {
  GstDpxMotionEstPrivate* priv = GST_DPX_MOTION_EST(trans)->priv;
  const gboolean ok = GST_BASE_TRANSFORM_CLASS(parent_class)->stop(trans); /* frames in flight reported */
  priv->file.stop(priv->frame_number > 0);
  priv->frame_number = 0;
  return ok;
}

static void gst_dpx_motion_est_finalize(GObject* object) {
  GstDpxMotionEst* self = GST_DPX_MOTION_EST(object);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(parent_class)->finalize(object);
}

static void gst_dpx_motion_est_class_init(GstDpxMotionEstClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstDpxFilterClass* filter_class = GST_DPX_FILTER_CLASS(klass);
  const GParamFlags flags =
      static_cast<GParamFlags>(G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS);
  /* The search and reporting settings may follow a GstControlBinding; the file may not. */
  const GParamFlags controllable = static_cast<GParamFlags>(flags | GST_PARAM_CONTROLLABLE);

  gobject_class->set_property = gst_dpx_motion_est_set_property;
  gobject_class->get_property = gst_dpx_motion_est_get_property;
  gobject_class->finalize = gst_dpx_motion_est_finalize;

  g_object_class_install_property(
      gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_enum("block-size", "Block size", "Side of the square blocks, in pixels",
                        GST_TYPE_DPX_MOTION_BLOCK_SIZE, DEFAULT_BLOCK_SIZE, controllable));
  g_object_class_install_property(
      gobject_class, PROP_SEARCH_RANGE,
      g_param_spec_int("search-range", "Search range",
                       "Largest |dx| and |dy| searched, in pixels (up to 64 with search=full, 128 with "
                       "search=predictive; a larger value with search=full makes the frame an element error)",
                       1, dpx::kMotionMaxPredictiveRange, DEFAULT_SEARCH_RANGE, controllable));
  g_object_class_install_property(
      gobject_class, PROP_SEARCH,
      g_param_spec_enum(
          "search", "Search",
          "full: every candidate within the range; predictive: from predictors (zero, the median of "
          "the neighbours, the co-located vector of the last frame) and a 4x downsampled coarse "
          "search, refined by a small exhaustive window",
          GST_TYPE_DPX_MOTION_SEARCH, DEFAULT_SEARCH, controllable));
  g_object_class_install_property(
      gobject_class, PROP_SUBPEL,
      g_param_spec_enum(
          "subpel", "Sub-pixel refinement",
          "Refine each vector to half or quarter pixels on the reference interpolated as "
          "`interpolation` says; vectors are then in 1/2 or 1/4 pixel (the meta's scale, the JSON's "
          "\"scale\")",
          GST_TYPE_DPX_MOTION_SUBPEL, DEFAULT_SUBPEL, controllable));
  g_object_class_install_property(
      gobject_class, PROP_INTERPOLATION,
      g_param_spec_enum(
          "interpolation", "Interpolation",
          "How the sub-pel stage samples the reference between pixels: hevc (HEVC's 8-tap/7-tap "
          "luma filters), h264 (H.264's 6-tap half pixels, quarters averaged) or bilinear; the "
          "longer filters keep the detail that bilinear weights blur, and with them every quarter "
          "position within a pixel or two of the integer vector is searched (bilinear: its 8 "
          "half-pel, then 8 quarter-pel neighbours)",
          GST_TYPE_DPX_MOTION_INTERPOLATION, DEFAULT_INTERPOLATION, controllable));
  g_object_class_install_property(
      gobject_class, PROP_LAMBDA,
      g_param_spec_int(
          "lambda", "Lambda",
          "Weight of a vector's distance to the median of its neighbours' (per vector unit) in the "
          "cost SAD + lambda * distance; 0 ranks by SAD alone. The reported SAD is never the cost",
          0, dpx::kMotionMaxLambda, DEFAULT_LAMBDA, controllable));
  g_object_class_install_property(
      gobject_class, PROP_DRAW,
      g_param_spec_boolean(
          "draw", "Draw",
          "Draw each block's vector onto the luma plane (from the block centre to where its content "
          "was in the previous frame); off: the video passes through unchanged",
          DEFAULT_DRAW, controllable));
  g_object_class_install_property(
      gobject_class, PROP_LOCATION,
      g_param_spec_string(
          "location", "Location",
          "File to write every frame's vectors to, one JSON object per line (frame, pts, "
          "reference_pts, block_size, columns, rows, scale, vectors [[dx, dy, sad], ...]); none when unset. "
          "Truncated when its first line is due; a change while playing applies from the next frame",
          DEFAULT_LOCATION, flags));
  g_object_class_install_property(
      gobject_class, PROP_MOTION_THRESHOLD,
      g_param_spec_double(
          "motion-threshold", "Motion threshold",
          "Vector length in pixels above which a block counts as moving (the moving-fraction of "
          "the dpx-motion message)",
          0.0, MAX_MOTION_THRESHOLD, DEFAULT_MOTION_THRESHOLD, controllable));
  g_object_class_install_property(
      gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean(
          "post-messages", "Post messages",
          "Post an element message \"dpx-motion\" per frame with the mean vector length and the "
          "fraction of moving blocks",
          DEFAULT_POST_MESSAGES, controllable));

  GstCaps* caps = gst_dpx_filter_make_caps(DPX_MOTION_FORMATS);
  gst_element_class_add_pad_template(element_class,
                                     gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template(element_class,
                                     gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref(caps);
  gst_element_class_set_static_metadata(element_class, "DPX motion estimation", "Filter/Analyzer/Video",
                                        "Block-matching motion vectors of the luma plane (exhaustive or "
                                        "predictive SAD search, sub-pixel refinement) as buffer metadata, a "
                                        "JSON-lines file and motion messages, on CUDA or the CPU",
                                        "gst-dpx developers");

  trans_class->sink_event = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_sink_event);
  trans_class->start = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_start);
  trans_class->stop = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_stop);

  filter_class->analysis_only = TRUE;
  filter_class->setup = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_setup);
  filter_class->begin_frame = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_begin_frame);
  filter_class->process_plane = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_process_plane);
  filter_class->frame_done = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_frame_done);
  filter_class->reset = GST_DEBUG_FUNCPTR(gst_dpx_motion_est_reset);

  /* Registers the meta's API type now, so applications find it by name (gstdpxmotionmeta.h). */
  gst_dpx_motion_meta_get_info();

  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MOTION_BLOCK_SIZE, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MOTION_SUBPEL, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MOTION_SEARCH, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MOTION_INTERPOLATION, static_cast<GstPluginAPIFlags>(0));
  GST_DEBUG_CATEGORY_INIT(gst_dpx_motion_est_debug, "dpxmotionest", 0, "dpxmotionest");
}

static void gst_dpx_motion_est_init(GstDpxMotionEst* self) {
  self->priv = new GstDpxMotionEstPrivate();
}
