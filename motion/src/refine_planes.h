// The sample planes of a sub-pel patch: the filtered search (refine_block.h,
// filtered_subpel_search) tries every quarter position within 1 px of a centre, 81 candidates that
// read only 16 phases of (bw + 2) x (bh + 2) reference samples. Each sample is interpolated once
// into its plane, and a candidate's SAD then reads one plane sample a pixel, where it would run
// the filter per pixel and candidate. The filter functor computes every plane sample, so the samples
// are the ones the functor gives a candidate directly. The CPU's search builds them
// (refine_block.h, FrameStage); the GPU's reads the frame's planes instead (frame_planes.h), built
// once for every block by hevc_phase_column below and the H.264 filter's own steps.
#pragma once

#include <cstdint>

#include "refine_samples.h"

namespace dpx {
namespace motion_detail {

// Samples a plane buffer holds for blocks up to `block` pixels a side: 16 phases of (block + 2)^2.
DPX_HD constexpr int patch_plane_samples(int block) { return 16 * (block + 2) * (block + 2); }

// The planes of the patch whose candidates have whole parts cx - 1 .. cx + 1 and cy - 1 .. cy + 1:
// plane (fx, fy) sample (x, y) is the reference at (x0 + cx - 1 + x + fx / 4, y0 + cy - 1 + y + fy / 4)
// for the block at (x0, y0). Planes are `side` samples wide and tall (the buffer's block + 2).
template <typename T>
struct PatchPlanes {
  T* data;
  int side;
  int cx, cy;
  DPX_HD int at(int x, int y, int fx, int fy) const { return data[((fy * 4 + fx) * side + y) * side + x]; }
};

// HEVC's 4 phase planes of horizontal phase fx, one column of them: the samples at
// (x + fx / 4, y + fy / 4) for rows y0 .. y0 + h - 1 of column x, `at`'s coordinates. The column's
// h + 7 rows are filtered once each (phase 0: the samples themselves) into a window of 8 that
// slides down the column, and every vertical phase comes from the window by the functor's own
// vertical stage (SubpelFilter::hevc_vertical), each row filtered once where the functor filters 8
// rows a sample. Sample (y0 + y, fy) goes to out[fy * phase_step + y * row_step]. A patch's planes
// (below) and the frame-wide planes (frame_planes.h) are built by it.
template <typename At, typename T>
DPX_HD void hevc_phase_column(const SubpelFilter& f, const At& at, int x, int y0, int fx, int h, T* out, int row_step,
                              int phase_step) {
  const HevcTaps taps = hevc_taps(fx);
  const auto row = [&](int y) { return fx != 0 ? SubpelFilter::hevc_row(at, x, y, taps) : at(x, y); };
  int window[8];  // window[i]: row y0 + y - 3 + i
  DPX_UNROLL
  for (int i = 1; i < 8; ++i) window[i] = row(y0 - 4 + i);
  for (int y = 0; y < h; ++y) {
    DPX_UNROLL
    for (int i = 0; i < 7; ++i) window[i] = window[i + 1];
    window[7] = row(y0 + y + 4);
    // The vertical phases unrolled: every tap a constant.
    DPX_UNROLL
    for (int fy = 0; fy < 4; ++fy)
      out[fy * phase_step + y * row_step] = static_cast<T>(f.hevc_vertical(window, fx != 0, fy));
  }
}

// Fills the planes of the patch around whole pixel (cx, cy).
// `px` must hold what the filter reads there: every reference sample within kSubpelReach pixels of
// the block moved by (cx, cy). HEVC's separable filters build a column of 4 planes at a time
// (hevc_phase_column); H.264's samples come from its filter (SubpelFilter::h264) one by one.
template <typename Samples, typename T>
DPX_HD void build_patch_planes(const Samples& px, const SubpelFilter& f, const BlockSpan& b, int cx, int cy,
                               const PatchPlanes<T>& planes) {
  const int w = b.bw + 2, h = b.bh + 2, x0 = b.x0 + cx - 1, y0 = b.y0 + cy - 1;
  const EdgeSamples<Samples> at{px};
  if (f.mode == MotionInterpolation::kHevc) {
    const int side = planes.side;
    for (int fx = 0; fx < 4; ++fx)
      for (int x = 0; x < w; ++x)  // column x of the planes (fx, 0..3)
        hevc_phase_column(f, at, x0 + x, y0, fx, h, planes.data + fx * side * side + x, side, 4 * side * side);
    return;
  }
  const int per_plane = w * h;
  for (int i = 0; i < 16 * per_plane; ++i) {
    const int phase = i / per_plane, rest = i - phase * per_plane, y = rest / w, x = rest - y * w;
    const int fx = phase & 3, fy = phase >> 2;
    planes.data[(phase * planes.side + y) * planes.side + x] = static_cast<T>(f.h264(at, x0 + x, y0 + y, fx, fy));
  }
}

// A stage's samples with the planes of one patch: the block's own pixels from `px`, the candidates'
// reference samples from the planes — a patch's own (PatchPlanes) or the frame's seen from the
// patch (FramePatch, frame_planes.h): `Planes` has the patch's centre (cx, cy) and at(x, y, fx, fy)
// in the patch's coordinates.
template <typename Samples, typename Planes>
struct PatchSamples {
  Samples px;
  Planes planes;
};

// Does the candidate v (quarter pixels) read only the patch's planes?
template <typename Samples, typename Planes>
DPX_HD bool in_patch(const PatchSamples<Samples, Planes>& p, int vx, int vy) {
  const int dx = floor_div_scale(vx, 4) - p.planes.cx, dy = floor_div_scale(vy, 4) - p.planes.cy;
  return dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
}

// The lane's part of the SAD of the block against the candidate v (quarter pixels, in_patch): the
// pixels as partial_sad shares them, the reference from the planes.
template <typename Samples, typename Planes>
DPX_HD std::uint32_t partial_sad(const PatchSamples<Samples, Planes>& p, const SubpelFilter&, const BlockSpan& b, int vx,
                                 int vy, int /*s: always 4*/) {
  const SubpelOffset ox = subpel_offset(vx, 4), oy = subpel_offset(vy, 4);
  const int px0 = ox.whole - p.planes.cx + 1, py0 = oy.whole - p.planes.cy + 1;
  std::uint32_t sum = 0;
  for_lane_pixels(b, [&](int x, int y) {
    const int c = block_pixel(p.px, b, x, y);
    const int r = p.planes.at(px0 + x, py0 + y, ox.quarter, oy.quarter);
    sum += static_cast<std::uint32_t>(c > r ? c - r : r - c);
  });
  return sum;
}

}  // namespace motion_detail
}  // namespace dpx
