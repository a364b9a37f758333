// The CUDA morphology launcher behind dpx::morph_cuda() (DPX lanes, the register kernel at the
// default rows a lane) and the choices of its passes; the variants (other lanes, other schedules)
// are in morph_variants.h. The launcher is built only with CUDA; the choices are plain C++ (the
// host tests use them too).
#pragma once

#include <algorithm>

#include "dpx/morphology.h"

namespace dpx {
namespace detail {

// The output rows a lane of the register kernel (morph_rows.cuh) for planes of `type` and square
// elements of side `size` (3 or 5; other elements take the separable passes, which have none):
// two for u16 planes and for u8 5x5, four for u8 3x3: where the two differed on the H200, the fewer
// rows a lane (fewer registers, more warps) won; for u8 3x3 they were within the spread between
// calls (the measurements are in docs/notes/morphology.md; dpx-bench morph times both). The one
// place this is decided: dpx::morph_cuda() and the multi-plane path of the elements
// (morph_planes.cu) both run it.
constexpr int morph_default_rows(SampleType type, int size) { return type == SampleType::kU16 || size == 5 ? 2 : 4; }

// The passes of elements other than square 3x3 / 5x5. The one place this is decided: morph_cuda()
// runs it, and the multi-plane path hands such elements to the same launcher. dpx-bench morph
// times every path beside the others; the measurements are in docs/notes/morphology.md.
//
// A row or column window of the separable passes at least this many samples long runs on block
// maxima (morph_rect.h), where it was measured faster than the running max/min of the separable
// passes: from 127 on u8 (4K GRAY8 127x127 29.8 against 35.3 us on an H100, 1x127 a tie, 63x63 a
// tie), from 129 on u16 (127x127 48.5 against 48.2).
constexpr int morph_block_maxima_min_window(SampleType type) {
  return type == SampleType::kU8 ? 127 : 129;
}
constexpr bool morph_block_maxima_window(SampleType type, int radius) {
  return 2 * radius + 1 >= morph_block_maxima_min_window(type);
}

// Ellipses at least this wide or tall (either side) that the bars box pass does not take (below)
// run in one pass, every bar of the element in one kernel (morph_shape.h), instead of a separable
// pass a bar: measured faster from these sizes on (on u16 planes the separable passes cost more and
// the one pass about the same, so it wins sooner there); below them, and for every cross, the
// separable passes (or the fused 3x3 / 5x5 kernel) won.
constexpr int morph_one_pass_ellipse_min_side(SampleType type) {
  return type == SampleType::kU16 ? 15 : 31;
}
inline bool morph_one_pass_shape(SampleType type, const MorphParams& p) {
  return p.shape == MorphShape::kEllipse &&
         std::max(morph_width(p), morph_height(p)) >= morph_one_pass_ellipse_min_side(type);
}

// Crosses and ellipses the bars box pass takes where it fits the planes (morph_bars_box.h: the
// widest bar's row window within a box pass's halo, the element's rows within its tile): every
// ellipse and the crosses up to 63 rows high, but the square 3x3 / 5x5 ones (the fused kernel's).
// A cross's column is one long window. Read row by row, a 63x63 cross took 40.8 us on 4K GRAY8
// (H100) against 32.1 on the separable passes, whose column pass shares its runs' middles; with the
// column windows around a shared core (bars_share_core), two rows read a step for four outputs
// instead of eight, it takes 30.8 against 32.2 (and a 31x31 cross 22.4 against 26.4).
constexpr int kMorphBarsBoxMaxCrossHeight = 63;
inline bool morph_bars_box_element(const MorphParams& p) {
  const int w = morph_width(p), h = morph_height(p);
  if (w == h && (w == 3 || w == 5)) return false;
  return p.shape == MorphShape::kEllipse ||
         (p.shape == MorphShape::kCross && h <= kMorphBarsBoxMaxCrossHeight);
}

// The pass a cross or ellipse takes from `src` into `dst` where the fused kernel does not: the bars
// box pass where it takes the element on both planes (every pass of the operation reads one of
// them or a plane of the launcher's, which it always takes), else the one-pass schedule for the
// large ellipses, else a separable pass a bar. The one place this is decided (morph_cuda.cu, CUDA
// builds only); dpx-bench names its rows after it.
enum class ElementPass { kSeparable, kBarsBox, kOnePass };
ElementPass morph_element_pass(const PlaneView& src, const PlaneView& dst, const MorphParams& params);

// Runs all iterations on `stream` with the DPX kernels at morph_default_rows(). Arguments must
// already have passed morph_validate().
Status morph_cuda_launch(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                         cudaStream_t stream, DeviceBuffer* scratch);

}  // namespace detail

namespace morph {

// Rows a lane of the fused passes a dispatch builds (morph_pass.cuh), by element side (3 or 5);
// 0: none built there.
template <int R3, int R5>
struct RowsBySize {
  static constexpr int of(int size) { return size == 3 ? R3 : R5; }
};
template <int R>
using FixedRows = RowsBySize<R, R>;
// The rows of the library's passes (detail::morph_default_rows()).
template <SampleType T>
using DefaultRows = RowsBySize<detail::morph_default_rows(T, 3), detail::morph_default_rows(T, 5)>;
// R rows a lane where the library's passes run other rows: what the variants build beside them.
template <SampleType T, int R>
using RowsBesideDefault =
    RowsBySize<detail::morph_default_rows(T, 3) == R ? 0 : R, detail::morph_default_rows(T, 5) == R ? 0 : R>;

}  // namespace morph
}  // namespace dpx
