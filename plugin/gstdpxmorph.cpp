/**
 * SECTION:element-dpxdilate
 * @title: dpxdilate
 *
 * Grayscale dilation (the local maximum over a square structuring element: rectangles of odd
 * sides up to 255, crosses and ellipses up to 63) of each plane of a video frame, every channel on its own.
 * Runs on CUDA (DPX instructions on Hopper GPUs) when a device is usable and on the CPU otherwise, with
 * bit-identical output. Frames in CUDA memory stay on the GPU.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! dpxdilate size=5 shape=ellipse !
 * videoconvert ! autovideosink
 * ]| Thickens the bright ball with a 5×5 ellipse.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! qtdemux ! h264parse ! nvh264dec ! dpxdilate iterations=2 !
 * cudadownload ! videoconvert ! autovideosink
 * ]| Dilates decoded NV12 frames twice without leaving GPU memory.
 */
/**
 * SECTION:element-dpxerode
 * @title: dpxerode
 *
 * Grayscale erosion (the local minimum over a square structuring element) of each plane of a
 * video frame; the counterpart of dpxdilate with the same properties.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=I420 ! dpxerode planes=1 ! dpxdilate planes=1
 * ! videoconvert ! autovideosink
 * ]| A morphological opening of the luma plane; chroma is copied unchanged.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12,width=3840,height=2160 ! cudaupload ! dpxerode
 * backend=cuda ! cudadownload ! fakesink
 * ]| Erodes 4K NV12 in CUDA memory.
 */
/**
 * SECTION:element-dpxmorph
 * @title: dpxmorph
 *
 * Every morphological operation of OpenCV's morphologyEx on each plane of a video frame, every
 * channel on its own: dilate, erode, open, close, gradient (dilate − erode), tophat
 * (frame − open) and blackhat (close − frame), over a rectangle of any odd width and height up to
 * 255 or a cross or ellipse up to 63. `iterations` means what it means in morphologyEx: open with
 * 2 iterations is erode, erode, dilate, dilate. Same backends, formats and memory types as
 * dpxdilate, with byte-identical CPU and CUDA output.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! dpxmorph operation=gradient
 * shape=ellipse width=7 height=7 ! videoconvert ! autovideosink
 * ]| Outlines the ball: the difference of its dilation and erosion.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12,width=1920,height=1080 ! dpxmorph operation=tophat
 * width=31 height=31 planes=1 ! videoconvert ! autovideosink
 * ]| Keeps the bright details smaller than 31×31 of the luma plane.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8 ! dpxmorph operation=close width=15 height=1 !
 * videoconvert ! autovideosink
 * ]| Closes horizontal gaps up to 14 pixels wide with a 15×1 line.
 */
#include "gstdpxmorph.h"

#include <mutex>

#include "dpx/morph_planes.h"

GST_DEBUG_CATEGORY_STATIC(gst_dpx_morph_debug);
#define GST_CAT_DEFAULT gst_dpx_morph_debug

enum {
  PROP_0,
  PROP_OPERATION,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_SIZE,
  PROP_SHAPE,
  PROP_ITERATIONS,
  PROP_BORDER,
  PROP_PLANES,
};

#define DEFAULT_SIZE 3
#define DEFAULT_OPERATION GST_DPX_MORPH_OPERATION_DILATE
#define DEFAULT_SHAPE GST_DPX_MORPH_SHAPE_RECT
#define DEFAULT_ITERATIONS 1
#define MAX_ITERATIONS 64
#define DEFAULT_BORDER GST_DPX_MORPH_BORDER_REPLICATE
#define ALL_PLANES ((1u << GST_VIDEO_MAX_PLANES) - 1)
#define DEFAULT_PLANES ALL_PLANES

#define DPX_MORPH_FORMATS                                                                   \
  "{ GRAY8, GRAY16_LE, I420, YV12, Y42B, Y444, NV12, NV21, P010_10LE, P016_LE, Y444_16LE, " \
  "RGBA, BGRA, RGBx, BGRx, ARGB, ABGR }"

struct _GstDpxMorphFamilyPrivate {
  std::mutex lock; /* guards `settings`: properties change while playing */
  dpx::MorphParams settings;
  guint planes = DEFAULT_PLANES;

