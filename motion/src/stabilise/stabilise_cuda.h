// The CUDA launchers of the stabiliser (built with the CUDA backend only).
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpx/motion.h"
#include "dpx/stabilise.h"

namespace dpx {
namespace stabilise_detail {

// warp_plane_cuda() after validate_warp(): one thread per output pixel.
Status warp_launch(const PlaneView &src, const MutablePlaneView &dst,
                   const WarpPlan &plan, cudaStream_t stream);

// The copy of `channel` of `luma` downscaled by `factor` into the device plane
// `copy` (width x height = its size, pitch = width), then the texture of every
// block of `grid` into `texture`.
Status prep_launch(const PlaneView &luma, int channel, int factor,
                   const MutablePlaneView &copy, const MotionGrid &grid,
                   std::uint32_t *texture, cudaStream_t stream);

// Copies `count` device ranges to host memory on `stream`, then waits for the
// stream.
struct HostCopy {
  void *host;
  const void *device;
  std::size_t bytes;
};
Status download_and_wait(const HostCopy *copies, int count,
                         cudaStream_t stream);

} // namespace stabilise_detail
} // namespace dpx
