/* GstDpxMotionMeta: the motion vectors dpxmotionest attaches to each video buffer.
 *
 * One vector per block of the luma plane, row-major (index = row * columns + column):
 * (dx, dy) says that the block's pixels at (x, y) are matched with the reference frame's pixels at
 * (x + dx, y + dy) — it points from the block to where its content was; `sad` is the sum of
 * absolute differences of that match. dx and dy are in units of 1/scale pixel: `scale` is 1 for
 * whole pixels (the default), 2 or 4 when dpxmotionest refines to half or quarter pixels (`scale`
 * is the last field, so code built against the older header still reads every other field).
 * Blocks tile the frame from the top-left corner; those in the last column and row may be cut by
 * the frame edge. `reference_pts` is the PTS of the frame the
 * vectors point into (the previous frame). The first frame of a stream, and the first after a
 * flush, a DISCONT buffer or a caps change, have no reference and carry no meta.
 *
 * Applications use this header alone, without linking the plugin: the accessors below are inline
 * and find the meta's API type by its registered name, which exists once the dpx plugin is loaded
 * (e.g. after the pipeline with dpxmotionest was created). Before that they return NULL.
 *
 *   GstDpxMotionMeta *meta = gst_buffer_get_dpx_motion_meta (buffer);
 *   if (meta) {
 *     const GstDpxMotionVector *v = gst_dpx_motion_meta_get_vector (meta, column, row);
 *     ... v->dx, v->dy, v->sad ...
 *   }
 */
#ifndef __GST_DPX_MOTION_META_H__
#define __GST_DPX_MOTION_META_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The registered names of the meta's API type and implementation. */
#define GST_DPX_MOTION_META_API_NAME "GstDpxMotionMetaAPI"
#define GST_DPX_MOTION_META_IMPL_NAME "GstDpxMotionMeta"

/* One block's vector: 8 bytes, the layout of libdpxmotion's dpx::MotionVector. */
typedef struct {
  gint16 dx;
  gint16 dy;
  guint32 sad;
} GstDpxMotionVector;

typedef struct {
  GstMeta meta;

  guint block_size;            /* pixels per block side: 4, 8, 16 or 32 */
  guint columns;               /* blocks per row: ceil (width / block_size) */
  guint rows;                  /* block rows: ceil (height / block_size) */
  GstDpxMotionVector* vectors; /* columns * rows vectors, row-major; owned by the meta */
  GstClockTime reference_pts;  /* PTS of the reference frame (GST_CLOCK_TIME_NONE if it had none) */
  guint scale;                 /* vectors are in 1/scale pixel: 1, 2 (half-pel) or 4 (quarter-pel) */
} GstDpxMotionMeta;

/* The meta's API type, 0 while the dpx plugin is not loaded. */
static inline GType gst_dpx_motion_meta_api_type(void) {
  return g_type_from_name(GST_DPX_MOTION_META_API_NAME);
}

/* The motion meta of `buffer`, or NULL when it has none (or the plugin is not loaded). */
static inline GstDpxMotionMeta* gst_buffer_get_dpx_motion_meta(GstBuffer* buffer) {
  GType api = gst_dpx_motion_meta_api_type();
  return api != 0 ? (GstDpxMotionMeta*)gst_buffer_get_meta(buffer, api) : NULL;
}

/* The vector of block (column, row), or NULL outside the grid. */
static inline const GstDpxMotionVector* gst_dpx_motion_meta_get_vector(const GstDpxMotionMeta* meta,
                                                                       guint column, guint row) {
  if (meta == NULL || column >= meta->columns || row >= meta->rows) return NULL;
  return &meta->vectors[(gsize)row * meta->columns + column];
}

#ifdef GST_DPX_PLUGIN_BUILD
/* Inside the plugin: registration and attaching. */
GType gst_dpx_motion_meta_api_get_type(void);
const GstMetaInfo* gst_dpx_motion_meta_get_info(void);

/* Adds a meta with a copy of `count` = columns * rows vectors. */
GstDpxMotionMeta* gst_buffer_add_dpx_motion_meta(GstBuffer* buffer, guint block_size, guint columns,
                                                 guint rows, guint scale, const GstDpxMotionVector* vectors,
                                                 GstClockTime reference_pts);
#endif

G_END_DECLS

#endif /* __GST_DPX_MOTION_META_H__ */
