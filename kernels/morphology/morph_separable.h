// The CUDA morphology for every element the fused 3x3 / 5x5 tile kernels do not cover: per bar of
// the element (morph_bars.h) a running max/min along the rows into an intermediate plane, then
// along the columns into the output (or both in one box pass where the bar's row window fits a
// warp), merged there with what earlier bars left, a long window on block maxima (morph_rect.h,
// detail::morph_block_maxima_window); and the saturating difference of the compound operations.
// Only built with the CUDA backend.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "dpx/morphology.h"
#include "morph_bars.h"

namespace dpx {
namespace morph {

// Launchers a variant runs in place of the separable passes' choice (nullptr: the library's): the
// row pass of `in` into `out` with a bar of 2 * radius + 1 columns, and the column pass without a
// row window with a bar of 2 * radius + 1 rows, merged with what `out` holds when `merge`.
using RowPassLaunch = Status (*)(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                                 bool dilate, cudaStream_t stream);
using ColumnPassLaunch = Status (*)(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                                    bool merge, bool dilate, cudaStream_t stream);
struct SeparableLaunchers {
  RowPassLaunch rows = nullptr;
  ColumnPassLaunch columns = nullptr;
};

// One dilation (`dilate`) or erosion of `in` into `out` over `bars`, through `launchers` where
// set. `rows` is a plane of the frame's shape whose data pointer and pitch are multiples of 4 and
// whose rows are readable up to the next multiple of 4 bytes; it is overwritten.
Status separable_pass(const PlaneView& in, const MutablePlaneView& out, const MutablePlaneView& rows,
                      const std::vector<Bar>& bars, bool dilate, BorderMode border, cudaStream_t stream,
                      const SeparableLaunchers& launchers = {});

// out = max(a - b, 0) sample by sample; `out` may be `a` or `b`.
Status subtract_cuda(const PlaneView& a, const PlaneView& b, const MutablePlaneView& out, cudaStream_t stream);

}  // namespace morph
}  // namespace dpx
