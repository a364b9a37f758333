// The one-pass cross / ellipse schedule (morph_shape.cuh): every bar of the element in one kernel,
// one read and one write of the frame a dilation or erosion. dpx::morph_cuda() runs it for the
// large ellipses the bars box pass does not take (detail::morph_element_pass, morph_launch.h); the
// variants run it for every cross and ellipse (variants::morph_cuda_shape_tile). CUDA builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "dpx/morphology.h"
#include "morph_bars.h"

namespace dpx {
namespace morph {

// One dilation (`dilate`) or erosion of `in` into `out` over `bars` (mask_bars of a cross or
// ellipse that passed morph_validate()). kUnsupported for planes taller than its grid reaches.
Status shape_pass(const PlaneView& in, const MutablePlaneView& out, const std::vector<Bar>& bars, bool dilate,
                  BorderMode border, cudaStream_t stream);

}  // namespace morph
}  // namespace dpx
