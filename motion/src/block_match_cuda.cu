// CUDA block matcher: public entry (checks) -> launcher (tile shape, shared memory, grid) -> the
// kernel in block_match_kernel.cuh.
#include <cuda_runtime.h>

#include <string>

#include "block_match_cuda.h"
#include "block_match_kernel.cuh"
#include "block_match_plan.h"
#include "cuda_check.h"
#include "pointer_kind.h"
#include "dpx/motion.h"
#include "dpx_ops.cuh"

namespace dpx {

namespace {

using motion_detail::SearchGeometry;

template <typename Ops, typename T, int B>
Status launch(SearchGeometry g, cudaStream_t stream) {
  const motion_detail::LaunchShape shape = motion_detail::plan_search<T, B>(&g);
  if (shape.grid_y > 65535) {
    return Status(StatusCode::kUnsupported, "motion_estimate_cuda: " + std::to_string(g.rows) +
                                                " block rows (at most 65535 per launch)");
  }
  auto kernel = motion_detail::block_match_kernel<Ops, T, B>;
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

}  // namespace

template <typename Ops>
Status motion_estimate_cuda_with(const PlaneView& current, const PlaneView& reference,
                                 const MotionParams& params, MotionVector* vectors,
                                 std::size_t capacity, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(motion_validate(current, reference, params));
  const MotionGrid grid = motion_grid(current.width, current.height, params.block_size);
  if (vectors == nullptr) return invalid_argument("motion_estimate_cuda: null output array");
  if (capacity < grid.count()) {
    return invalid_argument("motion_estimate_cuda: output holds " + std::to_string(capacity) +
                            " vectors, the grid needs " + std::to_string(grid.count()));
  }
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(current.data, "motion_estimate_cuda", "current"));
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(reference.data, "motion_estimate_cuda", "reference"));
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(vectors, "motion_estimate_cuda", "output"));

  const SearchGeometry g = motion_detail::search_geometry(current, reference, params, vectors);
  if (current.type == SampleType::kU8) return launch_for_block<Ops, std::uint8_t>(params.block_size, g, stream);
  return launch_for_block<Ops, std::uint16_t>(params.block_size, g, stream);
}

template Status motion_estimate_cuda_with<ops::Dpx>(const PlaneView&, const PlaneView&, const MotionParams&,
                                                    MotionVector*, std::size_t, cudaStream_t);
template Status motion_estimate_cuda_with<ops::PlainOps>(const PlaneView&, const PlaneView&,
                                                         const MotionParams&, MotionVector*, std::size_t,
                                                         cudaStream_t);

}  // namespace dpx
