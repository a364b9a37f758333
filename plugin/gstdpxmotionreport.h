/* What dpxmotionest reports per frame besides the meta: the JSON line of the `location` file and
 * the `dpx-motion` element message (both described in docs/motion-output.md). */
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <string>

#include "dpx/motion.h"

namespace gstdpx {

struct MotionReport {
  std::uint64_t frame_number;
  GstClockTime pts;
  GstClockTime reference_pts;
  dpx::MotionGrid grid;
  const dpx::MotionVector* vectors;  // grid.count() of them
};

// One line of JSON (with its newline): frame, pts, reference_pts (nanoseconds or null),
// block_size, columns, rows, scale (vectors in 1/scale pixel) and vectors as [[dx, dy, sad], ...]
// in row-major block order.
std::string motion_json_line(const MotionReport& r);

// The structure of the `dpx-motion` element message: frame-number, pts, reference-pts, block-size,
// columns, rows, scale, mean-length (pixels), moving-fraction and motion-threshold.
GstStructure* motion_message_structure(const MotionReport& r, double threshold);

}  // namespace gstdpx
