// The separable row and column passes on block maxima (morph_rect.cuh): the separable passes run
// them for the long windows (detail::morph_block_maxima_window, morph_launch.h), the variant
// variants::morph_cuda_block_maxima for every window (as SeparableLaunchers). CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include "dpx/morphology.h"

namespace dpx {
namespace morph {

// The row pass of `in` into `out` with a bar of 2 * radius + 1 columns.
Status block_maxima_row_pass(const PlaneView& in, const MutablePlaneView& out, int radius, BorderMode border,
                             bool dilate, cudaStream_t stream);

// The column pass of `in` (column_readable) into `out` with a bar of 2 * radius + 1 rows, merged
// with what `out` holds when `merge`; a dilation where `dilate`, else an erosion.
Status block_maxima_column_pass(const PlaneView& in, const MutablePlaneView& out, int radius,
                                BorderMode border, bool merge, bool dilate, cudaStream_t stream);

}  // namespace morph
}  // namespace dpx
