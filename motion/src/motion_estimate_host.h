// The passes of motion_pipeline.h on host planes, the second stage run by the caller's `refine`:
// motion_estimate_cpu gives refine_block on the worker pool; a test gives the GPU's warps run on
// the host (tests/motion/test_motion_warp_on_host.cpp), so both see the very same jobs.
#pragma once

#include <functional>

#include "dpx/motion.h"
#include "refine_block.h"

namespace dpx {
namespace motion_detail {

using HostRefine = std::function<Status(const RefineJob&, SampleType)>;

Status motion_estimate_host(const PlaneView& current, const PlaneView& reference, const MotionParams& params,
                            MotionField* field, int threads, const MotionPrevious& previous,
                            const HostRefine& refine);

}  // namespace motion_detail
}  // namespace dpx
