/* GstDpxMotionMeta: registration, attaching, copying (see gstdpxmotionmeta.h). */
#define GST_DPX_PLUGIN_BUILD /* the plugin-side declarations of gstdpxmotionmeta.h */
#include "gstdpxmotionmeta.h"

#include <gst/video/video.h>

#include <cstring>

#include "dpx/motion.h"

#include <cstddef>

/* The meta's vectors are copied from libdpxmotion's output as bytes: every field in the same place. */
static_assert(sizeof(GstDpxMotionVector) == sizeof(dpx::MotionVector),
              "GstDpxMotionVector and dpx::MotionVector share one layout");
static_assert(offsetof(GstDpxMotionVector, dx) == offsetof(dpx::MotionVector, dx), "dx");
static_assert(offsetof(GstDpxMotionVector, dy) == offsetof(dpx::MotionVector, dy), "dy");
static_assert(offsetof(GstDpxMotionVector, sad) == offsetof(dpx::MotionVector, sad), "sad");
static_assert(sizeof(GstDpxMotionVector::dx) == sizeof(dpx::MotionVector::dx) &&
                  sizeof(GstDpxMotionVector::dy) == sizeof(dpx::MotionVector::dy) &&
                  sizeof(GstDpxMotionVector::sad) == sizeof(dpx::MotionVector::sad),
              "field sizes");

/* GstDpxMotionMeta is public ABI read by applications through the header alone: its fields
 * follow GstMeta in declaration order at their natural alignment, and stay there. */
static constexpr std::size_t after(std::size_t end_of_previous, std::size_t alignment) {
  return (end_of_previous + alignment - 1) / alignment * alignment;
}

static_assert(offsetof(GstDpxMotionMeta, meta) == 0, "meta");
static_assert(offsetof(GstDpxMotionMeta, block_size) == after(sizeof(GstMeta), alignof(guint)), "block_size");
static_assert(offsetof(GstDpxMotionMeta, columns) == offsetof(GstDpxMotionMeta, block_size) + sizeof(guint),
              "columns");
static_assert(offsetof(GstDpxMotionMeta, rows) == offsetof(GstDpxMotionMeta, columns) + sizeof(guint),
              "rows");
static_assert(offsetof(GstDpxMotionMeta, vectors) ==
                  after(offsetof(GstDpxMotionMeta, rows) + sizeof(guint), alignof(gpointer)),
              "vectors");
static_assert(offsetof(GstDpxMotionMeta, reference_pts) ==
                  after(offsetof(GstDpxMotionMeta, vectors) + sizeof(gpointer), alignof(GstClockTime)),
              "reference_pts");
/* Added last, so the fields before it keep their places for readers built without it. */
static_assert(offsetof(GstDpxMotionMeta, scale) ==
                  offsetof(GstDpxMotionMeta, reference_pts) + sizeof(GstClockTime),
              "scale");

GType gst_dpx_motion_meta_api_get_type(void) {
  static GType type = 0;
  /* Vectors belong to the picture's geometry: a change of size or orientation invalidates them. */
  static const gchar* tags[] = {GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
                                GST_META_TAG_VIDEO_ORIENTATION_STR, nullptr};
  if (g_once_init_enter(&type)) {
    GType t = gst_meta_api_type_register(GST_DPX_MOTION_META_API_NAME, tags);
    g_once_init_leave(&type, t);
  }
  return type;
}

static gboolean motion_meta_init(GstMeta* meta, gpointer, GstBuffer*) {
  GstDpxMotionMeta* m = reinterpret_cast<GstDpxMotionMeta*>(meta);
  m->block_size = m->columns = m->rows = 0;
  m->vectors = nullptr;
  m->reference_pts = GST_CLOCK_TIME_NONE;
  m->scale = 1;
  return TRUE;
}

static void motion_meta_free(GstMeta* meta, GstBuffer*) {
  GstDpxMotionMeta* m = reinterpret_cast<GstDpxMotionMeta*>(meta);
  g_free(m->vectors);
  m->vectors = nullptr;
}

/* Copies go along (with their own vectors); a scale to another size drops the meta, since the
 * vectors describe the old geometry; other transforms drop it too. */
static gboolean motion_meta_transform(GstBuffer* dest, GstMeta* meta, GstBuffer*, GQuark type,
                                      gpointer data) {
  const GstDpxMotionMeta* m = reinterpret_cast<const GstDpxMotionMeta*>(meta);
  bool keep = GST_META_TRANSFORM_IS_COPY(type);
  if (!keep && GST_VIDEO_META_TRANSFORM_IS_SCALE(type)) {
    const GstVideoMetaTransform* t = static_cast<const GstVideoMetaTransform*>(data);
    keep = GST_VIDEO_INFO_WIDTH(t->in_info) == GST_VIDEO_INFO_WIDTH(t->out_info) &&
           GST_VIDEO_INFO_HEIGHT(t->in_info) == GST_VIDEO_INFO_HEIGHT(t->out_info);
  }
  if (!keep) return FALSE;
  return gst_buffer_add_dpx_motion_meta(dest, m->block_size, m->columns, m->rows, m->scale, m->vectors,
                                        m->reference_pts) != nullptr;
}

const GstMetaInfo* gst_dpx_motion_meta_get_info(void) {
  static const GstMetaInfo* info = nullptr;
  if (g_once_init_enter(&info)) {
    const GstMetaInfo* mi = gst_meta_register(gst_dpx_motion_meta_api_get_type(),
                                              GST_DPX_MOTION_META_IMPL_NAME, sizeof(GstDpxMotionMeta),
                                              motion_meta_init, motion_meta_free, motion_meta_transform);
    g_once_init_leave(&info, mi);
  }
  return info;
}

GstDpxMotionMeta* gst_buffer_add_dpx_motion_meta(GstBuffer* buffer, guint block_size, guint columns,
                                                 guint rows, guint scale, const GstDpxMotionVector* vectors,
                                                 GstClockTime reference_pts) {
  g_return_val_if_fail(GST_IS_BUFFER(buffer), nullptr);
  g_return_val_if_fail(vectors != nullptr || columns * rows == 0, nullptr);
  GstDpxMotionMeta* m = reinterpret_cast<GstDpxMotionMeta*>(
      gst_buffer_add_meta(buffer, gst_dpx_motion_meta_get_info(), nullptr));
  if (m == nullptr) return nullptr;
  const gsize count = static_cast<gsize>(columns) * rows;
  m->block_size = block_size;
  m->columns = columns;
  m->rows = rows;
  m->scale = scale;
  m->vectors = count ? g_new(GstDpxMotionVector, count) : nullptr;
  if (count) std::memcpy(m->vectors, vectors, count * sizeof(GstDpxMotionVector));
  m->reference_pts = reference_pts;
  return m;
}
