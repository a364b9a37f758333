// The reference sample between pixels, (x + fx/4, y + fy/4) with fx, fy in 0..3, by the three
// interpolations of dpx/motion.h. One functor that the CPU twin and the CUDA kernels both run, so
// their samples agree by construction. `at(x, y)` returns the reference sample at whole pixel
// (x, y) with the frame's edges replicated (coordinates clamped into the frame); the candidates a
// search admits keep the bilinear footprint inside the frame, so only the longer filters' outer
// taps ever see a replicated sample.
//
//   bilinear: weights in quarter pixels, ((4-fx)(4-fy) A + fx(4-fy) B + (4-fx)fy C + fx fy D + 8) >> 4.
//   h264:     H.264's luma: half samples by the 6-tap (1, -5, 20, 20, -5, 1), rounded (+16) >> 5
//             and clipped; the centre half sample (j) from the unrounded horizontal half sums,
//             (+512) >> 10; quarter samples the rounded average of the two nearest integer or
//             half samples (H.264 8.4.2.2.1).
//   hevc:     HEVC's luma: the 7-tap quarter (-1, 4, -10, 58, 17, -5, 1, 0), the 8-tap half
//             (-1, 4, -11, 40, 40, -11, 4, -1) and the mirrored three-quarter filter, taps from x - 3
//             to x + 4; one fraction: (sum + 32) >> 6, clipped; both: the horizontal sums shifted by
//             shift1 = min(4, bit depth - 8), the vertical sum of those shifted by 6, then rounded by
//             the remaining 6 - shift1 bits and clipped (HEVC 8.5.3.3.3.1 with its range extensions'
//             shifts for deep samples; for 8-bit samples the intermediate is exact).
#pragma once

#include "dpx/motion.h"
#include "dpx_ops.cuh"

namespace dpx {
namespace motion_detail {

// How far a filtered sub-pel step's reference window reaches beyond the block at its centre's whole
// pixel c on every side: its candidates lie within half a pixel of the centre, so their whole
// part is c - 1, c or c + 1, and HEVC's taps reach 3 left and 4 right of it.
constexpr int kSubpelReach = 5;

// HEVC's luma filter of phase p (quarter pixels), taps at x - 3 .. x + 4; phase 3 mirrors phase 1.
// No table indexed by the phase: with i known at compile time (unrolled loops) a tap is a constant
// the phase selects, where a table indexed at run time would be built in a GPU thread's local
// memory on every call.
DPX_HD constexpr int hevc_tap(int phase, int i) {
  constexpr int kQuarter[8] = {-1, 4, -10, 58, 17, -5, 1, 0};
  constexpr int kHalf[8] = {-1, 4, -11, 40, 40, -11, 4, -1};
  // The phase-0 row is the identity; it is never used for a fraction of 0 (the sample is read).
  return phase == 1 ? kQuarter[i] : (phase == 2 ? kHalf[i] : (phase == 3 ? kQuarter[7 - i] : (i == 3 ? 64 : 0)));
}

// The 8 taps of one phase, for a loop over samples whose phase does not change.
struct HevcTaps {
  int tap[8];
};
DPX_HD HevcTaps hevc_taps(int phase) {
  HevcTaps k{};
  DPX_UNROLL
  for (int i = 0; i < 8; ++i) k.tap[i] = hevc_tap(phase, i);
  return k;
}

struct SubpelFilter {
  MotionInterpolation mode = MotionInterpolation::kBilinear;
  int max_value = 255;  // the brightest sample: 255 or 65535
  int shift1 = 0;       // HEVC's intermediate shift: 0 for 8-bit samples, 4 for 16-bit

  DPX_HD int clip(int v) const { return v < 0 ? 0 : (v > max_value ? max_value : v); }

  template <typename At>
  DPX_HD int operator()(const At& at, int x, int y, int fx, int fy) const {
    if ((fx | fy) == 0) return at(x, y);
    if (mode == MotionInterpolation::kH264) return h264(at, x, y, fx, fy);
    if (mode == MotionInterpolation::kHevc) return hevc(at, x, y, fx, fy);
    return bilinear(at, x, y, fx, fy);
  }

  // Only the pixels a nonzero weight needs are read.
  template <typename At>
  DPX_HD int bilinear(const At& at, int x, int y, int fx, int fy) const {
    const int x1 = fx != 0 ? x + 1 : x, y1 = fy != 0 ? y + 1 : y;
    return ((4 - fx) * (4 - fy) * at(x, y) + fx * (4 - fy) * at(x1, y) + (4 - fx) * fy * at(x, y1) +
            fx * fy * at(x1, y1) + 8) >>
           4;
  }

  // H.264's unrounded 6-tap sums: between (x, y) and (x + 1, y), and between (x, y) and (x, y + 1).
  template <typename At>
  DPX_HD static int h264_row_sum(const At& at, int x, int y) {
    return at(x - 2, y) - 5 * at(x - 1, y) + 20 * at(x, y) + 20 * at(x + 1, y) - 5 * at(x + 2, y) +
           at(x + 3, y);
  }
  template <typename At>
  DPX_HD static int h264_column_sum(const At& at, int x, int y) {
    return at(x, y - 2) - 5 * at(x, y - 1) + 20 * at(x, y) + 20 * at(x, y + 1) - 5 * at(x, y + 2) +
           at(x, y + 3);
  }
  // The centre half sample j at (x + 1/2, y + 1/2): the 6-tap over the unrounded row sums.
  template <typename At>
  DPX_HD int h264_centre(const At& at, int x, int y) const {
    const int j1 = h264_row_sum(at, x, y - 2) - 5 * h264_row_sum(at, x, y - 1) + 20 * h264_row_sum(at, x, y) +
                   20 * h264_row_sum(at, x, y + 1) - 5 * h264_row_sum(at, x, y + 2) +
                   h264_row_sum(at, x, y + 3);
    return clip((j1 + 512) >> 10);
  }

