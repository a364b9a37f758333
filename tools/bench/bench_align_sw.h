// Runs an alignment plan with the DPX kernels or with the same kernels on plain two-operand ops
// (bench_align_sw_cuda.cu); local mode only.
#pragma once

#include "dpx/align.h"

namespace dpx {
namespace bench {

Status run_sw_plan(const AlignPlan& plan, bool plain, const DeviceSequenceBatch& queries,
                   const DeviceSequenceBatch& targets, DeviceAlignResults* out, cudaStream_t stream);

}  // namespace bench
}  // namespace dpx
