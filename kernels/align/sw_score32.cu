// 32-bit score and traceback-direction kernels, the traceback walker, and the scatter of results
// computed on the host.
#define DPX_ALIGN_INSTANTIATING
#include "sw_instances.h"

namespace dpx {
namespace align {

DPX_ALIGN_SCORE32(, true)
DPX_ALIGN_SCORE32(, false)

Status launch_walk(const WalkArgs& a, cudaStream_t stream) {
  if (a.slot_count <= 0) return Status::ok();
  constexpr int kThreads = 128;
  device::walk_kernel<<<static_cast<unsigned>((a.slot_count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(a);
  DPX_CUDA_CHECK_LAUNCH("walk_kernel");
  return Status::ok();
}

Status launch_scatter_fields(const std::int32_t* pairs, const std::int32_t* values, std::int32_t count,
                             std::int32_t* fields, cudaStream_t stream) {
  if (count <= 0) return Status::ok();
  constexpr int kThreads = 128;
  device::scatter_fields_kernel<<<static_cast<unsigned>((count + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      pairs, values, count, fields);
  DPX_CUDA_CHECK_LAUNCH("scatter_fields_kernel");
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