  /* Streaming thread: the settings of the frame being processed, and scratch for iterations > 1
   * on CUDA: per plane when planes run one by one, one for all planes in one launch (all on the
   * element's one work stream, so frames in flight reuse it in order). */
  dpx::MorphParams frame_params;
  dpx::DeviceBuffer scratch[GST_VIDEO_MAX_PLANES];
  dpx::DeviceBuffer frame_scratch;
};

GType gst_dpx_morph_operation_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_MORPH_OPERATION_DILATE, "Dilate: the local maximum", "dilate"},
      {GST_DPX_MORPH_OPERATION_ERODE, "Erode: the local minimum", "erode"},
      {GST_DPX_MORPH_OPERATION_OPEN,
       "Open: erode, then dilate (removes bright details smaller than the element)", "open"},
      {GST_DPX_MORPH_OPERATION_CLOSE,
       "Close: dilate, then erode (fills dark details smaller than the element)", "close"},
      {GST_DPX_MORPH_OPERATION_GRADIENT, "Gradient: dilate minus erode (the outlines)", "gradient"},
      {GST_DPX_MORPH_OPERATION_TOPHAT, "Top-hat: the frame minus its opening (the bright details)", "tophat"},
      {GST_DPX_MORPH_OPERATION_BLACKHAT, "Black-hat: the closing minus the frame (the dark details)",
       "blackhat"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxMorphOperation", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

GType gst_dpx_morph_shape_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_MORPH_SHAPE_RECT, "Rectangle: every pixel of the element (odd sides up to 255)", "rect"},
      {GST_DPX_MORPH_SHAPE_CROSS, "Cross: the centre row and column (odd sides up to 63)", "cross"},
      {GST_DPX_MORPH_SHAPE_ELLIPSE, "Ellipse inscribed in the element, OpenCV's mask (odd sides up to 63)",
       "ellipse"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxMorphShape", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

GType gst_dpx_morph_border_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DPX_MORPH_BORDER_REPLICATE, "Outside pixels repeat the edge", "replicate"},
      {GST_DPX_MORPH_BORDER_REFLECT101, "Outside pixels mirror the image without the edge (gfedcb|abcdefgh)",
       "reflect101"},
      {GST_DPX_MORPH_BORDER_NEUTRAL, "Outside pixels never win (0 for dilate, the maximum for erode)",
       "neutral"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstDpxMorphBorder", values);
    g_once_init_leave(&type, t);
  }
  return type;
}

#define gst_dpx_morph_family_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE(GstDpxMorphFamily, gst_dpx_morph_family, GST_TYPE_DPX_FILTER);

/* The ranges let even sides through; keep the working value rather than fail every frame. */
static void set_odd(GstDpxMorphFamily* self, GParamSpec* pspec, const GValue* value, int* field) {
  const gint v = g_value_get_int(value);
  if (v % 2 == 0) {
    g_warning("%s: %s %d is even (odd sides only); keeping %d", GST_OBJECT_NAME(self), pspec->name, v,
              *field);
    return;
  }
  *field = v;
}

