// Draws a motion field on the GPU: one thread per block walks its segment (draw_segment.h).
// Overlapping segments write the same value, so the order of writes does not matter.
#include <cuda_runtime.h>

#include <cstdint>

#include "block_match_cuda.h"
#include "cuda_check.h"
#include "pointer_kind.h"
#include "draw_segment.h"
#include "dpx/motion.h"

namespace dpx {

namespace {

template <typename T>
__global__ void draw_kernel(motion_detail::PlotMax<T> plot, int width, int height, MotionGrid grid,
                            const MotionVector* vectors) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= grid.columns * grid.rows) return;
  const int r = idx / grid.columns, c = idx - r * grid.columns;
  motion_detail::walk_segment(motion_detail::block_segment(grid, width, height, c, r, vectors[idx]),
                              width, height, plot);
}

template <typename T>
void launch_draw(const MutablePlaneView& plane, const MotionGrid& grid, const MotionVector* vectors,
                 cudaStream_t stream) {
  const int count = grid.columns * grid.rows, threads = 128;
  const motion_detail::PlotMax<T> plot{static_cast<unsigned char*>(plane.data), plane.pitch};
  draw_kernel<T><<<(count + threads - 1) / threads, threads, 0, stream>>>(plot, plane.width, plane.height, grid,
                                                                          vectors);
}

}  // namespace

Status motion_detail::draw_motion_launch(const MutablePlaneView& plane, const MotionGrid& grid,
                                        const MotionVector* vectors, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(plane.data, "draw_motion_cuda", "plane"));
  DPX_RETURN_IF_ERROR(runtime::check_device_readable(vectors, "draw_motion_cuda", "vectors"));
  if (plane.type == SampleType::kU8)
    launch_draw<std::uint8_t>(plane, grid, vectors, stream);
  else
    launch_draw<std::uint16_t>(plane, grid, vectors, stream);
  DPX_CUDA_CHECK_LAUNCH("draw_kernel");
  return Status::ok();
}

}  // namespace dpx
