// Launching the wavefront over a batch: one group of G lanes per task (a pair, or two packed
// pairs), a grid no larger than the GPU holds at once with groups looping over the remaining tasks,
// and the strips' boundary rows in stream-ordered scratch memory.
//
// Group size: the largest of 32, 16, 8, 4 lanes whose groups all fit on the GPU at once — big
// groups for a few long pairs, small ones so a large batch of short pairs fills every SM in one
// wave (a second, partial wave would leave most SMs idle).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "launch_sizing.h"
#include "scratch.h"
#include "cuda_check.h"
#include "dpx/align_distance.h"
#include "wavefront.cuh"

namespace dpx {
namespace align {

// Small blocks spread a batch evenly over the SMs (a block's groups finish at about the same time).
constexpr int kBlockThreads = 64;
// Boundary rows of all groups together stay within this; fewer groups run when they would not.
constexpr std::size_t kScratchBudgetBytes = std::size_t{512} << 20;

// Independent groups: each takes tasks group, group + groups, ...
template <int G, int R, class Factory>
__global__ void __launch_bounds__(kBlockThreads)
    wavefront_batch_kernel(const Factory factory, typename Factory::Cell::Value* scratch, std::size_t scratch_per_group) {
  const WarpGroup<G> g;
  constexpr int kGroupsPerBlock = kBlockThreads / G;
  const std::int64_t group = static_cast<std::int64_t>(blockIdx.x) * kGroupsPerBlock + threadIdx.x / G;
  const std::int64_t groups = static_cast<std::int64_t>(gridDim.x) * kGroupsPerBlock;
  for (std::int64_t task = group; task < factory.tasks(); task += groups) {
    run_task<R>(factory, task, g, scratch + group * scratch_per_group);
  }
}

// Most strips a matrix has in warps of R rows per lane, and most warps sharing one.
template <int R>
constexpr int max_strips() { return static_cast<int>(kAlignDistanceMaxLength / (32 * R)) + 1; }
constexpr int kMaxMembers = 8;

// Cooperative blocks for a few long pairs: every warp of the block works on the block's task.
template <int R, class Factory>
__global__ void __launch_bounds__(32 * kMaxMembers)
    wavefront_cooperative_kernel(const Factory factory, typename Factory::Cell::Value* scratch,
                                 std::size_t scratch_per_block) {
  __shared__ int progress[max_strips<R>()];
  const WarpGroup<32> g;
  const int member = static_cast<int>(threadIdx.x / 32), members = static_cast<int>(blockDim.x / 32);
  const BlockHandoff handoff{progress};
  for (std::int64_t task = blockIdx.x; task < factory.tasks(); task += gridDim.x) {
    for (int i = static_cast<int>(threadIdx.x); i < max_strips<R>(); i += static_cast<int>(blockDim.x)) progress[i] = 0;
    __syncthreads();
    run_task<R>(factory, task, g, scratch + blockIdx.x * scratch_per_block, member, members, handoff);
    __syncthreads();  // every warp is done with the scratch and the counters
  }
}

// Groups of this kernel the whole GPU holds at once.
template <int G, int R, class Factory>
Status resident_groups(std::int64_t* groups) {
  std::int64_t blocks = 0;
  DPX_RETURN_IF_ERROR(runtime::resident_blocks(wavefront_batch_kernel<G, R, Factory>, kBlockThreads, 0, &blocks));
  *groups = blocks * (kBlockThreads / G);
  return Status::ok();
}

// How a batch runs: independent groups of `group` lanes, or — for a few pairs long enough to have
// several strips — `members` warps per pair (group 32).
struct LaunchPlan {
  int group = 32;
  int members = 1;
};

// FactoryOf<G> is the factory type for group size G (most ignore G). Independent groups: the
// largest group size whose groups all fit on the GPU at once (the smallest when none does). When
// even one warp per task leaves most of the GPU idle, warps share tasks instead.
template <int R, template <int> class FactoryOf>
Status plan_launch(std::int64_t tasks, std::int64_t max_rows, LaunchPlan* plan) {
  *plan = LaunchPlan();
  std::int64_t resident = 0;
  DPX_RETURN_IF_ERROR((resident_groups<32, R, FactoryOf<32>>(&resident)));
  if (tasks <= resident) {
    const std::int64_t strips = (max_rows + 32 * R - 1) / (32 * R);
    const std::int64_t spare = tasks > 0 ? resident / tasks : 1;
    plan->members = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>({spare, strips, kMaxMembers})));
    return Status::ok();
  }
  DPX_RETURN_IF_ERROR((resident_groups<16, R, FactoryOf<16>>(&resident)));
  plan->group = 16;
  if (tasks <= resident) return Status::ok();
  DPX_RETURN_IF_ERROR((resident_groups<8, R, FactoryOf<8>>(&resident)));
  plan->group = tasks <= resident ? 8 : 4;
  return Status::ok();
}

