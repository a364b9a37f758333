// Without the CUDA backend the CUDA epilogue reports kNotBuilt.
#include "epilogue_policy.h"

namespace dpx {
namespace epilogue {
namespace {
Status not_built() { return Status(StatusCode::kNotBuilt, "libdpx was built without CUDA support"); }
}  // namespace

Status requantize_cuda_with(OpsPolicy, const std::int32_t*, std::size_t, const RequantParams&, void*, cudaStream_t) {
  return not_built();
}
Status requantize_residual_cuda_with(OpsPolicy, const std::int32_t*, const std::int16_t*, std::size_t,
                                     const RequantParams&, std::int16_t*, cudaStream_t) {
  return not_built();
}
Status merge3_cuda_with(OpsPolicy, const std::int16_t*, const std::int16_t*, const std::int16_t*, std::size_t,
                        const Merge3Params&, std::int16_t*, cudaStream_t) {
  return not_built();
}

}  // namespace epilogue
}  // namespace dpx
