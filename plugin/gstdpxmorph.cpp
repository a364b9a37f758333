/**
 * SECTION:element-dpxdilate
 * @title: dpxdilate
 *
 * Grayscale dilation (the local maximum over a 3×3 or 5×5 structuring element) of each plane of
 * a video frame, every channel on its own. Runs on CUDA (DPX instructions on Hopper GPUs) when a
 * device is usable and on the CPU otherwise, with bit-identical output. Frames in CUDA memory
 * stay on the GPU.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=GRAY8 ! dpxdilate size=5 shape=ellipse ! videoconvert ! autovideosink
 * ]| Thickens the bright ball with a 5×5 ellipse.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! qtdemux ! h264parse ! nvh264dec ! dpxdilate iterations=2 ! cudadownload ! videoconvert ! autovideosink
 * ]| Dilates decoded NV12 frames twice without leaving GPU memory.
 */
/**
 * SECTION:element-dpxerode
 * @title: dpxerode
 *
 * Grayscale erosion (the local minimum over a 3×3 or 5×5 structuring element) of each plane of a
 * video frame; the counterpart of dpxdilate with the same properties.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball ! video/x-raw,format=I420 ! dpxerode planes=1 ! dpxdilate planes=1 ! videoconvert ! autovideosink
 * ]| A morphological opening of the luma plane; chroma is copied unchanged.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12,width=3840,height=2160 ! cudaupload ! dpxerode backend=cuda ! cudadownload ! fakesink
 * ]| Erodes 4K NV12 in CUDA memory.
 */
#include "gstdpxmorph.h"

#include <mutex>

#include "dpx/morph_planes.h"

GST_DEBUG_CATEGORY_STATIC (gst_dpx_morph_debug);
#define GST_CAT_DEFAULT gst_dpx_morph_debug

enum
{
  PROP_0,
  PROP_SIZE,
  PROP_SHAPE,
  PROP_ITERATIONS,
  PROP_BORDER,
  PROP_PLANES,
};

#define DEFAULT_SIZE 3
#define DEFAULT_SHAPE GST_DPX_MORPH_SHAPE_RECT
#define DEFAULT_ITERATIONS 1
#define MAX_ITERATIONS 64
#define DEFAULT_BORDER GST_DPX_MORPH_BORDER_REPLICATE
#define ALL_PLANES ((1u << GST_VIDEO_MAX_PLANES) - 1)
#define DEFAULT_PLANES ALL_PLANES

#define DPX_MORPH_FORMATS \
  "{ GRAY8, GRAY16_LE, I420, YV12, Y42B, Y444, NV12, NV21, P010_10LE, P016_LE, Y444_16LE, " \
  "RGBA, BGRA, RGBx, BGRx, ARGB, ABGR }"

struct _GstDpxMorphPrivate
{
  std::mutex lock;              /* guards `settings`: properties change while playing */
  dpx::MorphParams settings;
  guint planes = DEFAULT_PLANES;

  /* Streaming thread: the settings of the frame being processed, and scratch for iterations > 1
   * on CUDA: per plane when planes run one by one, one for all planes in one launch (all on the
   * element's one work stream, so frames in flight reuse it in order). */
  dpx::MorphParams frame_params;
  dpx::DeviceBuffer scratch[GST_VIDEO_MAX_PLANES];
  dpx::DeviceBuffer frame_scratch;
};

