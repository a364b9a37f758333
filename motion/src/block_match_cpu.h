// The CPU full search with its cost model exposed, for the CPU pipeline (motion_estimate_cpu.cpp).
#pragma once

#include "dpx/motion.h"
#include "motion_cost.h"

namespace dpx {
namespace motion_detail {

// The exhaustive integer search of dpx/motion.h ranked by `cost` (params.subpel, search and lambda
// are not read); fills `field` on the grid of params.block_size. Arguments are already checked.
Status full_search_cpu(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                       const CostModel& cost, MotionField* field, int threads);

}  // namespace motion_detail
}  // namespace dpx
