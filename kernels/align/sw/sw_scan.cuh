// CUDA side of the database scan (sw_scan.h): the query-row array, the kernel (shuffles between
// the threads of a group, the persistent loop over slots, the per-lane maximum reduced over the
// group) and its launcher, a template on the op policy like the strip kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "sw_kernels.cuh"
#include "sw_scan.h"

namespace dpx {
namespace align {
namespace device {

// rows[kScanRowPad + i] = the paired table's byte offset for query row i (1-based), padding outside
// 1..n. A device query shorter than planned reads no further than its end (its pairs are refused).
__global__ void scan_query_rows_kernel(BatchView b, int d, std::uint32_t* rows, std::int32_t entries);

// One pass's steps of a scan thread (ScanStrip's), shuffling H and E along the group.
template <int G, class T>
__device__ __forceinline__ void scan_pass_steps(T& th, std::int32_t steps, const GapCosts<typename T::L>& g) {
  using V = typename T::V;
  for (std::int32_t s = 0; s < steps; s += kScanAhead) {
#pragma unroll
    for (int k = 0; k < kScanAhead; ++k) {
      const V h_in = __shfl_up_sync(0xFFFFFFFFu, th.h_out, 1, G);
      const V e_in = __shfl_up_sync(0xFFFFFFFFu, th.e_out, 1, G);
      th.step(s + k, k, h_in, e_in, g);
    }
  }
  __syncwarp();  // the column store written in this pass is read in the next
}

// The slot's score per lane: the group's largest H, written by its first thread (or the lane sent
// to the 32-bit rerun).
template <int G, class L>
__device__ __forceinline__ void finish_scan_slot(const SwLaunchArgs& a, typename L::V best, const LaneJob (&jobs)[2],
                                                 int t) {
  for (int off = 1; off < G; off <<= 1) best = L::max(best, __shfl_xor_sync(0xFFFFFFFFu, best, off, G));
  if (t != 0) return;
#pragma unroll
  for (int k = 0; k < 2; ++k) write_lane(a, jobs[k].pair, Candidate{L::lane(best, k), 0, 0}, true, true);
}

template <class Ops, int G, int R, bool kPasses>
__device__ void scan_slots(const SwLaunchArgs& a, const std::uint32_t* table, const std::uint8_t* code) {
  using T = ScanThread<Ops, G, R, kPasses>;
  using L = typename T::L;
  constexpr int kGroupsPerWarp = 32 / G;
  const int lane = threadIdx.x & 31, t = lane % G;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  const GapCosts<L> g(a.open, a.extend);
  const std::int32_t steps = scan_steps(a.batch.planned_query, G);
  T th;
  th.t = t;
  th.n = a.batch.planned_query;
  th.table = table;
  th.rows = a.query_rows;
  th.edges = static_cast<ScanEdge*>(a.boundary) +
             static_cast<std::uint64_t>(warp * kGroupsPerWarp + lane / G) * a.boundary_rows;
  // The first round static, then each warp claims the next batch when it is done. With fixed
  // shares of equal slots the warps the schedulers favour ran out of work early and the rest ran
  // on with fewer beside them: ncu counted 13.3 of 16 warps an SM active on average.
  for (std::int32_t first = warp * kGroupsPerWarp; first < a.slot_count;
       first = next_batch(a.next_slot, first, warps * kGroupsPerWarp, kGroupsPerWarp)) {
    const std::int32_t index = first + lane / G;
    LaneJob jobs[2];
    load_jobs(a, index < a.slot_count ? a.slots[index] : Slot{-1, -1}, jobs);
    const std::int32_t cols = jobs[0].m > jobs[1].m ? jobs[0].m : jobs[1].m;
    const int passes = warp_max((cols + T::kWidth - 1) / T::kWidth);
    th.begin_slot();
    for (int p = 0; p < passes; ++p) {
      std::uint8_t la[R], lb[R];
      const std::int32_t c0 = p * T::kWidth + t * R;
#pragma unroll
      for (int c = 0; c < R; ++c) {
        la[c] = static_cast<std::uint8_t>(letter_at(jobs[0].target, jobs[0].m, c0 + c, code, a.d - 1));
        lb[c] = static_cast<std::uint8_t>(letter_at(jobs[1].target, jobs[1].m, c0 + c, code, a.d - 1));
      }
      th.begin_pass(p, p + 1 == passes, la, lb, a.d, g);
      scan_pass_steps<G>(th, steps, g);
    }
    finish_scan_slot<G, L>(a, th.best, jobs, t);
  }
}

// At most 128 registers, so two blocks of 256 threads share an SM.
template <class Ops, int G, int R, bool kPasses>
__global__ void __launch_bounds__(kKernelThreads, 2) sw_scan_kernel(SwLaunchArgs a) {
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint8_t* code = load_tables(a, smem);
  scan_slots<Ops, G, R, kPasses>(a, reinterpret_cast<const std::uint32_t*>(smem), code);
}

}  // namespace device

// Fills the query-row array (scan_row_entries(planned query) entries) for a plan's scan launches.
Status launch_scan_query_rows(const BatchView& b, int d, std::uint32_t* rows, cudaStream_t stream);

namespace detail {
template <class Ops, int... C>
Status scan_dispatch(int config, const SwLaunchArgs& a, std::int64_t boundary_groups, cudaStream_t stream,
                     std::integer_sequence<int, C...>) {
  Status s(StatusCode::kInvalidArgument, "align: no scan shape " + std::to_string(config));
  ((config == C ? (void)(s = launch_groups(device::sw_scan_kernel<Ops, kScanConfigs[C].group, kScanConfigs[C].columns,
                                                                  (C >= kScanSinglePassCount)>,
                                           kScanConfigs[C].group, kKernelThreads, a, a.slot_count, boundary_groups, stream))
                : (void)0),
   ...);
  return s;
}
}  // namespace detail

// The scan over a.slots with shape kScanConfigs[config]; a.query_rows filled beforehand.
template <class Ops>
Status launch_scan(int config, const SwLaunchArgs& a, std::int64_t boundary_groups, cudaStream_t stream) {
  return detail::scan_dispatch<Ops>(config, a, boundary_groups, stream, std::make_integer_sequence<int, kScanConfigCount>());
}

}  // namespace align
}  // namespace dpx
