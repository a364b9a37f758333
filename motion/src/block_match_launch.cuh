// CUDA full search, policy-templated: launcher (tile shape, shared memory, grid) -> the kernel in
// block_match_kernel.cuh. Instantiated by block_match_cuda.cu (Dpx) and, for the plain-ops variant,
// by motion_variants.cu. The entry and its checks are in motion_estimate_run.cuh.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "block_match_cuda.h"
#include "block_match_kernel.cuh"
#include "block_match_plan.h"
#include "cuda_check.h"
#include "dpx/motion.h"

namespace dpx {

namespace motion_detail {

namespace launch_detail {

template <typename Ops, typename T, int B>
Status launch(SearchGeometry g, cudaStream_t stream) {
  const LaunchShape shape = plan_search<T, B>(&g);
  if (shape.grid_y > 65535) {
    return Status(StatusCode::kUnsupported, "motion_estimate_cuda: " + std::to_string(g.rows) +
                                                " block rows (at most 65535 per launch)");
  }
  auto kernel = block_match_kernel<Ops, T, B>;
  if (shape.smem_bytes > 48 * 1024) {
    DPX_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(shape.smem_bytes)));
  }
  kernel<<<dim3(shape.grid_x, shape.grid_y), shape.threads, shape.smem_bytes, stream>>>(g);
  DPX_CUDA_CHECK_LAUNCH("block_match_kernel");
  return Status::ok();
}

template <typename Ops, typename T>
Status launch_for_block(int block_size, const SearchGeometry& g, cudaStream_t stream) {
  switch (block_size) {
    case 4: return launch<Ops, T, 4>(g, stream);
    case 8: return launch<Ops, T, 8>(g, stream);
    case 16: return launch<Ops, T, 16>(g, stream);
    default: return launch<Ops, T, 32>(g, stream);  // motion_validate admits only these four
  }
}

}  // namespace launch_detail

template <typename Ops>
Status full_search_cuda(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                        const CostModel& cost, MotionVector* vectors, cudaStream_t stream) {
  SearchGeometry g = search_geometry(current, reference, params, vectors);
  g.cost = cost;
  namespace ld = launch_detail;
  if (current.type == SampleType::kU8) return ld::launch_for_block<Ops, std::uint8_t>(params.block_size, g, stream);
  return ld::launch_for_block<Ops, std::uint16_t>(params.block_size, g, stream);
}

}  // namespace motion_detail
}  // namespace dpx
