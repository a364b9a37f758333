// What both draw backends share: which pixels a block's vector covers, and the argument checks.
// The CPU and CUDA versions walk the same segments and write one value, so they agree bit for bit
// whatever order overlapping segments are drawn in.
#pragma once

#include <cstddef>

#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "motion_cost.h"

namespace dpx {
namespace motion_detail {

// From the centre of the block's in-frame part to centre + (dx, dy) / scale (rounded, halves away
// from zero), ends included.
struct Segment {
  int x0, y0, x1, y1;
};

DPX_HD Segment block_segment(const MotionGrid& grid, int width, int height, int column, int row, MotionVector v) {
  const int block_size = grid.block_size;
  const int bx = column * block_size, by = row * block_size;
  const int bw = width - bx < block_size ? width - bx : block_size;
  const int bh = height - by < block_size ? height - by : block_size;
  const int cx = bx + bw / 2, cy = by + bh / 2;
  return Segment{cx, cy, cx + round_div(v.dx, grid.scale), cy + round_div(v.dy, grid.scale)};
}

// Sets a pixel to the sample type's largest value.
template <typename T>
struct PlotMax {
  unsigned char* data;
  std::size_t pitch;
  DPX_HD void operator()(int x, int y) const {
    reinterpret_cast<T*>(data + static_cast<std::size_t>(y) * pitch)[x] = static_cast<T>(~T(0));
  }
};

// Calls plot(x, y) for every pixel of the segment (Bresenham), skipping pixels outside the plane.
template <typename Plot>
DPX_HD void walk_segment(const Segment& s, int width, int height, Plot& plot) {
  const int dx = s.x1 > s.x0 ? s.x1 - s.x0 : s.x0 - s.x1, sx = s.x0 < s.x1 ? 1 : -1;
  const int dy = s.y1 > s.y0 ? s.y0 - s.y1 : s.y1 - s.y0, sy = s.y0 < s.y1 ? 1 : -1;  // dy <= 0
  int x = s.x0, y = s.y0, err = dx + dy;
  for (;;) {
    if (x >= 0 && x < width && y >= 0 && y < height) plot(x, y);
    if (x == s.x1 && y == s.y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y += sy;
    }
  }
}

// The plane is one channel and the grid is the plane's grid for its block size.
Status validate_draw(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors);

}  // namespace motion_detail
}  // namespace dpx
