// The CUDA epilogue's DPX launchers (epilogue_launch.cuh's sequences on ops::Dpx); per-channel int16
// requantisation takes the resident-channel kernel where the table suits it (faster than the walked
// table: docs/notes/epilogue.md, `dpx-bench epilogue`).
#include "epilogue_launch.cuh"
#include "epilogue_launch.h"

namespace dpx {
namespace epilogue {

Status requantize_launch(const std::int32_t* acc, std::size_t n, const RequantParams& params, void* out,
                         cudaStream_t stream) {
  return run_requantize<ops::Dpx, true>(acc, nullptr, false, n, params, out, stream);
}

Status requantize_residual_launch(const std::int32_t* acc, const std::int16_t* residual, std::size_t n,
                                  const RequantParams& params, std::int16_t* out, cudaStream_t stream) {
  return run_requantize<ops::Dpx, true>(acc, residual, true, n, params, out, stream);
}

Status merge3_launch(const std::int16_t* a, const std::int16_t* b, const std::int16_t* c, std::size_t n,
                     const Merge3Params& params, std::int16_t* out, cudaStream_t stream) {
  return run_merge3<ops::Dpx>(a, b, c, n, params, out, stream);
}

}  // namespace epilogue
}  // namespace dpx
