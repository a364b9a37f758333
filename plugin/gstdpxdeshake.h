/* dpxdeshake: video stabilisation. The camera's motion from frame to frame is measured on the luma
 * plane (block matching and a robust similarity fit, libdpxmotion), smoothed over a window of
 * frames with a lookahead, and each frame is warped onto the smoothed path, on CUDA or the CPU
 * with bit-identical results. Each frame carries its measured motion and applied correction as a
 * GstDpxDeshakeMeta (gstdpxdeshakemeta.h). */
#pragma once

#include "gstdpxfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_DPX_DESHAKE_BORDER (gst_dpx_deshake_border_get_type())
GType gst_dpx_deshake_border_get_type(void);

/* Values of the `border` property: what fills the parts of the output the moved input leaves. */
typedef enum {
  GST_DPX_DESHAKE_BORDER_BLACK = 0,
  GST_DPX_DESHAKE_BORDER_REPLICATE = 1,
  GST_DPX_DESHAKE_BORDER_ZOOM = 2,
} GstDpxDeshakeBorder;

#define GST_TYPE_DPX_DESHAKE_INTERPOLATION (gst_dpx_deshake_interpolation_get_type())
GType gst_dpx_deshake_interpolation_get_type(void);

typedef enum {
  GST_DPX_DESHAKE_INTERPOLATION_BILINEAR = 0,
  GST_DPX_DESHAKE_INTERPOLATION_BICUBIC = 1,
} GstDpxDeshakeInterpolation;

// clang-format off
#define GST_TYPE_DPX_DESHAKE (gst_dpx_deshake_get_type())
#define GST_DPX_DESHAKE(obj) (G_TYPE_CHECK_INSTANCE_CAST ((obj), GST_TYPE_DPX_DESHAKE, GstDpxDeshake))
// clang-format on

typedef struct _GstDpxDeshake GstDpxDeshake;
typedef struct _GstDpxDeshakeClass GstDpxDeshakeClass;
typedef struct _GstDpxDeshakePrivate GstDpxDeshakePrivate;

struct _GstDpxDeshake {
  GstDpxFilter parent;

  /*< private >*/
  GstDpxDeshakePrivate* priv;
};

struct _GstDpxDeshakeClass {
  GstDpxFilterClass parent_class;
};

GType gst_dpx_deshake_get_type(void);

GST_ELEMENT_REGISTER_DECLARE(dpxdeshake);

G_END_DECLS