GType
gst_dpx_morph_shape_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_DPX_MORPH_SHAPE_RECT, "Rectangle: the full size x size square", "rect"},
    {GST_DPX_MORPH_SHAPE_CROSS, "Cross: the centre row and column", "cross"},
    {GST_DPX_MORPH_SHAPE_ELLIPSE, "Ellipse inscribed in the square (OpenCV's mask)", "ellipse"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDpxMorphShape", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_dpx_morph_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_DPX_MORPH_BORDER_REPLICATE, "Outside pixels repeat the edge", "replicate"},
    {GST_DPX_MORPH_BORDER_REFLECT101, "Outside pixels mirror the image without the edge (gfedcb|abcdefgh)",
        "reflect101"},
    {GST_DPX_MORPH_BORDER_NEUTRAL, "Outside pixels never win (0 for dilate, the maximum for erode)",
        "neutral"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDpxMorphBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_dpx_morph_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstDpxMorph, gst_dpx_morph, GST_TYPE_DPX_FILTER);

static void
gst_dpx_morph_set_property (GObject * object, guint prop_id, const GValue * value, GParamSpec * pspec)
{
  GstDpxMorph *self = GST_DPX_MORPH (object);
  std::lock_guard < std::mutex > lk (self->priv->lock);
  dpx::MorphParams & s = self->priv->settings;
  switch (prop_id) {
    case PROP_SIZE:{
      const gint size = g_value_get_int (value);
      if (size != 3 && size != 5) {
        /* The range [3, 5] lets 4 through; keep the working value rather than fail later. */
        g_warning ("%s: size %d is not supported (3 or 5); keeping %d", GST_OBJECT_NAME (self), size,
            s.size);
        break;
      }
      s.size = size;
      break;
    }
    case PROP_SHAPE:
      s.shape = static_cast<dpx::MorphShape> (g_value_get_enum (value));
      break;
    case PROP_ITERATIONS:
      s.iterations = g_value_get_int (value);
      break;
    case PROP_BORDER:
      s.border = static_cast<dpx::BorderMode> (g_value_get_enum (value));
      break;
    case PROP_PLANES:
      self->priv->planes = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_dpx_morph_get_property (GObject * object, guint prop_id, GValue * value, GParamSpec * pspec)
{
  GstDpxMorph *self = GST_DPX_MORPH (object);
  std::lock_guard < std::mutex > lk (self->priv->lock);
  const dpx::MorphParams & s = self->priv->settings;
  switch (prop_id) {
    case PROP_SIZE:
      g_value_set_int (value, s.size);
      break;
    case PROP_SHAPE:
      g_value_set_enum (value, static_cast<gint> (s.shape));
      break;
    case PROP_ITERATIONS:
      g_value_set_int (value, s.iterations);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, static_cast<gint> (s.border));
      break;
    case PROP_PLANES:
      g_value_set_uint (value, self->priv->planes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_dpx_morph_finalize (GObject * object)
{
  GstDpxMorph *self = GST_DPX_MORPH (object);
  delete self->priv;
  self->priv = nullptr;
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static guint
gst_dpx_morph_begin_frame (GstDpxFilter * filter, const GstVideoInfo * info, GstBuffer * inbuf)
{
  GstDpxMorph *self = GST_DPX_MORPH (filter);
  (void) info;
  (void) inbuf;
  std::lock_guard < std::mutex > lk (self->priv->lock);
  self->priv->frame_params = self->priv->settings;
  self->priv->frame_params.op = GST_DPX_MORPH_GET_CLASS (self)->op;
  return self->priv->planes;
}

static dpx::Status
gst_dpx_morph_process_plane (GstDpxFilter * filter, const GstDpxPlaneJob * job)
{
  GstDpxMorphPrivate *priv = GST_DPX_MORPH (filter)->priv;
  if (job->backend == dpx::Backend::kCuda)
    return dpx::morph_cuda (job->src, job->dst, priv->frame_params, job->stream, &priv->scratch[job->plane]);
  return dpx::morph_cpu (job->src, job->dst, priv->frame_params);
}

/* Every plane of the frame in one launch per iteration (CUDA only). */
static dpx::Status
gst_dpx_morph_process_planes (GstDpxFilter * filter, const GstDpxPlaneJob * jobs, guint n_jobs)
{
  GstDpxMorphPrivate *priv = GST_DPX_MORPH (filter)->priv;
  dpx::MorphPlane planes[dpx::kMorphMaxPlanes];
  if (n_jobs > G_N_ELEMENTS (planes))
    return dpx::Status (dpx::StatusCode::kUnsupported, "more planes than one launch takes");
  for (guint i = 0; i < n_jobs; ++i)
    planes[i] = { jobs[i].src, jobs[i].dst };
  return dpx::morph_cuda_planes (planes, static_cast<int> (n_jobs), priv->frame_params, jobs[0].stream,
      &priv->frame_scratch);
}

static void
gst_dpx_morph_reset (GstDpxFilter * filter)
{
  /* Called with the CUDA context current: scratch memory belongs to it. */
  GstDpxMorphPrivate *priv = GST_DPX_MORPH (filter)->priv;
  for (dpx::DeviceBuffer & b : priv->scratch)
    b.reset ();
  priv->frame_scratch.reset ();
}

static void
gst_dpx_morph_class_init (GstDpxMorphClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstDpxFilterClass *filter_class = GST_DPX_FILTER_CLASS (klass);
  /* Every setting may change while playing, and follow a GstControlBinding. */
  const GParamFlags flags = static_cast<GParamFlags> (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
      GST_PARAM_CONTROLLABLE | G_PARAM_STATIC_STRINGS);

  gobject_class->set_property = gst_dpx_morph_set_property;
  gobject_class->get_property = gst_dpx_morph_get_property;
  gobject_class->finalize = gst_dpx_morph_finalize;

  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size",
          "Width and height of the structuring element: 3 or 5", 3, 5, DEFAULT_SIZE, flags));
  g_object_class_install_property (gobject_class, PROP_SHAPE,
      g_param_spec_enum ("shape", "Shape", "Shape of the structuring element",
          GST_TYPE_DPX_MORPH_SHAPE, DEFAULT_SHAPE, flags));
  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_int ("iterations", "Iterations", "How many times the operation is applied",
          1, MAX_ITERATIONS, DEFAULT_ITERATIONS, flags));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border", "What the structuring element sees outside the frame",
          GST_TYPE_DPX_MORPH_BORDER, DEFAULT_BORDER, flags));
  g_object_class_install_property (gobject_class, PROP_PLANES,
      g_param_spec_uint ("planes", "Planes",
          "Bit mask of the planes to process (bit 0 = plane 0: luma or packed RGB); the other "
          "planes are copied unchanged", 0, ALL_PLANES, DEFAULT_PLANES, flags));

  GstCaps *caps = gst_dpx_filter_make_caps (DPX_MORPH_FORMATS);
  gst_element_class_add_pad_template (element_class, gst_pad_template_new ("sink", GST_PAD_SINK,
          GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class, gst_pad_template_new ("src", GST_PAD_SRC,
          GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  filter_class->begin_frame = GST_DEBUG_FUNCPTR (gst_dpx_morph_begin_frame);
  filter_class->process_plane = GST_DEBUG_FUNCPTR (gst_dpx_morph_process_plane);
  filter_class->process_planes = GST_DEBUG_FUNCPTR (gst_dpx_morph_process_planes);
  filter_class->reset = GST_DEBUG_FUNCPTR (gst_dpx_morph_reset);

  gst_type_mark_as_plugin_api (GST_TYPE_DPX_MORPH, static_cast<GstPluginAPIFlags> (0));
  gst_type_mark_as_plugin_api (GST_TYPE_DPX_MORPH_SHAPE, static_cast<GstPluginAPIFlags> (0));
  gst_type_mark_as_plugin_api (GST_TYPE_DPX_MORPH_BORDER, static_cast<GstPluginAPIFlags> (0));
  GST_DEBUG_CATEGORY_INIT (gst_dpx_morph_debug, "dpxmorph", 0, "dpxdilate / dpxerode");
}

static void
gst_dpx_morph_init (GstDpxMorph * self)
{
  self->priv = new GstDpxMorphPrivate ();
}

/* ------------------------------------------------------------------------------------------ */
/* The two registered elements: only the operation and the description differ. */

typedef struct { GstDpxMorph parent; } GstDpxDilate;
typedef struct { GstDpxMorphClass parent_class; } GstDpxDilateClass;
typedef struct { GstDpxMorph parent; } GstDpxErode;
typedef struct { GstDpxMorphClass parent_class; } GstDpxErodeClass;

G_DEFINE_TYPE (GstDpxDilate, gst_dpx_dilate, GST_TYPE_DPX_MORPH);
G_DEFINE_TYPE (GstDpxErode, gst_dpx_erode, GST_TYPE_DPX_MORPH);
GST_ELEMENT_REGISTER_DEFINE (dpxdilate, "dpxdilate", GST_RANK_NONE, GST_TYPE_DPX_DILATE);
GST_ELEMENT_REGISTER_DEFINE (dpxerode, "dpxerode", GST_RANK_NONE, GST_TYPE_DPX_ERODE);

static void
gst_dpx_dilate_class_init (GstDpxDilateClass * klass)
{
  reinterpret_cast<GstDpxMorphClass *> (klass)->op = dpx::MorphOp::kDilate;
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass), "DPX dilation",
      "Filter/Effect/Video", "Grayscale dilation (local maximum) over a 3x3 or 5x5 structuring "
      "element, on CUDA or the CPU", "gst-dpx developers");
}

static void
gst_dpx_dilate_init (GstDpxDilate * self)
{
  (void) self;
}

static void
gst_dpx_erode_class_init (GstDpxErodeClass * klass)
{
  reinterpret_cast<GstDpxMorphClass *> (klass)->op = dpx::MorphOp::kErode;
  gst_element_class_set_static_metadata (GST_ELEMENT_CLASS (klass), "DPX erosion",
      "Filter/Effect/Video", "Grayscale erosion (local minimum) over a 3x3 or 5x5 structuring "
      "element, on CUDA or the CPU", "gst-dpx developers");
}

static void
gst_dpx_erode_init (GstDpxErode * self)
{
  (void) self;
}
