// dpx::morph_cuda(): validates, then hands over to the CUDA launcher (or says why it cannot).
#include "dpx/morphology.h"

namespace dpx {

Status morph_cuda(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                  cudaStream_t stream, DeviceBuffer* scratch) {
  DPX_RETURN_IF_ERROR(morph_validate(src, dst, params));
  (void)stream;
  (void)scratch;
#if DPX_HAVE_CUDA
  return Status(StatusCode::kUnsupported, "morphology: the CUDA kernels are not in this build yet (use morph_cpu)");
#else
  return Status(StatusCode::kNotBuilt,
                "morphology: libdpx was built without CUDA, so morph_cuda is unavailable (use morph_cpu)");
#endif
}

}  // namespace dpx
