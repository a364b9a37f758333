// dpx::morph_cuda(): validates, then hands over to the CUDA launcher (or says it was not built).
#include "dpx/morphology.h"

#if DPX_HAVE_CUDA
#include "morph_launch.h"
#endif

namespace dpx {

Status morph_cuda(const PlaneView& src, const MutablePlaneView& dst, const MorphParams& params,
                  cudaStream_t stream, DeviceBuffer* scratch) {
  DPX_RETURN_IF_ERROR(morph_validate(src, dst, params));
#if DPX_HAVE_CUDA
  const detail::MorphKernel kernel =
      src.type == SampleType::kU8 ? detail::kMorphDefaultU8 : detail::MorphKernel::kDpx;
  return detail::morph_cuda_launch(src, dst, params, stream, scratch, kernel);
#else
  (void)stream;
  (void)scratch;
  return Status(StatusCode::kNotBuilt,
                "morphology: libdpx was built without CUDA, so morph_cuda is unavailable (use morph_cpu)");
#endif
}

}  // namespace dpx
