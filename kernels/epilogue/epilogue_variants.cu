// The epilogue variants: kDpx runs the public call, kPlain the same launch sequence on PlainOps.
#include "epilogue_launch.cuh"
#include "epilogue_variants.h"

namespace dpx {
namespace variants {

Status requantize_cuda(OpsPolicy policy, const std::int32_t* acc, std::size_t n, const RequantParams& params,
                       void* out, cudaStream_t stream) {
  if (policy == OpsPolicy::kDpx) return dpx::requantize_cuda(acc, n, params, out, stream);
  return epilogue::run_requantize<ops::PlainOps, false>(acc, nullptr, false, n, params, out, stream);
}

Status requantize_residual_cuda(OpsPolicy policy, const std::int32_t* acc, const std::int16_t* residual,
                                std::size_t n, const RequantParams& params, std::int16_t* out, cudaStream_t stream) {
  if (policy == OpsPolicy::kDpx) return dpx::requantize_residual_cuda(acc, residual, n, params, out, stream);
  return epilogue::run_requantize<ops::PlainOps, false>(acc, residual, true, n, params, out, stream);
}

Status requantize_walked_cuda(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                              const RequantParams& params, void* out, cudaStream_t stream) {
  return epilogue::run_requantize<ops::Dpx, false>(acc, residual, residual != nullptr, n, params, out,
                                                   stream);
}

Status merge3_cuda(OpsPolicy policy, const std::int16_t* a, const std::int16_t* b, const std::int16_t* c,
                   std::size_t n, const Merge3Params& params, std::int16_t* out, cudaStream_t stream) {
  if (policy == OpsPolicy::kDpx) return dpx::merge3_cuda(a, b, c, n, params, out, stream);
  return epilogue::run_merge3<ops::PlainOps>(a, b, c, n, params, out, stream);
}

}  // namespace variants
}  // namespace dpx
