// AlignPlan runs on the plain-op kernels (local mode), beside the library's DPX runs.
#include "align_cuda_plan.h"
#include "align/common/align_variants.h"
#include "sw_instances.h"
#include "sw_run.cuh"

namespace dpx {
namespace variants {

Status run_align_plan(OpsPolicy policy, const AlignPlan& plan, const DeviceSequenceBatch& queries,
                      const DeviceSequenceBatch& targets, DeviceAlignResults* out, cudaStream_t stream) {
  if (policy == OpsPolicy::kDpx) return plan.run(queries, targets, out, stream);
  const AlignPlan::Impl* impl = AlignPlanAccess::impl(plan);
  if (impl == nullptr || impl->options.mode != AlignMode::kLocal) {
    return invalid_argument("run_align_plan: the plain variant is built for local plans only");
  }
  align::ResultArrays arrays;
  DPX_RETURN_IF_ERROR(align::prepare_results(*impl, out, &arrays));
  return align::run_plan_mode<ops::PlainOps, true>(
      *impl, align::make_device_view(queries, targets, impl->pairing), arrays, stream);
}

}  // namespace variants
}  // namespace dpx