  // The integer or half sample at half-pixel offsets (hx, hy) in {0, 1} from (x, y).
  template <typename At>
  DPX_HD int h264_half(const At& at, int x, int y, int hx, int hy) const {
    if (hx == 0 && hy == 0) return at(x, y);
    if (hy == 0) return clip((h264_row_sum(at, x, y) + 16) >> 5);
    if (hx == 0) return clip((h264_column_sum(at, x, y) + 16) >> 5);
    return h264_centre(at, x, y);
  }

  // Quarter positions average the two nearest integer/half samples (h264_quarter), here from the
  // frame itself.
  template <typename At>
  DPX_HD int h264(const At& at, int x, int y, int fx, int fy) const {
    return h264_quarter([&](int qx, int qy) { return h264_half_at(at, x, y, qx, qy); }, fx, fy);
  }
  // H.264's sample at quarter offsets (fx, fy) from the integer and half samples around it:
  // half(qx, qy) the one at quarter offsets (qx, qy), both even, 0..4 (h264_half_at). Quarter
  // positions average the two nearest: in half-pixel units (2 fx', 2 fy') = (fx, fy), the two are
  // at (floor, ceil) of fx / 2 on the odd axis — the pair H.264 names (G,b), (b,H), (G,h), (h,M),
  // (b,j), (j,s), (h,j), (j,m) — and on the diagonals (e, g, p, r) the two half samples nearest to
  // the point, across the pixel's diagonal that does not hold an integer sample: b with h, b with
  // m, h with s, m with s. The one place of the rule: the functor above and the frame-wide planes
  // (frame_planes.h, the integer and half samples around a pixel computed once) both end here.
  template <typename Half>
  DPX_HD static int h264_quarter(const Half& half, int fx, int fy) {
    const bool odd_x = fx & 1, odd_y = fy & 1;
    if (!odd_x && !odd_y) return half(fx, fy);
    int a, b;
    if (odd_x && odd_y) {
      // e (1,1): b, h   g (3,1): b, m   p (1,3): h, s   r (3,3): m, s   (b = (1/2, 0), h = (0, 1/2),
      // m = (1, 1/2), s = (1/2, 1) in pixels)
      a = half(2, fy == 1 ? 0 : 4);  // b or s
      b = half(fx == 1 ? 0 : 4, 2);  // h or m
    } else if (odd_x) {
      // Between half columns fx - 1 and fx + 1 (in quarters) on half row fy.
      a = half(fx - 1, fy);
      b = half(fx + 1, fy);
    } else {
      a = half(fx, fy - 1);
      b = half(fx, fy + 1);
    }
    return (a + b + 1) >> 1;
  }
  // The integer/half sample at quarter offsets (qx, qy), both even, 0..4, from (x, y).
  template <typename At>
  DPX_HD int h264_half_at(const At& at, int x, int y, int qx, int qy) const {
    return h264_half(at, x + (qx >> 2), y + (qy >> 2), (qx >> 1) & 1, (qy >> 1) & 1);
  }

  // HEVC: the horizontal filter of taps k at row y (taps x - 3 .. x + 4), unshifted.
  template <typename At>
  DPX_HD static int hevc_row(const At& at, int x, int y, const HevcTaps& k) {
    int sum = 0;
    DPX_UNROLL
    for (int i = 0; i < 8; ++i) sum += k.tap[i] * at(x - 3 + i, y);
    return sum;
  }
  // HEVC's vertical stage of phase fy over the rows y - 3 .. y + 4 of a column: the samples
  // themselves (no horizontal fraction) or the horizontal filter's unshifted sums (`horizontal`);
  // phase 0 is row y alone. The one place of HEVC's shifts, rounding and clipping: the functor
  // below and the planes' columns (refine_planes.h, with fy a constant there) both end here.
  DPX_HD int hevc_vertical(const int (&rows)[8], bool horizontal, int fy) const {
    if (fy == 0) return horizontal ? clip((rows[3] + 32) >> 6) : rows[3];
    int sum = 0;
    DPX_UNROLL
    for (int i = 0; i < 8; ++i) sum += hevc_tap(fy, i) * (horizontal ? rows[i] >> shift1 : rows[i]);
    return horizontal ? clip(((sum >> 6) + (1 << (5 - shift1))) >> (6 - shift1)) : clip((sum + 32) >> 6);
  }
  template <typename At>
  DPX_HD int hevc(const At& at, int x, int y, int fx, int fy) const {
    const HevcTaps h = hevc_taps(fx);
    int rows[8];
    DPX_UNROLL
    for (int i = 0; i < 8; ++i) rows[i] = fx != 0 ? hevc_row(at, x, y - 3 + i, h) : at(x, y - 3 + i);
    return hevc_vertical(rows, fx != 0, fy);
  }
};

// The filter of an interpolation for samples of `bytes` bytes (1 or 2).
DPX_HD SubpelFilter subpel_filter(MotionInterpolation mode, int bytes) {
  return bytes == 1 ? SubpelFilter{mode, 255, 0} : SubpelFilter{mode, 65535, 4};
}

// How far a sub-pel stage's window reaches beyond the integer vector's block: the bilinear
// weights one pixel, the longer filters kSubpelReach.
DPX_HD int subpel_reach(MotionInterpolation mode) {
  return mode == MotionInterpolation::kBilinear ? 1 : kSubpelReach;
}

}  // namespace motion_detail
}  // namespace dpx
