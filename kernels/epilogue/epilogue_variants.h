// The CUDA epilogue with its ops policy chosen at run time, for dpx-bench and the tests (the
// internal dpx_variants library, CUDA builds only): kDpx is the public call, kPlain the same
// kernels on two-operand SIMD max/min (dpx::ops::PlainOps), to show what the DPX instructions
// themselves bring; and, for per-channel tables, the kernel that reads its table per element
// beside the public call's resident-channel kernel. Same checks, same results.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/epilogue.h"
#include "ops_policy.h"

namespace dpx {
namespace variants {

Status requantize_cuda(OpsPolicy policy, const std::int32_t* acc, std::size_t n, const RequantParams& params,
                       void* out, cudaStream_t stream);
Status requantize_residual_cuda(OpsPolicy policy, const std::int32_t* acc, const std::int16_t* residual,
                                std::size_t n, const RequantParams& params, std::int16_t* out, cudaStream_t stream);
// The public call with per-channel int16 requantisation on the walked-table kernel (each element
// reads its channel's constants) instead of the resident-channel one. residual == nullptr:
// requantize, else requantize_residual.
Status requantize_walked_cuda(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                              const RequantParams& params, void* out, cudaStream_t stream);
Status merge3_cuda(OpsPolicy policy, const std::int16_t* a, const std::int16_t* b, const std::int16_t* c,
                   std::size_t n, const Merge3Params& params, std::int16_t* out, cudaStream_t stream);

}  // namespace variants
}  // namespace dpx
