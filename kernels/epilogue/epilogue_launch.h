// The DPX launchers behind the public CUDA epilogue calls (epilogue_cuda_api.cpp reaches them
// through DPX_CUDA_BACKEND). Defined with the CUDA backend only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/epilogue.h"

namespace dpx {
namespace epilogue {

Status requantize_launch(const std::int32_t* acc, std::size_t n, const RequantParams& params, void* out,
                         cudaStream_t stream);
Status requantize_residual_launch(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                                  const RequantParams& params, std::int16_t* out, cudaStream_t stream);
Status merge3_launch(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                     const Merge3Params& params, std::int16_t* out, cudaStream_t stream);

}  // namespace epilogue
}  // namespace dpx