// Calls fn(std::integral_constant<int, G>) for the planned group size.
template <class Fn>
Status with_group_size(int group, Fn&& fn) {
  switch (group) {
    case 32: return fn(std::integral_constant<int, 32>{});
    case 16: return fn(std::integral_constant<int, 16>{});
    case 8: return fn(std::integral_constant<int, 8>{});
    default: return fn(std::integral_constant<int, 4>{});
  }
}


// Runs every task of `factory` (group size G, per the plan); matrices have at most max_rows rows
// and max_cols columns. Asynchronous: scratch comes and goes in stream order.
template <int G, int R, class Factory>
Status launch_wavefront(const LaunchPlan& plan, const Factory& factory, std::int64_t max_rows, std::int64_t max_cols,
                        cudaStream_t stream) {
  using Value = typename Factory::Cell::Value;
  const std::int64_t tasks = factory.tasks();
  if (tasks == 0) return Status::ok();
  // Boundary rows only when a matrix has more than one strip.
  const std::size_t per_group = max_rows > G * R ? wavefront_scratch_values(static_cast<int>(max_cols)) : 0;
  const std::size_t affordable =
      per_group > 0 ? kScratchBudgetBytes / (per_group * sizeof(Value)) : static_cast<std::size_t>(tasks);
  runtime::ScratchLease scratch(nullptr, stream);  // stream-ordered: comes and goes with the launch
  Value* values = nullptr;
  if constexpr (G == 32) {
    if (plan.members > 1) {
      const auto blocks = static_cast<std::int64_t>(std::max<std::size_t>(1, std::min<std::size_t>(tasks, affordable)));
      DPX_RETURN_IF_ERROR(scratch.acquire_array(static_cast<std::size_t>(blocks) * per_group, &values));
      wavefront_cooperative_kernel<R, Factory>
          <<<static_cast<unsigned>(blocks), 32 * plan.members, 0, stream>>>(factory, values, per_group);
      DPX_CUDA_CHECK_LAUNCH("wavefront_cooperative_kernel");
      return Status::ok();
    }
  }
  constexpr int kGroupsPerBlock = kBlockThreads / G;
  std::int64_t groups = 0;
  DPX_RETURN_IF_ERROR((resident_groups<G, R, Factory>(&groups)));
  groups = std::min<std::int64_t>({groups, tasks, std::max<std::int64_t>(static_cast<std::int64_t>(affordable), kGroupsPerBlock)});
  const std::int64_t blocks = (groups + kGroupsPerBlock - 1) / kGroupsPerBlock;
  DPX_RETURN_IF_ERROR(scratch.acquire_array(static_cast<std::size_t>(blocks) * kGroupsPerBlock * per_group, &values));
  wavefront_batch_kernel<G, R, Factory><<<static_cast<unsigned>(blocks), kBlockThreads, 0, stream>>>(factory, values, per_group);
  DPX_CUDA_CHECK_LAUNCH("wavefront_batch_kernel");
  return Status::ok();
}

template <class Factory>
struct SameFactory {
  template <int>
  using type = Factory;
};

// Plans and runs a batch whose factory does not depend on the group size.
template <int R, class Factory>
Status launch_batch(const Factory& factory, std::int64_t max_rows, std::int64_t max_cols, cudaStream_t stream) {
  LaunchPlan plan;
  DPX_RETURN_IF_ERROR((plan_launch<R, SameFactory<Factory>::template type>(factory.tasks(), max_rows, &plan)));
  return with_group_size(plan.group, [&](auto g) {
    return launch_wavefront<decltype(g)::value, R>(plan, factory, max_rows, max_cols, stream);
  });
}

}  // namespace align
}  // namespace dpx
