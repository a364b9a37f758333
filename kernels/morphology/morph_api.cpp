// dpx::morph_cuda(): validates, then hands over to the CUDA launcher (or says it was not built).
#include "cuda_backend.h"
#include "dpx/morphology.h"
#include "morph_launch.h"

namespace dpx {

Status morph_cuda(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                  cudaStream_t stream, DeviceBuffer* scratch) {
  DPX_RETURN_IF_ERROR(morph_validate(src, dst, params));
  DPX_CUDA_BACKEND("morph_cuda", detail::morph_cuda_launch(src, dst, params, stream, scratch));
}

}  // namespace dpx
