// dpx::morph_cpu_planes / morph_cuda_planes: validation, the CPU twin, and the hand-over to the
// multi-plane CUDA launcher (or "not built").
#include "dpx/morph_planes.h"

#include <string>

#include "cuda_backend.h"
#include "morph_planes_launch.h"

namespace dpx {

Status morph_planes_validate(const MorphPlane* planes, int count, const MorphParams& params) {
  if (planes == nullptr || count < 1 || count > kMorphMaxPlanes) {
    return invalid_argument("morphology: 1.." + std::to_string(kMorphMaxPlanes) + " planes, got " +
                            std::to_string(planes == nullptr ? 0 : count));
  }
  for (int i = 0; i < count; ++i) {
    DPX_RETURN_IF_ERROR(morph_validate(planes[i].src, planes[i].dst, params));
    if (planes[i].src.type != planes[0].src.type) {
      return invalid_argument("morphology: the planes of one call share one sample type");
    }
  }
  return Status::ok();
}

Status morph_cpu_planes(const MorphPlane* planes, int count, const MorphParams& params, int threads) {
  DPX_RETURN_IF_ERROR(morph_planes_validate(planes, count, params));
  for (int i = 0; i < count; ++i) DPX_RETURN_IF_ERROR(morph_cpu(planes[i].src, planes[i].dst, params, threads));
  return Status::ok();
}

Status morph_cuda_planes(const MorphPlane* planes, int count, const MorphParams& params, cudaStream_t stream,
                         DeviceBuffer* scratch) {
  DPX_RETURN_IF_ERROR(morph_planes_validate(planes, count, params));
  DPX_CUDA_BACKEND("morph_cuda_planes", detail::morph_cuda_planes_launch(planes, count, params, stream, scratch));
}

}  // namespace dpx
