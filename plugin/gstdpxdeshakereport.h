/* What dpxdeshake reports per frame besides the meta: the `dpx-deshake` element message and the
 * JSON line of the `location` file, both made from one structure so they always agree. */
#pragma once

#include <gst/gst.h>

#include <string>

#include "gstdpxstabiliser.h"

namespace gstdpx {

/* "dpx-deshake": frame-number, pts (GST_CLOCK_TIME_NONE when unknown), measured (a motion was
 * measured: FALSE for the first frame of a path), blocks, inliers, residual (pixels), the measured
 * motion measured-tx, measured-ty (pixels), measured-angle (degrees), measured-scale, cut (the
 * frame starts a camera path), the applied correction correction-tx, correction-ty,
 * correction-angle, correction-scale and zoom. */
GstStructure* deshake_structure(const DeshakeFrame& f);

/* The structure as one line of JSON (with its newline): the same fields, '-' written '_', an
 * unknown pts as null. */
std::string deshake_json_line(const GstStructure* s);

}  // namespace gstdpx
