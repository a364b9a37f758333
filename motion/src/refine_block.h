// The second stage of a search, per block, shared by the CPU and the CUDA kernel (one warp per
// block there): the predictive integer search around its starts, the half/quarter-pel
// refinement, and the SAD of the chosen vector. A block's SAD is summed over `lanes` workers —
// each adds the pixels lane, lane + lanes, ... and `Sum` totals the partial sums (a warp shuffle
// on the GPU, nothing on the CPU); integer sums make the total independent of the split.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "match_key.h"
#include "motion_cost.h"

namespace dpx {
namespace motion_detail {

constexpr int kPredictiveWindow = 2;  // +-2 pixels exhaustive around every start
constexpr int kDescentSteps = 8;      // then at most 8 moves to a better one of the 8 neighbours

// Everything the second stage reads, computed once on the host.
struct RefineJob {
  const unsigned char* cur;
  const unsigned char* ref;
  std::size_t cur_pitch, ref_pitch;
  int width, height;
  int block, columns, rows, range;
  int scale;                  // 1, 2 or 4: the output unit
  bool predictive;
  CostModel cost;             // the penalty; its first pass also gives the predictive starts
  MotionPrevious previous;    // predictive: the co-located starts
  const MotionVector* start;  // full search: the integer vectors (may equal out)
  MotionVector* out;
};

// The reference sample at (x + fx/4, y + fy/4), bilinear with weights in quarter pixels, rounded.
// Only the pixels a nonzero weight needs are read.
template <typename T>
DPX_HD int interpolated(const unsigned char* ref, std::size_t pitch, int x, int y, int fx, int fy) {
  const T* r0 = reinterpret_cast<const T*>(ref + static_cast<std::size_t>(y) * pitch);
  if ((fx | fy) == 0) return r0[x];
  const T* r1 = fy != 0 ? reinterpret_cast<const T*>(ref + static_cast<std::size_t>(y + 1) * pitch) : r0;
  const int x1 = fx != 0 ? x + 1 : x;
  return ((4 - fx) * (4 - fy) * r0[x] + fx * (4 - fy) * r0[x1] + (4 - fx) * fy * r1[x] + fx * fy * r1[x1] + 8) >> 4;
}

// May a block at `origin` (`extent` pixels in the frame) use the component v (units of 1/s)?
// |v| <= s R, and every reference pixel the interpolation reads lies inside the frame.
DPX_HD bool component_inside(int v, int s, int origin, int extent, int frame, int range) {
  if (iabs(v) > s * range) return false;
  const int whole = floor_div(v, s), reach = v != whole * s ? 1 : 0;
  return origin + whole >= 0 && origin + whole + extent + reach <= frame;
}

// One block of a job: its place, size and how its pixels are shared among the lanes.
struct BlockSpan {
  int x0, y0, bw, bh;
  int lane, lanes;
};

// The lane's part of the SAD of the block against the reference at v / s (s = 1, 2 or 4).
template <typename T>
DPX_HD std::uint32_t partial_sad(const RefineJob& j, const BlockSpan& b, int vx, int vy, int s) {
  const int ix = floor_div(vx, s), iy = floor_div(vy, s);
  const int fx = (vx - ix * s) * (4 / s), fy = (vy - iy * s) * (4 / s);
  const int step_x = b.lanes % b.bw, step_y = b.lanes / b.bw;
  int x = b.lane % b.bw, y = b.lane / b.bw;
  std::uint32_t sum = 0;
  while (y < b.bh) {
    const int c = reinterpret_cast<const T*>(j.cur + static_cast<std::size_t>(b.y0 + y) * j.cur_pitch)[b.x0 + x];
    const int r = interpolated<T>(j.ref, j.ref_pitch, b.x0 + x + ix, b.y0 + y + iy, fx, fy);
    sum += static_cast<std::uint32_t>(c > r ? c - r : r - c);
    x += step_x;
    y += step_y;
    if (x >= b.bw) x -= b.bw, ++y;
  }
  return sum;
}

// Keeps the better of `best` and the candidate v (units of 1/s) when it is inside the frame.
template <typename T, typename Sum>
DPX_HD void consider(const RefineJob& j, const BlockSpan& b, const Penalty& pen, int vx, int vy, int s,
                     const Sum& sum, Choice* best) {
  if (!component_inside(vx, s, b.x0, b.bw, j.width, j.range) || !component_inside(vy, s, b.y0, b.bh, j.height, j.range))
    return;
  const Choice c{sum(partial_sad<T>(j, b, vx, vy, s)) + pen.units(vx * (j.scale / s), vy * (j.scale / s)),
                 vx * (j.scale / s), vy * (j.scale / s)};
  if (precedes(c, *best)) *best = c;
}

// The predictive integer search: an exhaustive window around each distinct start, clamped into
// the block's candidate range. Returns the best in output units.
template <typename T, typename Sum>
DPX_HD Choice predictive_search(const RefineJob& j, const BlockSpan& b, int c, int r, const Penalty& pen,
                                const Sum& sum) {
  const OffsetRange xr = offset_range(b.x0, b.bw, j.width, j.range), yr = offset_range(b.y0, b.bh, j.height, j.range);
  Vec starts[4] = {Vec{0, 0}, median_predictor(j.cost.first, c, r, j.columns), j.cost.first.at(c, r), Vec{0, 0}};
  int count = 3;
  if (j.previous.vectors != nullptr) {
    const MotionVector& v = j.previous.vectors[static_cast<std::size_t>(r) * j.columns + c];
    starts[count++] = Vec{round_div(v.dx, j.previous.scale), round_div(v.dy, j.previous.scale)};
  }
  Choice best{UINT32_MAX, 0, 0};
  for (int i = 0; i < count; ++i) {
    const int sx = starts[i].x < xr.lo ? xr.lo : (starts[i].x > xr.hi ? xr.hi : starts[i].x);
    const int sy = starts[i].y < yr.lo ? yr.lo : (starts[i].y > yr.hi ? yr.hi : starts[i].y);
    starts[i] = Vec{sx, sy};
    bool seen = false;  // a start equal to an earlier one adds no candidate
    for (int k = 0; k < i; ++k) seen = seen || (starts[k].x == sx && starts[k].y == sy);
    if (seen) continue;
    for (int dy = sy - kPredictiveWindow; dy <= sy + kPredictiveWindow; ++dy)
      for (int dx = sx - kPredictiveWindow; dx <= sx + kPredictiveWindow; ++dx)
        consider<T>(j, b, pen, dx, dy, 1, sum, &best);
  }
  // The starts are only as good as the 4x coarse search: walk downhill from the best.
  for (int step = 0; step < kDescentSteps; ++step) {
    const Choice centre = best;
    for (int ny = -1; ny <= 1; ++ny)
      for (int nx = -1; nx <= 1; ++nx)
        if (nx != 0 || ny != 0) consider<T>(j, b, pen, centre.x / j.scale + nx, centre.y / j.scale + ny, 1, sum, &best);
    if (best.x == centre.x && best.y == centre.y) break;
  }
  return best;
}

// Block (c, r) of the job, from its integer vector to the stored result.
template <typename T, typename Sum>
DPX_HD void refine_block(const RefineJob& j, int c, int r, int lane, int lanes, const Sum& sum) {
  const int x0 = c * j.block, y0 = r * j.block;
  const BlockSpan b{x0, y0, j.width - x0 < j.block ? j.width - x0 : j.block,
                    j.height - y0 < j.block ? j.height - y0 : j.block, lane, lanes};
  const Penalty pen = j.cost.at(c, r, j.columns);
  const std::size_t index = static_cast<std::size_t>(r) * j.columns + c;
  Choice best;
  if (j.predictive) {
    best = predictive_search<T>(j, b, c, r, pen, sum);
  } else {
    // The full search ranked its candidates by this very cost, and stored the winner's.
    const MotionVector start = j.start[index];
    best = Choice{start.sad, start.dx * j.scale, start.dy * j.scale};
  }
  // Half then quarter pixels: the 8 neighbours of the best at half the previous step.
  for (int step = j.scale / 2; step >= 1; step /= 2) {
    const Choice centre = best;
    for (int ny = -1; ny <= 1; ++ny)
      for (int nx = -1; nx <= 1; ++nx)
        if (nx != 0 || ny != 0) consider<T>(j, b, pen, centre.x + nx * step, centre.y + ny * step, j.scale, sum, &best);
  }
  const std::uint32_t sad = pen.lambda > 0 ? sum(partial_sad<T>(j, b, best.x, best.y, j.scale)) : best.cost;
  if (lane == 0) {
    MotionVector v;
    v.dx = static_cast<std::int16_t>(best.x);
    v.dy = static_cast<std::int16_t>(best.y);
    v.sad = sad;
    j.out[index] = v;
  }
}

// Pixel (x, y) of the 4x box-averaged plane: the mean of the 4x4 pixels it covers, rounded, the
// frame's last row and column repeated where the box passes the edge.
template <typename T>
DPX_HD T box_average_4x(const unsigned char* src, std::size_t pitch, int width, int height, int x, int y) {
  std::uint32_t total = 0;
  for (int i = 0; i < 4; ++i) {
    const int sy = 4 * y + i < height ? 4 * y + i : height - 1;
    const T* row = reinterpret_cast<const T*>(src + static_cast<std::size_t>(sy) * pitch);
    for (int k = 0; k < 4; ++k) total += row[4 * x + k < width ? 4 * x + k : width - 1];
  }
  return static_cast<T>((total + 8) >> 4);
}

}  // namespace motion_detail
}  // namespace dpx
