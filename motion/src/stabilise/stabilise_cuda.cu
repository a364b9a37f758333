// The stabiliser's kernels: the warp (one thread per output pixel) and the
// analyser's preparation (one thread per copy pixel, then one per block), each
// a thin shell over the per-pixel code the CPU runs too.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.h"
#include "pointer_kind.h"
#include "stabilise/prep_sample.h"
#include "stabilise/stabilise_cuda.h"
#include "stabilise/warp_sample.h"

namespace dpx {
namespace stabilise_detail {

namespace {

template <typename T>
__global__ void warp_kernel(Source<T> src, WarpPlan plan, unsigned char *dst,
                            std::size_t dst_pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x,
            y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= src.width || y >= src.height)
    return;
  T *row = reinterpret_cast<T *>(dst + static_cast<std::size_t>(y) * dst_pitch);
  warp_pixel(src, plan, x, y, row + x * src.channels);
}

template <typename T>
__global__ void downscale_kernel(PlaneView src, int channel, int factor,
                                 MutablePlaneView copy) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x,
            y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= copy.width || y >= copy.height)
    return;
  static_cast<std::uint8_t *>(
      copy.data)[static_cast<std::size_t>(y) * copy.pitch + x] =
      downscale_pixel<T>(src, channel, factor, x, y);
}

__global__ void texture_kernel(const std::uint8_t *copy, int width, int height,
                               MotionGrid grid, std::uint32_t *texture) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= grid.columns * grid.rows)
    return;
  const int row = i / grid.columns;
  texture[i] = block_texture(copy, width, height, grid.block_size,
                             i - row * grid.columns, row);
}

dim3 pixel_grid(int width, int height, dim3 threads) {
  return dim3((width + threads.x - 1) / threads.x,
              (height + threads.y - 1) / threads.y);
}

} // namespace

Status warp_launch(const PlaneView &src, const MutablePlaneView &dst,
                   const WarpPlan &plan, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(
      runtime::check_device_readable(src.data, "warp_plane_cuda", "src"));
  DPX_RETURN_IF_ERROR(
      runtime::check_device_readable(dst.data, "warp_plane_cuda", "dst"));
  const dim3 threads(32, 8), grid = pixel_grid(dst.width, dst.height, threads);
  auto *out = static_cast<unsigned char *>(dst.data);
  if (src.type == SampleType::kU8)
    warp_kernel<std::uint8_t><<<grid, threads, 0, stream>>>(
        make_source<std::uint8_t>(src, plan), plan, out, dst.pitch);
  else
    warp_kernel<std::uint16_t><<<grid, threads, 0, stream>>>(
        make_source<std::uint16_t>(src, plan), plan, out, dst.pitch);
  DPX_CUDA_CHECK_LAUNCH("warp_kernel");
  return Status::ok();
}

Status prep_launch(const PlaneView &luma, int channel, int factor,
                   const MutablePlaneView &copy, const MotionGrid &grid,
                   std::uint32_t *texture, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(
      runtime::check_device_readable(luma.data, "analyse_cuda", "luma"));
  const dim3 threads(32, 8),
      blocks = pixel_grid(copy.width, copy.height, threads);
  if (luma.type == SampleType::kU8)
    downscale_kernel<std::uint8_t>
        <<<blocks, threads, 0, stream>>>(luma, channel, factor, copy);
  else
    downscale_kernel<std::uint16_t>
        <<<blocks, threads, 0, stream>>>(luma, channel, factor, copy);
  DPX_CUDA_CHECK_LAUNCH("downscale_kernel");
  const int count = grid.columns * grid.rows, per_block = 128;
  texture_kernel<<<(count + per_block - 1) / per_block, per_block, 0, stream>>>(
      static_cast<const std::uint8_t *>(copy.data), copy.width, copy.height,
      grid, texture);
  DPX_CUDA_CHECK_LAUNCH("texture_kernel");
  return Status::ok();
}

Status download_and_wait(const HostCopy *copies, int count,
                         cudaStream_t stream) {
  for (int i = 0; i < count; ++i)
    DPX_CUDA_TRY(cudaMemcpyAsync(copies[i].host, copies[i].device,
                                 copies[i].bytes, cudaMemcpyDeviceToHost,
                                 stream));
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  return Status::ok();
}

} // namespace stabilise_detail
} // namespace dpx
