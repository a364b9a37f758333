/* GstDpxDeshakeMeta: registration, attaching, copying (see gstdpxdeshakemeta.h). */
#define GST_DPX_PLUGIN_BUILD /* the plugin-side declarations of gstdpxdeshakemeta.h */
#include "gstdpxdeshakemeta.h"

#include <gst/video/video.h>

GType gst_dpx_deshake_meta_api_get_type(void) {
  static GType type = 0;
  /* The transforms belong to the picture's geometry. */
  static const gchar* tags[] = {GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
                                GST_META_TAG_VIDEO_ORIENTATION_STR, nullptr};
  if (g_once_init_enter(&type)) {
    GType t = gst_meta_api_type_register(GST_DPX_DESHAKE_META_API_NAME, tags);
    g_once_init_leave(&type, t);
  }
  return type;
}

static gboolean deshake_meta_init(GstMeta* meta, gpointer, GstBuffer*) {
  GstDpxDeshakeMeta* m = reinterpret_cast<GstDpxDeshakeMeta*>(meta);
  m->measured = GstDpxSimilarity{0, 0, 0, 1};
  m->correction = GstDpxSimilarity{0, 0, 0, 1};
  m->zoom = 1;
  m->measured_valid = FALSE;
  m->blocks = m->inliers = 0;
  return TRUE;
}

/* Copies go along; anything that changes the geometry drops the meta. */
static gboolean deshake_meta_transform(GstBuffer* dest, GstMeta* meta, GstBuffer*, GQuark type, gpointer) {
  if (!GST_META_TRANSFORM_IS_COPY(type)) return FALSE;
  return gst_buffer_add_dpx_deshake_meta(dest, reinterpret_cast<const GstDpxDeshakeMeta*>(meta)) != nullptr;
}

const GstMetaInfo* gst_dpx_deshake_meta_get_info(void) {
  static const GstMetaInfo* info = nullptr;
  if (g_once_init_enter(&info)) {
    const GstMetaInfo* mi =
        gst_meta_register(gst_dpx_deshake_meta_api_get_type(), GST_DPX_DESHAKE_META_IMPL_NAME,
                          sizeof(GstDpxDeshakeMeta), deshake_meta_init, nullptr, deshake_meta_transform);
    g_once_init_leave(&info, mi);
  }
  return info;
}

GstDpxDeshakeMeta* gst_buffer_add_dpx_deshake_meta(GstBuffer* buffer, const GstDpxDeshakeMeta* values) {
  g_return_val_if_fail(GST_IS_BUFFER(buffer) && values != nullptr, nullptr);
  GstDpxDeshakeMeta* m = reinterpret_cast<GstDpxDeshakeMeta*>(
      gst_buffer_add_meta(buffer, gst_dpx_deshake_meta_get_info(), nullptr));
  if (m == nullptr) return nullptr;
  const GstMeta head = m->meta;
  *m = *values;
  m->meta = head;
  return m;
}
