// Draws a motion field on the CPU (draw_segment.h says which pixels).
#include <cstdint>

#include "draw_segment.h"
#include "dpx/motion.h"

namespace dpx {

namespace {

template <typename T>
void draw(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors) {
  motion_detail::PlotMax<T> plot{static_cast<unsigned char*>(plane.data), plane.pitch};
  for (int r = 0; r < grid.rows; ++r)
    for (int c = 0; c < grid.columns; ++c) {
      const MotionVector v = vectors[static_cast<std::size_t>(r) * grid.columns + c];
      motion_detail::walk_segment(
          motion_detail::block_segment(grid, plane.width, plane.height, c, r, v), plane.width,
          plane.height, plot);
    }
}

}  // namespace

Status draw_motion_cpu(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors) {
  DPX_RETURN_IF_ERROR(motion_detail::validate_draw(plane, grid, vectors));
  if (plane.type == SampleType::kU8)
    draw<std::uint8_t>(plane, grid, vectors);
  else
    draw<std::uint16_t>(plane, grid, vectors);
  return Status::ok();
}

}  // namespace dpx
