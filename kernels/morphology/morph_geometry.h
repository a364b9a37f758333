// Geometry both morphology backends share, host and device: where an outside coordinate reads
// from under each border rule, and the structuring elements as one centred run per mask row.
#pragma once

#include <type_traits>

#include "dpx/morphology.h"
#include "dpx_ops.cuh"  // DPX_HD

namespace dpx {
namespace morph {

// Source index for coordinate p of a line of n samples (n >= 1) under kReplicate / kReflect101,
// exactly OpenCV's borderInterpolate (reflect101 folds repeatedly when the radius exceeds the
// line: n = 2 maps -2 to 0). Not used for kNeutral, where outside coordinates read nothing.
DPX_HD int border_index(int p, int n, BorderMode border) {
  if (p >= 0 && p < n) return p;
  if (border == BorderMode::kReplicate) return p < 0 ? 0 : n - 1;
  if (n == 1) return 0;
  do {
    p = p < 0 ? -p : 2 * n - 2 - p;
  } while (p < 0 || p >= n);
  return p;
}

// Where the border rule maps coordinates first .. first + count - 1 (count >= 1) of a line of n:
// onto start + j * step with step 1, -1 or 0 (a span inside the line, or wholly past one edge of
// it), onto nothing (start -1: kNeutral past an edge), or neither (step 2: a span across an edge,
// or one folded more than once). The border rule steps by at most one sample a coordinate, so
// ends count - 1 apart mean every step is the same.
struct LineWalk {
  int start, step;
};

DPX_HD LineWalk line_walk(int first, int count, int n, BorderMode border) {
  const int last = first + count - 1;
  if (first >= 0 && last < n) return {first, 1};
  if (border == BorderMode::kNeutral) return last < 0 || first >= n ? LineWalk{-1, 0} : LineWalk{0, 2};
  if (border == BorderMode::kReplicate && (last <= 0 || first >= n - 1)) return {last <= 0 ? 0 : n - 1, 0};
  const int a = border_index(first, n, border), b = border_index(last, n, border);
  if (b - a == count - 1) return {a, 1};
  if (a - b == count - 1) return {a, -1};
  return {0, 2};
}

// Every row of OpenCV's rect, cross and ellipse masks of size 3 and 5 is one run of columns
// centred on the anchor; this is its half-width for row dy (|dy| <= size / 2), 0 or size / 2.
// morph_mask() builds the masks from OpenCV's own formula and the tests hold the two together.
constexpr DPX_HD int row_half_width(MorphShape shape, int size, int dy) {
  return shape == MorphShape::kRect      ? size / 2
         : shape == MorphShape::kCross   ? (dy == 0 ? size / 2 : 0)
         /* ellipse */                   : (dy == size / 2 || dy == -(size / 2) ? 0 : size / 2);
}

// Calls f(C, Size, Shape) with a run-time channel count (1, 2, 4), square size (3, 5) and shape
// as std::integral_constant arguments, for code built per combination (the fused kernels);
// returns false, calling nothing, for any other channel count or size.
template <class F>
bool with_square_element(int channels, int size, MorphShape shape, const F& f) {
  const auto with_shape = [&](auto c, auto s) {
    switch (shape) {
      case MorphShape::kRect: f(c, s, std::integral_constant<MorphShape, MorphShape::kRect>{}); return true;
      case MorphShape::kCross: f(c, s, std::integral_constant<MorphShape, MorphShape::kCross>{}); return true;
      case MorphShape::kEllipse: f(c, s, std::integral_constant<MorphShape, MorphShape::kEllipse>{}); return true;
    }
    return false;
  };
  const auto with_size = [&](auto c) {
    if (size == 3) return with_shape(c, std::integral_constant<int, 3>{});
    if (size == 5) return with_shape(c, std::integral_constant<int, 5>{});
    return false;
  };
  switch (channels) {
    case 1: return with_size(std::integral_constant<int, 1>{});
    case 2: return with_size(std::integral_constant<int, 2>{});
    case 4: return with_size(std::integral_constant<int, 4>{});
  }
  return false;
}

}  // namespace morph
}  // namespace dpx
