/* GstDpxDeshakeMeta: the camera motion dpxdeshake measured on a frame and the correction it
 * applied.
 *
 * Coordinates are luma pixel indices of the frame (a pixel's centre at its index); transforms turn
 * about the frame centre c = ((width - 1) / 2, (height - 1) / 2). A GstDpxSimilarity maps p to
 * scale * R(angle) * (p - c) + c + (tx, ty), the angle in radians turning from +x towards +y.
 *  - `measured` maps this frame's coordinates to the previous frame's (where its content was);
 *    valid only when `measured_valid` (FALSE for the first frame, after a flush or DISCONT, and
 *    where the frame could not be explained: a scene cut starts a new camera path);
 *  - `correction` maps an output pixel to the input position it shows, before the zoom: the output
 *    pixel p shows the input at correction (c + (p - c) / zoom).
 *
 * Applications use this header alone: the accessor finds the meta's API type by its registered
 * name, which exists once the dpx plugin is loaded.
 *
 *   GstDpxDeshakeMeta *m = gst_buffer_get_dpx_deshake_meta (buffer);
 *   if (m && m->measured_valid) ... m->measured.tx ...
 */
#ifndef __GST_DPX_DESHAKE_META_H__
#define __GST_DPX_DESHAKE_META_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_DPX_DESHAKE_META_API_NAME "GstDpxDeshakeMetaAPI"
#define GST_DPX_DESHAKE_META_IMPL_NAME "GstDpxDeshakeMeta"

typedef struct {
  gdouble tx, ty; /* pixels */
  gdouble angle;  /* radians */
  gdouble scale;
} GstDpxSimilarity;

typedef struct {
  GstMeta meta;

  GstDpxSimilarity measured;   /* this frame -> the previous frame */
  GstDpxSimilarity correction; /* output pixel -> input position (before the zoom) */
  gdouble zoom;                /* >= 1, about the centre */
  gboolean measured_valid;     /* FALSE: no motion measured, the frame starts a camera path */
  guint blocks;                /* blocks with texture offered to the fit */
  guint inliers;               /* of them, the ones that follow the camera */
} GstDpxDeshakeMeta;

static inline GType gst_dpx_deshake_meta_api_type(void) {
  return g_type_from_name(GST_DPX_DESHAKE_META_API_NAME);
}

/* The deshake meta of `buffer`, or NULL when it has none (or the plugin is not loaded). */
static inline GstDpxDeshakeMeta* gst_buffer_get_dpx_deshake_meta(GstBuffer* buffer) {
  GType api = gst_dpx_deshake_meta_api_type();
  return api != 0 ? (GstDpxDeshakeMeta*)gst_buffer_get_meta(buffer, api) : NULL;
}

#ifdef GST_DPX_PLUGIN_BUILD
GType gst_dpx_deshake_meta_api_get_type(void);
const GstMetaInfo* gst_dpx_deshake_meta_get_info(void);
/* Adds a meta with the fields of `values` (its GstMeta part ignored). */
GstDpxDeshakeMeta* gst_buffer_add_dpx_deshake_meta(GstBuffer* buffer, const GstDpxDeshakeMeta* values);
#endif

G_END_DECLS

#endif /* __GST_DPX_DESHAKE_META_H__ */
