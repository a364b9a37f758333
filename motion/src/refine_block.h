// The second stage of a search, per block, shared by the CPU and the CUDA kernel (one warp per
// block there): the predictive integer search around its starts, the half/quarter-pel
// refinement, and the SAD of the chosen vector. A block's SAD is summed over `lanes` workers —
// each adds the pixels lane, lane + lanes, ... and `Sum` totals the partial sums (a warp shuffle
// on the GPU, nothing on the CPU); integer sums make the total independent of the split.
// Samples are read through a `Stage`: before each group of candidates it is told the reference
// window they read (every candidate inside the frame reads only there) and returns where to read
// from — the frames themselves on the CPU, a copy in shared memory on the GPU. Either way the
// same samples enter the same arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/motion.h"
#include "dpx_ops.cuh"
#include "frame_planes.h"
#include "match_key.h"
#include "motion_cost.h"
#include "refine_planes.h"
#include "refine_samples.h"
#include "subpel_filter.h"

namespace dpx {
namespace motion_detail {

constexpr int kPredictiveWindow = 2;  // +-2 pixels exhaustive around every start
constexpr int kDescentSteps = 8;      // then at most 8 moves to a better one of the 8 neighbours
constexpr int kSubpelPatches = 3;     // the filtered sub-pel search: at most 3 patches of +-1 px

// Everything the second stage reads, computed once on the host.
struct RefineJob {
  const unsigned char* cur;
  const unsigned char* ref;
  std::size_t cur_pitch, ref_pitch;
  int width, height;
  int block, columns, rows, range;
  int scale;                  // 1, 2 or 4: the output unit
  SubpelFilter filter;        // the samples between pixels
  bool predictive;
  CostModel cost;             // the penalty; its first pass also gives the predictive starts
  MotionPrevious previous;    // predictive: the co-located starts
  const MotionVector* start;  // full search: the integer vectors (may equal out)
  MotionVector* out;
  PhasePlanes phases;  // the reference's frame-wide phase planes, for the GPU build that reads them
};

// Block (c, r) of the job, the lane's share of it.
DPX_HD BlockSpan block_span(const RefineJob& j, int c, int r, int lane, int lanes) {
  const int x0 = c * j.block, y0 = r * j.block;
  const int bw = j.width - x0 < j.block ? j.width - x0 : j.block, bh = j.height - y0 < j.block ? j.height - y0 : j.block;
  return BlockSpan{x0, y0, bw, bh, lane % bw, lane / bw, lanes % bw, lanes / bw};
}

// Which sub-pel searches a stage serves (subpel_stage): the CPU's stage both, each GPU kernel one
// (refine_cuda.cu builds them apart, so that neither pays for the other's registers and shared
// memory).
enum class SubpelPaths { kBoth, kNeighbours, kPatches };

// Does the job's sub-pel stage search patch planes (filtered_subpel_search) rather than the
// neighbours of the integer vector?
DPX_HD bool uses_patch_planes(const RefineJob& j) {
  return j.scale > 1 && j.filter.mode != MotionInterpolation::kBilinear;
}

// The CPU's stage: every window is read in place; a patch's planes are built into `planes`
// (patch_plane_samples(block) samples).
template <typename T>
struct FrameStage {
  static constexpr SubpelPaths kSubpelPaths = SubpelPaths::kBoth;
  FrameSamples<T> samples;
  T* planes;
  int block;
  DPX_HD FrameSamples<T> operator()(const BlockSpan&, const Window&) const { return samples; }
  DPX_HD PatchSamples<FrameSamples<T>, PatchPlanes<T>> patch(const BlockSpan& b, const SubpelFilter& f, int cx,
                                                              int cy) const {
    const PatchPlanes<T> p{planes, block + 2, cx, cy};
    build_patch_planes(samples, f, b, cx, cy, p);
    return PatchSamples<FrameSamples<T>, PatchPlanes<T>>{samples, p};
  }
};

// Keeps the better of `best` and the candidate v (units of 1/s) when it is inside the frame, ranked
// by weight * SAD + the penalty in the penalty's units (pen.scale; weight 1 but in the filtered
// sub-pel search, filtered_subpel_search).
template <typename Samples, typename Sum>
DPX_HD void consider(const RefineJob& j, const Samples& px, const BlockSpan& b, const Penalty& pen, int vx, int vy,
                     int s, const Sum& sum, Choice* best, std::uint32_t weight = 1) {
  if (!component_inside(vx, s, b.x0, b.bw, j.width, j.range) || !component_inside(vy, s, b.y0, b.bh, j.height, j.range))
    return;
  const int x = vx * (pen.scale / s), y = vy * (pen.scale / s);
  const Choice c{weight * sum(partial_sad(px, j.filter, b, vx, vy, s)) + pen.units(x, y), x, y};
  if (precedes(c, *best)) *best = c;
}

// Ranks into `q` the candidates of a patch (quarter pixels, weight and penalty as
// filtered_subpel_search ranks them): every position within 1 px of `centre` but itself, one at a
// time. The GPU's whole blocks rank them 8 at a time instead (refine_patch_ranking.cuh).
template <typename Patch, typename Sum>
DPX_HD void rank_patch(const RefineJob& j, const Patch& patch, const BlockSpan& b, const Penalty& quarter_pen,
                       const Choice& centre, const Sum& sum, std::uint32_t weight, Choice* q) {
  for (int y = centre.y - 4; y <= centre.y + 4; ++y)
    for (int x = centre.x - 4; x <= centre.x + 4; ++x)
      if (x != centre.x || y != centre.y) consider(j, patch, b, quarter_pen, x, y, 4, sum, q, weight);
}

// The predictive search's starts for block (c, r), in fixed slots: zero, the median predictor, the
// block's coarse vector, those of the blocks right of it (slot 3) and below it (slot 4), the
// co-located vector of the last field (slot 5), each clamped into the block's candidate range.
// Returns the mask of the slots to search: the slots filled, less any start equal to an earlier
// one. Fixed slots and a mask, where a list would be indexed at run time: on the GPU such an
// array lives in local memory, these in registers (start_at).
struct PredictiveStarts {
  Vec slot[6];
  unsigned mask;
};
DPX_HD PredictiveStarts predictive_starts(const RefineJob& j, const BlockSpan& b, int c, int r) {
  const OffsetRange xr = offset_range(b.x0, b.bw, j.width, j.range), yr = offset_range(b.y0, b.bh, j.height, j.range);
  PredictiveStarts s{{Vec{0, 0}, median_predictor(j.cost.first, c, r, j.columns), j.cost.first.at(c, r)}, 7u};
  if (c + 1 < j.columns) s.slot[3] = j.cost.first.at(c + 1, r), s.mask |= 1u << 3;
  if (r + 1 < j.rows) s.slot[4] = j.cost.first.at(c, r + 1), s.mask |= 1u << 4;
  if (j.previous.vectors != nullptr) {
    const MotionVector& v = j.previous.vectors[static_cast<std::size_t>(r) * j.columns + c];
    s.slot[5] = Vec{round_div(v.dx, j.previous.scale), round_div(v.dy, j.previous.scale)}, s.mask |= 1u << 5;
  }
  DPX_UNROLL
  for (int i = 0; i < 6; ++i) {
    Vec& v = s.slot[i];
    v = Vec{v.x < xr.lo ? xr.lo : (v.x > xr.hi ? xr.hi : v.x), v.y < yr.lo ? yr.lo : (v.y > yr.hi ? yr.hi : v.y)};
    bool seen = false;
    DPX_UNROLL
    for (int k = 0; k < i; ++k) seen = seen || ((s.mask >> k & 1) && s.slot[k].x == v.x && s.slot[k].y == v.y);
    if (seen) s.mask &= ~(1u << i);
  }
  return s;
}

// Slot i of the starts, chosen among constant indices (a run-time index would put them in local memory).
DPX_HD Vec start_at(const PredictiveStarts& s, int i) {
  Vec v = s.slot[0];
  DPX_UNROLL
  for (int k = 1; k < 6; ++k)
    if (i == k) v = s.slot[k];
  return v;
}

// The predictive integer search: an exhaustive window around each start, then a walk downhill
// (the starts are only as good as the 4x coarse search). Returns the best in output units.
template <typename Stage, typename Sum>
DPX_HD Choice predictive_search(const RefineJob& j, const BlockSpan& b, int c, int r, const Penalty& pen,
                                const Stage& stage, const Sum& sum) {
  const PredictiveStarts starts = predictive_starts(j, b, c, r);
  Choice best{UINT32_MAX, 0, 0};
  for (int i = 0; i < 6; ++i) {
    if (!(starts.mask >> i & 1)) continue;
    const Vec start = start_at(starts, i);
    const int sx = start.x, sy = start.y;
    const auto px = stage(b, window_around(b, sx, sy, kPredictiveWindow));
    for (int dy = sy - kPredictiveWindow; dy <= sy + kPredictiveWindow; ++dy)
      for (int dx = sx - kPredictiveWindow; dx <= sx + kPredictiveWindow; ++dx)
        consider(j, px, b, pen, dx, dy, 1, sum, &best);
  }
  for (int step = 0; step < kDescentSteps; ++step) {
    const Choice centre = best;
    const int cx = centre.x / j.scale, cy = centre.y / j.scale;
    const auto px = stage(b, window_around(b, cx, cy, 1));
    for (int ny = -1; ny <= 1; ++ny)
      for (int nx = -1; nx <= 1; ++nx)
        if (nx != 0 || ny != 0) consider(j, px, b, pen, cx + nx, cy + ny, 1, sum, &best);
    if (best.x == centre.x && best.y == centre.y) break;
  }
  return best;
}

// The full search's winner for block (c, r) in output units (it ranked its candidates by this very
// cost and stored the winner's).
DPX_HD Choice full_search_choice(const RefineJob& j, int c, int r) {
  const MotionVector start = j.start[static_cast<std::size_t>(r) * j.columns + c];
  return Choice{start.sad, start.dx * j.scale, start.dy * j.scale};
}

// Does the block go on past its integer vector: sub-pel steps, or the chosen vector's own SAD?
DPX_HD bool needs_subpel_stage(const RefineJob& j, const Penalty& pen) { return j.scale > 1 || pen.lambda > 0; }

// The sub-pel search with a sharp filter (H.264, HEVC), in quarter pixels whatever the output unit
// s: candidates ranked by (4 / s) SAD + lambda (|qx - 4 px| + |qy - 4 py|), on the output grid
// exactly 4 / s times the output cost. Every quarter position within 1 px of the integer vector is
// tried; while the best lies on that patch's border, the patch moves to it (at most kSubpelPatches
// patches). With s = 2 the result is the better of the half-pel vectors within 1/4 px of the
// quarter-pel winner. Sharp samples let the true position beat whole pixels up to two pixels away,
// past the local minima a descent by half then quarter steps stops in.
// Returns the chosen vector's own SAD when there is a penalty (else 0), from the planes.
template <typename Stage, typename Sum>
DPX_HD std::uint32_t filtered_subpel_search(const RefineJob& j, const BlockSpan& b, const Penalty& pen,
                                            const Stage& stage, const Sum& sum, Choice* best) {
  const std::uint32_t weight = static_cast<std::uint32_t>(4 / j.scale);
  const Penalty quarter_pen{pen.predictor, pen.lambda, 4};
  Choice q{best->cost * weight, best->x * static_cast<int>(weight), best->y * static_cast<int>(weight)};
  auto patch = stage.patch(b, j.filter, floor_div_scale(q.x, 4), floor_div_scale(q.y, 4));
  for (int n = 0; n < kSubpelPatches; ++n) {
    const Choice centre = q;
    if (n > 0) patch = stage.patch(b, j.filter, floor_div_scale(centre.x, 4), floor_div_scale(centre.y, 4));
    rank_patch(j, patch, b, quarter_pen, centre, sum, weight, &q);
    if (iabs(q.x - centre.x) < 4 && iabs(q.y - centre.y) < 4) break;
  }
  if (j.scale == 2) {
    // The half positions within 1/4 px of q: q itself on an even axis, q - 1 and q + 1 on an odd one.
    const int x_lo = q.x & ~1, x_hi = (q.x + 1) & ~1, y_lo = q.y & ~1, y_hi = (q.y + 1) & ~1;
    if (!in_patch(patch, x_lo, y_lo) || !in_patch(patch, x_hi, y_hi))
      patch = stage.patch(b, j.filter, floor_div_scale(q.x, 4), floor_div_scale(q.y, 4));
    Choice h{UINT32_MAX, 0, 0};
    for (int y = y_lo; y <= y_hi; y += 2)
      for (int x = x_lo; x <= x_hi; x += 2) consider(j, patch, b, quarter_pen, x, y, 4, sum, &h, weight);
    q = h;
  }
  *best = Choice{q.cost / weight, q.x / static_cast<int>(weight), q.y / static_cast<int>(weight)};
  return pen.lambda > 0 ? sum(partial_sad(patch, j.filter, b, q.x, q.y, 4)) : 0;
}

// The sub-pel stage without patch planes (!uses_patch_planes): bilinear, or no sub-pel step at all.
// One window around the integer vector holds every candidate; the 8 neighbours of the best at a
// half-pixel step, then at a quarter-pixel step. Improves `best`; returns the chosen vector's own
// SAD when there is a penalty (else 0).
template <typename Stage, typename Sum>
DPX_HD std::uint32_t neighbour_subpel_search(const RefineJob& j, const BlockSpan& b, const Penalty& pen,
                                             const Stage& stage, const Sum& sum, Choice* best) {
  const auto px = stage(b, window_around(b, best->x / j.scale, best->y / j.scale, subpel_reach(j.filter.mode)));
  for (int step = j.scale / 2; step >= 1; step /= 2) {
    const Choice centre = *best;
    for (int ny = -1; ny <= 1; ++ny)
      for (int nx = -1; nx <= 1; ++nx)
        if (nx != 0 || ny != 0) consider(j, px, b, pen, centre.x + nx * step, centre.y + ny * step, j.scale, sum, best);
  }
  return pen.lambda > 0 ? sum(partial_sad(px, j.filter, b, best->x, best->y, j.scale)) : 0;
}

// The sub-pel stage: the search uses_patch_planes() picks, of those the stage serves (a GPU
// kernel's stage serves one, and its launcher gives it only the jobs of that one). Improves
// `best`; returns the chosen vector's own SAD when there is a penalty (else 0).
template <typename Stage, typename Sum>
DPX_HD std::uint32_t subpel_stage(const RefineJob& j, const BlockSpan& b, const Penalty& pen, const Stage& stage,
                                  const Sum& sum, Choice* best) {
  if constexpr (Stage::kSubpelPaths == SubpelPaths::kPatches) {
    return filtered_subpel_search(j, b, pen, stage, sum, best);
  } else if constexpr (Stage::kSubpelPaths == SubpelPaths::kNeighbours) {
    return neighbour_subpel_search(j, b, pen, stage, sum, best);
  } else {
    return uses_patch_planes(j) ? filtered_subpel_search(j, b, pen, stage, sum, best)
                                : neighbour_subpel_search(j, b, pen, stage, sum, best);
  }
}

// Block (c, r)'s result: the vector, and its SAD — the cost itself without a penalty, `sad` with one.
DPX_HD void store_choice(const RefineJob& j, int c, int r, const Penalty& pen, const Choice& best, std::uint32_t sad) {
  MotionVector v;
  v.dx = static_cast<std::int16_t>(best.x);
  v.dy = static_cast<std::int16_t>(best.y);
  v.sad = pen.lambda > 0 ? sad : best.cost;
  j.out[static_cast<std::size_t>(r) * j.columns + c] = v;
}

// Block (c, r) of the job, from its integer vector (the predictive search's or the full search's)
// to the stored result.
template <typename Stage, typename Sum>
DPX_HD void refine_block(const RefineJob& j, int c, int r, int lane, int lanes, const Stage& stage, const Sum& sum) {
  const BlockSpan b = block_span(j, c, r, lane, lanes);
  const Penalty pen = j.cost.at(c, r, j.columns);
  Choice best = j.predictive ? predictive_search(j, b, c, r, pen, stage, sum) : full_search_choice(j, c, r);
  const std::uint32_t sad = needs_subpel_stage(j, pen) ? subpel_stage(j, b, pen, stage, sum, &best) : 0;
  if (lane == 0) store_choice(j, c, r, pen, best, sad);
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