static void gst_dpx_morph_set_property(GObject* object, guint prop_id, const GValue* value,
                                       GParamSpec* pspec) {
  GstDpxMorphFamily* self = GST_DPX_MORPH_FAMILY(object);
  std::lock_guard<std::mutex> lk(self->priv->lock);
  dpx::MorphParams& s = self->priv->settings;
  switch (prop_id) {
    case PROP_OPERATION:
      s.op = static_cast<dpx::MorphOp>(g_value_get_enum(value));
      break;
    case PROP_SIZE:
      set_odd(self, pspec, value, &s.size);
      break;
    case PROP_WIDTH:
      set_odd(self, pspec, value, &s.width);
      break;
    case PROP_HEIGHT:
      set_odd(self, pspec, value, &s.height);
      break;
    case PROP_SHAPE:
      s.shape = static_cast<dpx::MorphShape>(g_value_get_enum(value));
      break;
    case PROP_ITERATIONS:
      s.iterations = g_value_get_int(value);
      break;
    case PROP_BORDER:
      s.border = static_cast<dpx::BorderMode>(g_value_get_enum(value));
      break;
    case PROP_PLANES:
      self->priv->planes = g_value_get_uint(value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

static void gst_dpx_morph_get_property(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GstDpxMorphFamily* self = GST_DPX_MORPH_FAMILY(object);
  std::lock_guard<std::mutex> lk(self->priv->lock);
  const dpx::MorphParams& s = self->priv->settings;
  switch (prop_id) {
    case PROP_OPERATION:
      g_value_set_enum(value, static_cast<gint>(s.op));
      break;
    case PROP_SIZE:
      g_value_set_int(value, s.size);
      break;
    case PROP_WIDTH:
      g_value_set_int(value, s.width);
      break;
    case PROP_HEIGHT:
      g_value_set_int(value, s.height);
      break;
    case PROP_SHAPE:
      g_value_set_enum(value, static_cast<gint>(s.shape));
      break;
    case PROP_ITERATIONS:
      g_value_set_int(value, s.iterations);
      break;
    case PROP_BORDER:
      g_value_set_enum(value, static_cast<gint>(s.border));
      break;
    case PROP_PLANES:
      g_value_set_uint(value, self->priv->planes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
      break;
  }
}

static void gst_dpx_morph_finalize(GObject* object) {
  GstDpxMorphFamily* self = GST_DPX_MORPH_FAMILY(object);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(parent_class)->finalize(object);
}

static guint gst_dpx_morph_begin_frame(GstDpxFilter* filter, const GstVideoInfo* info, GstBuffer* inbuf,
                                       guint slot) {
  GstDpxMorphFamily* self = GST_DPX_MORPH_FAMILY(filter);
  (void)info;
  (void)inbuf;
  (void)slot; /* the settings of a frame are read when its work is enqueued */
  std::lock_guard<std::mutex> lk(self->priv->lock);
  self->priv->frame_params = self->priv->settings;
  if (!GST_DPX_MORPH_FAMILY_GET_CLASS(self)->op_is_property)
    self->priv->frame_params.op = GST_DPX_MORPH_FAMILY_GET_CLASS(self)->op;
  return self->priv->planes;
}

static dpx::Status gst_dpx_morph_process_plane(GstDpxFilter* filter, const GstDpxPlaneJob* job) {
  GstDpxMorphFamilyPrivate* priv = GST_DPX_MORPH_FAMILY(filter)->priv;
  if (job->backend == dpx::Backend::kCuda)
    return dpx::morph_cuda(job->src, job->dst, priv->frame_params, job->stream, &priv->scratch[job->plane]);
  return dpx::morph_cpu(job->src, job->dst, priv->frame_params);
}

/* Every plane of the frame in one launch per iteration (CUDA only). */
static dpx::Status gst_dpx_morph_process_planes(GstDpxFilter* filter, const GstDpxPlaneJob* jobs,
                                                guint n_jobs) {
  GstDpxMorphFamilyPrivate* priv = GST_DPX_MORPH_FAMILY(filter)->priv;
  dpx::MorphPlane planes[dpx::kMorphMaxPlanes];
  if (n_jobs > G_N_ELEMENTS(planes))
    return dpx::Status(dpx::StatusCode::kUnsupported, "more planes than one launch takes");
  for (guint i = 0; i < n_jobs; ++i) planes[i] = {jobs[i].src, jobs[i].dst};
  return dpx::morph_cuda_planes(planes, static_cast<int>(n_jobs), priv->frame_params, jobs[0].stream,
                                &priv->frame_scratch);
}

static void gst_dpx_morph_reset(GstDpxFilter* filter) {
  /* Called with the CUDA context current: scratch memory belongs to it. */
  GstDpxMorphFamilyPrivate* priv = GST_DPX_MORPH_FAMILY(filter)->priv;
  for (dpx::DeviceBuffer& b : priv->scratch) b.reset();
  priv->frame_scratch.reset();
}

/* Every setting may change while playing, and follow a GstControlBinding. */
static const GParamFlags setting_flags = static_cast<GParamFlags>(
    G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE | G_PARAM_STATIC_STRINGS);

static void gst_dpx_morph_family_class_init(GstDpxMorphFamilyClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  GstDpxFilterClass* filter_class = GST_DPX_FILTER_CLASS(klass);
  const GParamFlags flags = setting_flags;

  gobject_class->set_property = gst_dpx_morph_set_property;
  gobject_class->get_property = gst_dpx_morph_get_property;
  gobject_class->finalize = gst_dpx_morph_finalize;

  g_object_class_install_property(gobject_class, PROP_SHAPE,
                                  g_param_spec_enum("shape", "Shape", "Shape of the structuring element",
                                                    GST_TYPE_DPX_MORPH_SHAPE, DEFAULT_SHAPE, flags));
  g_object_class_install_property(
      gobject_class, PROP_ITERATIONS,
      g_param_spec_int("iterations", "Iterations", "How many times the operation is applied", 1,
                       MAX_ITERATIONS, DEFAULT_ITERATIONS, flags));
  g_object_class_install_property(
      gobject_class, PROP_BORDER,
      g_param_spec_enum("border", "Border", "What the structuring element sees outside the frame",
                        GST_TYPE_DPX_MORPH_BORDER, DEFAULT_BORDER, flags));
  g_object_class_install_property(
      gobject_class, PROP_PLANES,
      g_param_spec_uint("planes", "Planes",
                        "Bit mask of the planes to process (bit 0 = plane 0: luma or packed RGB); the other "
                        "planes are copied unchanged",
                        0, ALL_PLANES, DEFAULT_PLANES, flags));

  GstCaps* caps = gst_dpx_filter_make_caps(DPX_MORPH_FORMATS);
  gst_element_class_add_pad_template(element_class,
                                     gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template(element_class,
                                     gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref(caps);

  filter_class->begin_frame = GST_DEBUG_FUNCPTR(gst_dpx_morph_begin_frame);
  filter_class->process_plane = GST_DEBUG_FUNCPTR(gst_dpx_morph_process_plane);
  filter_class->process_planes = GST_DEBUG_FUNCPTR(gst_dpx_morph_process_planes);
  filter_class->reset = GST_DEBUG_FUNCPTR(gst_dpx_morph_reset);

  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MORPH_FAMILY, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MORPH_SHAPE, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MORPH_BORDER, static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(GST_TYPE_DPX_MORPH_OPERATION, static_cast<GstPluginAPIFlags>(0));
  GST_DEBUG_CATEGORY_INIT(gst_dpx_morph_debug, "dpxmorph", 0, "dpxdilate / dpxerode / dpxmorph");
}

static void gst_dpx_morph_family_init(GstDpxMorphFamily* self) {
  self->priv = new GstDpxMorphFamilyPrivate();
}

/* ------------------------------------------------------------------------------------------ */
/* The registered elements: dpxdilate and dpxerode fix the operation and take a square `size`;
 * dpxmorph takes the operation, width and height. */

typedef struct {
  GstDpxMorphFamily parent;
} GstDpxDilate;
typedef struct {
  GstDpxMorphFamilyClass parent_class;
} GstDpxDilateClass;
typedef struct {
  GstDpxMorphFamily parent;
} GstDpxErode;
typedef struct {
  GstDpxMorphFamilyClass parent_class;
} GstDpxErodeClass;
typedef struct {
  GstDpxMorphFamily parent;
} GstDpxMorph;
typedef struct {
  GstDpxMorphFamilyClass parent_class;
} GstDpxMorphClass;

G_DEFINE_TYPE(GstDpxDilate, gst_dpx_dilate, GST_TYPE_DPX_MORPH_FAMILY);
G_DEFINE_TYPE(GstDpxErode, gst_dpx_erode, GST_TYPE_DPX_MORPH_FAMILY);
G_DEFINE_TYPE(GstDpxMorph, gst_dpx_morph, GST_TYPE_DPX_MORPH_FAMILY);
GST_ELEMENT_REGISTER_DEFINE(dpxdilate, "dpxdilate", GST_RANK_NONE, GST_TYPE_DPX_DILATE);
GST_ELEMENT_REGISTER_DEFINE(dpxerode, "dpxerode", GST_RANK_NONE, GST_TYPE_DPX_ERODE);
GST_ELEMENT_REGISTER_DEFINE(dpxmorph, "dpxmorph", GST_RANK_NONE, GST_TYPE_DPX_MORPH);

/* GObject does not inherit set_property / get_property: a class that installs properties of its
 * own names the family's handlers again. */
static void use_family_handlers(GObjectClass* gobject_class) {
  gobject_class->set_property = gst_dpx_morph_set_property;
  gobject_class->get_property = gst_dpx_morph_get_property;
}

static GParamSpec* side_spec(const char* name, const char* nick, const char* blurb) {
  return g_param_spec_int(name, nick, blurb, 1, dpx::kMorphMaxRectSize, DEFAULT_SIZE, setting_flags);
}

/* dpxdilate / dpxerode: the operation and the square `size`. */
static void fixed_op_class_init(GstDpxMorphFamilyClass* klass, dpx::MorphOp op, const char* longname,
                                const char* what) {
  klass->op = op;
  use_family_handlers(G_OBJECT_CLASS(klass));
  g_object_class_install_property(
      G_OBJECT_CLASS(klass), PROP_SIZE,
      side_spec("size", "Size",
                "Width and height of the structuring element: odd, up to 255 for rect and 63 for cross and "
                "ellipse (even values are refused with a warning)"));
  gchar* description = g_strdup_printf(
      "Grayscale %s over a square structuring element (rectangles up to "
      "255x255, crosses and ellipses up to 63x63), on CUDA or the CPU",
      what);
  gst_element_class_set_metadata(GST_ELEMENT_CLASS(klass), longname, "Filter/Effect/Video", description,
                                 "gst-dpx developers");
  g_free(description);
}

static void gst_dpx_dilate_class_init(GstDpxDilateClass* klass) {
  fixed_op_class_init(reinterpret_cast<GstDpxMorphFamilyClass*>(klass), dpx::MorphOp::kDilate, "DPX dilation",
                      "dilation (local maximum)");
}

static void gst_dpx_dilate_init(GstDpxDilate* self) {
  (void)self;
}

static void gst_dpx_erode_class_init(GstDpxErodeClass* klass) {
  fixed_op_class_init(reinterpret_cast<GstDpxMorphFamilyClass*>(klass), dpx::MorphOp::kErode, "DPX erosion",
                      "erosion (local minimum)");
}

static void gst_dpx_erode_init(GstDpxErode* self) {
  (void)self;
}

static void gst_dpx_morph_class_init(GstDpxMorphClass* klass) {
  GObjectClass* gobject_class = G_OBJECT_CLASS(klass);
  reinterpret_cast<GstDpxMorphFamilyClass*>(klass)->op_is_property = TRUE;
  use_family_handlers(gobject_class);
  g_object_class_install_property(
      gobject_class, PROP_OPERATION,
      g_param_spec_enum("operation", "Operation", "The morphological operation (OpenCV's morphologyEx)",
                        GST_TYPE_DPX_MORPH_OPERATION, DEFAULT_OPERATION, setting_flags));
  g_object_class_install_property(
      gobject_class, PROP_WIDTH,
      side_spec("width", "Width",
                "Width of the structuring element: odd, up to 255 for rect and 63 for cross and ellipse "
                "(even values are refused with a warning)"));
  g_object_class_install_property(
      gobject_class, PROP_HEIGHT,
      side_spec("height", "Height",
                "Height of the structuring element: odd, up to 255 for rect and 63 for cross and ellipse "
                "(even values are refused with a warning)"));
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "DPX morphology", "Filter/Effect/Video",
      "Dilate, erode, open, close, gradient, top-hat or black-hat over a rectangle up to 255x255 or a "
      "cross or ellipse up to 63x63, on CUDA or the CPU",
      "gst-dpx developers");
}

static void gst_dpx_morph_init(GstDpxMorph* self) {
  dpx::MorphParams& s = reinterpret_cast<GstDpxMorphFamily*>(self)->priv->settings;
  s.width = DEFAULT_SIZE;
  s.height = DEFAULT_SIZE;
}
