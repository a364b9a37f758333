/* dpxdilate, dpxerode and dpxmorph: grayscale / per-channel morphology on every plane of a video
 * frame, through libdpx on the CPU or on CUDA. One family: GstDpxMorphFamily holds the properties and
 * the work; dpxdilate and dpxerode fix the operation and take a square `size`, dpxmorph takes the
 * operation and the element's width and height as properties. */
#pragma once

#include "gstdpxfilter.h"

#include "dpx/morphology.h"

G_BEGIN_DECLS

#define GST_TYPE_DPX_MORPH_SHAPE (gst_dpx_morph_shape_get_type())
GType gst_dpx_morph_shape_get_type(void);

#define GST_TYPE_DPX_MORPH_BORDER (gst_dpx_morph_border_get_type())
GType gst_dpx_morph_border_get_type(void);

#define GST_TYPE_DPX_MORPH_OPERATION (gst_dpx_morph_operation_get_type())
GType gst_dpx_morph_operation_get_type(void);

// clang-format off
#define GST_TYPE_DPX_MORPH_FAMILY           (gst_dpx_morph_family_get_type ())
#define GST_DPX_MORPH_FAMILY(obj)           (G_TYPE_CHECK_INSTANCE_CAST ((obj), GST_TYPE_DPX_MORPH_FAMILY, GstDpxMorphFamily))
#define GST_DPX_MORPH_FAMILY_GET_CLASS(obj) (G_TYPE_INSTANCE_GET_CLASS ((obj), GST_TYPE_DPX_MORPH_FAMILY, GstDpxMorphFamilyClass))
#define GST_TYPE_DPX_DILATE                 (gst_dpx_dilate_get_type ())
#define GST_TYPE_DPX_ERODE                  (gst_dpx_erode_get_type ())
#define GST_TYPE_DPX_MORPH                  (gst_dpx_morph_get_type ())
// clang-format on

typedef struct _GstDpxMorphFamily GstDpxMorphFamily;
typedef struct _GstDpxMorphFamilyClass GstDpxMorphFamilyClass;
typedef struct _GstDpxMorphFamilyPrivate GstDpxMorphFamilyPrivate;

struct _GstDpxMorphFamily {
  GstDpxFilter parent;

  /*< private >*/
  GstDpxMorphFamilyPrivate* priv;
};

struct _GstDpxMorphFamilyClass {
  GstDpxFilterClass parent_class;

  dpx::MorphOp op;         /* set by dpxdilate / dpxerode */
  gboolean op_is_property; /* dpxmorph: the operation comes from the properties */
};

/* The libdpx enums in the order of the GEnum values. */
typedef enum {
  GST_DPX_MORPH_OPERATION_DILATE = 0,
  GST_DPX_MORPH_OPERATION_ERODE = 1,
  GST_DPX_MORPH_OPERATION_OPEN = 2,
  GST_DPX_MORPH_OPERATION_CLOSE = 3,
  GST_DPX_MORPH_OPERATION_GRADIENT = 4,
  GST_DPX_MORPH_OPERATION_TOPHAT = 5,
  GST_DPX_MORPH_OPERATION_BLACKHAT = 6,
} GstDpxMorphOperation;

typedef enum {
  GST_DPX_MORPH_SHAPE_RECT = 0,
  GST_DPX_MORPH_SHAPE_CROSS = 1,
  GST_DPX_MORPH_SHAPE_ELLIPSE = 2,
} GstDpxMorphShape;

typedef enum {
  GST_DPX_MORPH_BORDER_REPLICATE = 0,
  GST_DPX_MORPH_BORDER_REFLECT101 = 1,
  GST_DPX_MORPH_BORDER_NEUTRAL = 2,
} GstDpxMorphBorder;

GType gst_dpx_morph_family_get_type(void);
GType gst_dpx_dilate_get_type(void);
GType gst_dpx_erode_get_type(void);
GType gst_dpx_morph_get_type(void);

GST_ELEMENT_REGISTER_DECLARE(dpxdilate);
GST_ELEMENT_REGISTER_DECLARE(dpxerode);
GST_ELEMENT_REGISTER_DECLARE(dpxmorph);

G_END_DECLS
