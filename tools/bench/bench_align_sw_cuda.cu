#include "bench_align_sw.h"
#include "sw_instances.h"
#include "sw_run.cuh"

namespace dpx {
namespace bench {

Status run_sw_plan(const AlignPlan& plan, bool plain, const DeviceSequenceBatch& queries,
                   const DeviceSequenceBatch& targets, DeviceAlignResults* out, cudaStream_t stream) {
  if (!plain) return plan.run(queries, targets, out, stream);
  const AlignPlan::Impl* impl = AlignPlanAccess::impl(plan);
  if (impl == nullptr || impl->options.mode != AlignMode::kLocal) {
    return invalid_argument("run_sw_plan: the plain variant is built for local plans only");
  }
  return align::run_plan_mode<ops::PlainOps, true>(*impl, queries, targets, out, stream);
}

}  // namespace bench
}  // namespace dpx
