// The CUDA morphology variants dpx-bench and the tests run beside dpx::morph_cuda() (the internal
// dpx_variants library, CUDA builds only): other lane formats and other schedules.
#pragma once

#include "dpx/morphology.h"
#include "morph_schedules.h"

namespace dpx {
namespace variants {

enum class MorphKernel {
  kDpx,       // packed 16-bit lanes, window max/min from the DPX three-operand instructions
  kPlain,     // the same kernel with two-operand max/min (what DPX itself brings)
  kByteSimd,  // u8 only: four samples per word, __vmaxu4 / __vminu4
};

const char* morph_kernel_name(MorphKernel kernel);

// detail::morph_cuda_launch with the kernel and schedule chosen. Arguments must already have
// passed morph_validate(); kByteSimd on u16 data and kTile64 outside its cases fail with
// kUnsupported. kDpx with the default schedule is what dpx::morph_cuda() runs.
Status morph_cuda(MorphKernel kernel, MorphSchedule schedule, const PlaneView& src, const MutablePlaneView& dst,
                  const MorphParams& params, cudaStream_t stream, DeviceBuffer* scratch);

// What morph_cuda(kDpx, the default schedule) runs, except that every cross and ellipse takes the
// one-pass schedule (morph_shape.h: all its bars in one kernel, one read and one write of the frame
// a dilation or erosion), where the library runs it for the large ellipses the bars box pass does
// not take only (detail::morph_element_pass). Named in dpx-bench; the name of that path in the
// library too.
Status morph_cuda_shape_tile(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                             cudaStream_t stream, DeviceBuffer* scratch);
constexpr const char* kShapeTileName = "shape-tile";

// The library's passes with every separable row and column pass on block maxima (morph_rect.h),
// where the library runs them for the long windows only (detail::morph_block_maxima_window): what
// dpx-bench times beside the default on the shorter ones. The name of that path in the library too.
Status morph_cuda_block_maxima(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                               cudaStream_t stream, DeviceBuffer* scratch);
constexpr const char* kBlockMaximaName = "separable-blockmax";

}  // namespace variants
}  // namespace dpx
