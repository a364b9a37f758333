// What the second stage (refine_block.h) reads and how it sums: the frames' samples, the filters'
// view of them, a block's pixels shared among lanes, the admissible candidates and the lane's part
// of a candidate's SAD. Host and device code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "motion_cost.h"
#include "subpel_filter.h"

namespace dpx {
namespace motion_detail {

// The samples of the frames themselves, at frame coordinates (the CPU's stage).
template <typename T>
struct FrameSamples {
  const unsigned char* cur;
  const unsigned char* ref;
  std::size_t cur_pitch, ref_pitch;
  int width, height;
  DPX_HD int cur_at(int x, int y) const {
    return reinterpret_cast<const T*>(cur + static_cast<std::size_t>(y) * cur_pitch)[x];
  }
  DPX_HD int ref_at(int x, int y) const {
    return reinterpret_cast<const T*>(ref + static_cast<std::size_t>(y) * ref_pitch)[x];
  }
  // The reference with the frame's edges replicated: what the filters' outer taps read.
  DPX_HD int ref_edge(int x, int y) const {
    return ref_at(x < 0 ? 0 : (x >= width ? width - 1 : x), y < 0 ? 0 : (y >= height ? height - 1 : y));
  }
};

// The filters' view of a stage's samples: whole reference pixels, edges replicated.
template <typename Samples>
struct EdgeSamples {
  const Samples& px;
  DPX_HD int operator()(int x, int y) const { return px.ref_edge(x, y); }
};

// A reference window [rx, rx + rw) x [ry, ry + rh) in frame coordinates.
struct Window {
  int rx, ry, rw, rh;
};

// The reference sample at (x + fx/4, y + fy/4) by the job's filter (subpel_filter.h).
template <typename Samples>
DPX_HD int interpolated(const Samples& px, const SubpelFilter& f, int x, int y, int fx, int fy) {
  if ((fx | fy) == 0) return px.ref_at(x, y);
  return f(EdgeSamples<Samples>{px}, x, y, fx, fy);
}

// May a block at `origin` (`extent` pixels in the frame) use the component v (units of 1/s)?
// |v| <= s R, and every reference pixel the bilinear weights read lies inside the frame (the
// longer filters' outer taps may pass the edge; they read it replicated).
DPX_HD bool component_inside(int v, int s, int origin, int extent, int frame, int range) {
  if (iabs(v) > s * range) return false;
  const int whole = floor_div_scale(v, s), reach = v != whole * s ? 1 : 0;
  return origin + whole >= 0 && origin + whole + extent + reach <= frame;
}

// One block of a job: its place, size and how its pixels are shared among the lanes: the lane
// takes pixel (x, y) = (lane % bw, lane / bw), then steps (lanes % bw, lanes / bw), wrapping rows.
struct BlockSpan {
  int x0, y0, bw, bh;
  int x, y, step_x, step_y;
};

// Calls pixel(x, y) for each of the lane's pixels of the block (block coordinates), in order.
template <typename Pixel>
DPX_HD void for_lane_pixels(const BlockSpan& b, const Pixel& pixel) {
  int x = b.x, y = b.y;
  while (y < b.bh) {
    pixel(x, y);
    x += b.step_x;
    y += b.step_y;
    if (x >= b.bw) x -= b.bw, ++y;
  }
}

// Pixel (x, y) of the block (block coordinates).
template <typename T>
DPX_HD int block_pixel(const FrameSamples<T>& px, const BlockSpan& b, int x, int y) {
  return px.cur_at(b.x0 + x, b.y0 + y);
}

// The whole part and the quarter-pixel fraction of v (units of 1/s), one axis.
struct SubpelOffset {
  int whole, quarter;
};
DPX_HD SubpelOffset subpel_offset(int v, int s) {
  const int whole = floor_div_scale(v, s);
  return SubpelOffset{whole, (v - whole * s) << (2 - (s >> 1))};  // * 4 / s
}

// The lane's part of the SAD of the block against the reference at v / s (s = 1, 2 or 4).
template <typename Samples>
DPX_HD std::uint32_t partial_sad(const Samples& px, const SubpelFilter& f, const BlockSpan& b, int vx, int vy, int s) {
  const SubpelOffset ox = subpel_offset(vx, s), oy = subpel_offset(vy, s);
  std::uint32_t sum = 0;
  for_lane_pixels(b, [&](int x, int y) {
    const int c = px.cur_at(b.x0 + x, b.y0 + y);
    const int r = interpolated(px, f, b.x0 + x + ox.whole, b.y0 + y + oy.whole, ox.quarter, oy.quarter);
    sum += static_cast<std::uint32_t>(c > r ? c - r : r - c);
  });
  return sum;
}

// The window the integer candidates (cx + dx, cy + dy), |dx|, |dy| <= reach, read. With reach
// subpel_reach() it also holds what the sub-pel candidates around (cx, cy) read: bilinear's lie
// within 3/4 pixel (whole part cx - 1 or cx, one pixel of weights further); a filtered patch's
// whole parts are cx - 1 .. cx + 1, the taps 3 left and 4 right of them (kSubpelReach).
DPX_HD Window window_around(const BlockSpan& b, int cx, int cy, int reach) {
  return Window{b.x0 + cx - reach, b.y0 + cy - reach, b.bw + 2 * reach, b.bh + 2 * reach};
}

}  // namespace motion_detail
}  // namespace dpx
