// The bars box pass: a cross or ellipse whose widest bar's row window fits a box pass
// (morph_separable.cuh), every bar of the element in one pass over the frame, the bars folded into
// one chain of growing column windows and row windows (morph_bars_box.cuh has the algebra).
// dpx::morph_cuda() runs it where it takes the element (the choice is in morph_launch.h). CUDA
// builds only.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "dpx/morphology.h"
#include "morph_bars.h"

namespace dpx {
namespace morph {

// Whether bars_box_pass takes `bars` (mask_bars of a cross or ellipse) over `in`.
bool bars_box_fits(const PlaneView& in, const std::vector<Bar>& bars);

// One dilation (`dilate`) or erosion of `in` into `out` over `bars`; kUnsupported where
// bars_box_fits() is false.
Status bars_box_pass(const PlaneView& in, const MutablePlaneView& out, const std::vector<Bar>& bars,
                     bool dilate, BorderMode border, cudaStream_t stream);

}  // namespace morph
}  // namespace dpx
