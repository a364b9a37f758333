// The public CUDA entry points: the DPX launchers (kNotBuilt without the CUDA backend).
#include "cuda_backend.h"
#include "dpx/epilogue.h"
#include "epilogue_launch.h"

namespace dpx {

Status requantize_cuda(const std::int32_t* acc, std::size_t n, const RequantParams& params, void* out,
                       cudaStream_t stream) {
  DPX_CUDA_BACKEND("requantize_cuda", epilogue::requantize_launch(acc, n, params, out, stream));
}

Status requantize_residual_cuda(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                                const RequantParams& params, std::int16_t* out, cudaStream_t stream) {
  DPX_CUDA_BACKEND("requantize_residual_cuda",
                   epilogue::requantize_residual_launch(acc, residual, n, params, out, stream));
}

Status merge3_cuda(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                   const Merge3Params& params, std::int16_t* out, cudaStream_t stream) {
  DPX_CUDA_BACKEND("merge3_cuda", epilogue::merge3_launch(a, b, c, n, params, out, stream));
}

}  // namespace dpx
