/* dpxmotionest: block-matching motion estimation on the luma plane of a video stream, through
 * libdpxmotion on CUDA or the CPU. The frames pass through unchanged (unless `draw` is on); each
 * one after the first carries its vectors as GstDpxMotionMeta. */
#pragma once

#include "gstdpxfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_DPX_MOTION_BLOCK_SIZE (gst_dpx_motion_block_size_get_type())
GType gst_dpx_motion_block_size_get_type(void);

/* Values of the `block-size` property: the block side in pixels. */
typedef enum {
  GST_DPX_MOTION_BLOCK_4 = 4,
  GST_DPX_MOTION_BLOCK_8 = 8,
  GST_DPX_MOTION_BLOCK_16 = 16,
  GST_DPX_MOTION_BLOCK_32 = 32,
} GstDpxMotionBlockSize;

#define GST_TYPE_DPX_MOTION_SUBPEL (gst_dpx_motion_subpel_get_type())
GType gst_dpx_motion_subpel_get_type(void);

/* Values of the `subpel` property: the vector unit is 1/value pixel. */
typedef enum {
  GST_DPX_MOTION_SUBPEL_NONE = 1,
  GST_DPX_MOTION_SUBPEL_HALF = 2,
  GST_DPX_MOTION_SUBPEL_QUARTER = 4,
} GstDpxMotionSubpel;

#define GST_TYPE_DPX_MOTION_INTERPOLATION (gst_dpx_motion_interpolation_get_type())
GType gst_dpx_motion_interpolation_get_type(void);

/* Values of the `interpolation` property: the samples between pixels of the sub-pel stage. */
typedef enum {
  GST_DPX_MOTION_INTERPOLATION_BILINEAR = 0,
  GST_DPX_MOTION_INTERPOLATION_H264 = 1,
  GST_DPX_MOTION_INTERPOLATION_HEVC = 2,
} GstDpxMotionInterpolation;

#define GST_TYPE_DPX_MOTION_SEARCH (gst_dpx_motion_search_get_type())
GType gst_dpx_motion_search_get_type(void);

/* Values of the `search` property. */
typedef enum {
  GST_DPX_MOTION_SEARCH_FULL = 0,
  GST_DPX_MOTION_SEARCH_PREDICTIVE = 1,
} GstDpxMotionSearch;

#define GST_TYPE_DPX_MOTION_EST (gst_dpx_motion_est_get_type())
#define GST_DPX_MOTION_EST(obj) (G_TYPE_CHECK_INSTANCE_CAST((obj), GST_TYPE_DPX_MOTION_EST, GstDpxMotionEst))

typedef struct _GstDpxMotionEst GstDpxMotionEst;
typedef struct _GstDpxMotionEstClass GstDpxMotionEstClass;
typedef struct _GstDpxMotionEstPrivate GstDpxMotionEstPrivate;

struct _GstDpxMotionEst {
  GstDpxFilter parent;

  /*< private >*/
  GstDpxMotionEstPrivate* priv;
};

struct _GstDpxMotionEstClass {
  GstDpxFilterClass parent_class;
};

GType gst_dpx_motion_est_get_type(void);

GST_ELEMENT_REGISTER_DECLARE(dpxmotionest);

G_END_DECLS
