// The launcher behind dpx::morph_cuda_planes() (built with CUDA only).
#pragma once

#include "dpx/morph_planes.h"

namespace dpx {
namespace detail {

// Runs every iteration of every plane on `stream`, one launch per iteration. Arguments must
// already have passed morph_planes_validate().
Status morph_cuda_planes_launch(const MorphPlane* planes, int count, const MorphParams& params, cudaStream_t stream,
                                DeviceBuffer* scratch);

}  // namespace detail
}  // namespace dpx
