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

#include "cuda_check.h"
#include "wavefront.cuh"

namespace dpx {
namespace align {

// Small blocks spread a batch evenly over the SMs (a block's groups finish at about the same time).
constexpr int kBlockThreads = 64;
// Boundary rows of all groups together stay within this; fewer groups run when they would not.
constexpr std::size_t kScratchBudgetBytes = std::size_t{512} << 20;

template <int G, int R, class Factory>
__global__ void __launch_bounds__(kBlockThreads)
    wavefront_batch_kernel(const Factory factory, typename Factory::Cell::Value* scratch, std::size_t scratch_per_group) {
  const WarpGroup<G> g;
  constexpr int kGroupsPerBlock = kBlockThreads / G;
  const std::int64_t group = static_cast<std::int64_t>(blockIdx.x) * kGroupsPerBlock + threadIdx.x / G;
  const std::int64_t groups = static_cast<std::int64_t>(gridDim.x) * kGroupsPerBlock;
  run_group_tasks<R>(factory, g, group, groups, scratch + group * scratch_per_group);
}

// Groups of this kernel the whole GPU holds at once.
template <int G, int R, class Factory>
Status resident_groups(std::int64_t* groups) {
  int device = 0, sms = 0, blocks_per_sm = 0;
  DPX_CUDA_TRY(cudaGetDevice(&device));
  DPX_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DPX_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, wavefront_batch_kernel<G, R, Factory>,
                                                             kBlockThreads, 0));
  *groups = static_cast<std::int64_t>(std::max(blocks_per_sm, 1)) * sms * (kBlockThreads / G);
  return Status::ok();
}

// FactoryOf<G> is the factory type for group size G (most ignore G). The largest group size
// whose groups all fit on the GPU at once; the smallest when none does.
template <int R, template <int> class FactoryOf>
Status choose_group_size(std::int64_t tasks, int* group) {
  std::int64_t resident = 0;
  DPX_RETURN_IF_ERROR((resident_groups<32, R, FactoryOf<32>>(&resident)));
  *group = 32;
  if (tasks <= resident) return Status::ok();
  DPX_RETURN_IF_ERROR((resident_groups<16, R, FactoryOf<16>>(&resident)));
  *group = 16;
  if (tasks <= resident) return Status::ok();
  DPX_RETURN_IF_ERROR((resident_groups<8, R, FactoryOf<8>>(&resident)));
  *group = tasks <= resident ? 8 : 4;
  return Status::ok();
}

// Calls fn(std::integral_constant<int, G>) for the chosen group size.
template <class Fn>
Status with_group_size(int group, Fn&& fn) {
  switch (group) {
    case 32: return fn(std::integral_constant<int, 32>{});
    case 16: return fn(std::integral_constant<int, 16>{});
    case 8: return fn(std::integral_constant<int, 8>{});
    default: return fn(std::integral_constant<int, 4>{});
  }
}

// Runs every task of `factory`; matrices have at most max_rows rows and max_cols columns.
// Asynchronous: the scratch is allocated and freed in stream order.
template <int G, int R, class Factory>
Status launch_wavefront(const Factory& factory, std::int64_t max_rows, std::int64_t max_cols, cudaStream_t stream) {
  using Value = typename Factory::Cell::Value;
  const std::int64_t tasks = factory.tasks();
  if (tasks == 0) return Status::ok();
  constexpr int kGroupsPerBlock = kBlockThreads / G;
  std::int64_t groups = 0;
  DPX_RETURN_IF_ERROR((resident_groups<G, R, Factory>(&groups)));
  // Boundary rows only when a matrix has more than one strip.
  const std::size_t per_group = max_rows > G * R ? wavefront_scratch_values(static_cast<int>(max_cols)) : 0;
  if (per_group > 0) {
    const auto affordable = static_cast<std::int64_t>(kScratchBudgetBytes / (per_group * sizeof(Value)));
    groups = std::min(groups, std::max<std::int64_t>(affordable, kGroupsPerBlock));
  }
  groups = std::min(groups, tasks);
  const std::int64_t blocks = (groups + kGroupsPerBlock - 1) / kGroupsPerBlock;

  Value* scratch = nullptr;
  const std::size_t scratch_bytes = static_cast<std::size_t>(blocks) * kGroupsPerBlock * per_group * sizeof(Value);
  if (scratch_bytes > 0) DPX_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void**>(&scratch), scratch_bytes, stream));
  wavefront_batch_kernel<G, R, Factory>
      <<<static_cast<unsigned>(blocks), kBlockThreads, 0, stream>>>(factory, scratch, per_group);
  const Status launched = detail::cuda_status(cudaGetLastError(), "launch of wavefront_batch_kernel", __FILE__, __LINE__);
  if (scratch != nullptr) DPX_CUDA_TRY(cudaFreeAsync(scratch, stream));
  return launched;
}

}  // namespace align
}  // namespace dpx
