// The database scan with a query profile (sw_scan_profile.h) on the device: the profile of each
// query, the kernel, and AlignPlan's run with it in place of the paired table's scan. A variant
// that dpx-bench times beside the default scan; the library keeps the paired table.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "align/common/align_variants.h"
#include "align_cuda_plan.h"
#include "launch_sizing.h"
#include "sw_instances.h"
#include "sw_run.cuh"
#include "sw_scan_profile.h"

namespace dpx {
namespace align {
namespace device {

// profile[at] for every byte of the d letters' rows; a device query shorter than planned scores as
// padding past its end (its pairs are refused).
__global__ void query_profile_kernel(BatchView b, const std::int32_t* table32, int d, int group, int columns,
                                     std::int8_t* profile, std::int32_t bytes) {
  const std::int32_t at = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (at >= bytes) return;
  const std::int64_t stored = static_cast<std::int64_t>(b.q_offsets[1] - b.q_offsets[0]);
  profile[at] = profile_byte(
      at, b.planned_query, group, columns, d,
      [&](std::int32_t c) {
        return c < stored ? b.code[static_cast<unsigned char>(b.q_data[b.q_offsets[0] + c])] : d - 1;
      },
      [&](int q, int x) { return table32[q * d + x]; });
}

template <class Ops, int G, int R, bool kPasses>
__global__ void __launch_bounds__(kProfileThreads, 1) sw_scan_profile_kernel(SwLaunchArgs a) {
  using T = ProfileScanThread<Ops, G, R, kPasses>;
  using L = typename T::L;
  constexpr int kGroupsPerWarp = 32 / G;
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint8_t* code = load_tables(a, smem);
  const int lane = threadIdx.x & 31, t = lane % G;
  const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int warps = static_cast<int>((gridDim.x * blockDim.x) >> 5);
  const GapCosts<L> g(a.open, a.extend);
  T th;
  th.t = t;
  th.profile = smem;
  th.row_bytes = a.table_bytes / a.d;
  th.code = code;
  th.pad = a.d - 1;
  th.edges = static_cast<ScanEdge*>(a.boundary) +
             static_cast<std::uint64_t>(warp * kGroupsPerWarp + lane / G) * a.boundary_rows;
  const int passes = th.row_bytes / T::kWidth;
  for (std::int32_t first = warp * kGroupsPerWarp; first < a.slot_count;
       first = next_batch(a.next_slot, first, warps * kGroupsPerWarp, kGroupsPerWarp)) {
    const std::int32_t index = first + lane / G;
    LaneJob jobs[2];
    load_jobs(a, index < a.slot_count ? a.slots[index] : Slot{-1, -1}, jobs);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      th.target[k] = jobs[k].target;
      th.m[k] = jobs[k].m;
    }
    th.n = warp_max(jobs[0].m > jobs[1].m ? jobs[0].m : jobs[1].m);  // rows: the warp's longest target
    const std::int32_t steps = scan_steps(th.n, G);
    th.begin_slot();
    for (int p = 0; p < passes; ++p) {
      th.begin_pass(p, p + 1 == passes, g);
      scan_pass_steps<G>(th, steps, g);
    }
    finish_scan_slot<G, L>(a, th.best, jobs, t);
  }
}

}  // namespace device

namespace {

template <class Ops, int G, int R>
Status launch_profile_shape(bool passes, const SwLaunchArgs& a, std::int64_t store_groups,
                            cudaStream_t stream) {
  return passes ? launch_groups(device::sw_scan_profile_kernel<Ops, G, R, true>, G, kProfileThreads, a,
                                a.slot_count, store_groups, stream)
                : launch_groups(device::sw_scan_profile_kernel<Ops, G, R, false>, G, kProfileThreads, a,
                                a.slot_count, store_groups, stream);
}

template <class Ops, int... C>
Status scan_profile_dispatch(int config, bool passes, const SwLaunchArgs& a, std::int64_t store_groups,
                             cudaStream_t stream, std::integer_sequence<int, C...>) {
  Status s(StatusCode::kInvalidArgument, "align: no profile shape " + std::to_string(config));
  ((config == C ? (void)(s = launch_profile_shape<Ops, kProfileConfigs[C].group, kProfileConfigs[C].columns>(
                             passes, a, store_groups, stream))
                : (void)0),
   ...);
  return s;
}

// The run_plan_mode policy (sw_run.cuh) for the profile: the query's profile before its launches,
// each range with the profile shape of the query (the plan's shapes are the targets'). Launches
// in passes do not share one stream: launch k runs on side stream k % streams (SideStreams), so it
// takes column-store region k % streams, and a range of long targets overlaps the others instead
// of leaving the device to its longest slot.
struct QueryProfileScan {
  int config;
  std::int32_t row_bytes, passes;
  std::int8_t* profile;
  ScanEdge* store;  // `regions` regions of store_groups * store_rows entries
  std::size_t regions;
  std::int32_t store_rows;
  std::int64_t store_groups;  // per region

  Status prepare(const AlignPlan::Impl& p, SwLaunchArgs* a, cudaStream_t stream) const {
    const std::int32_t bytes = a->d * row_bytes;
    device::query_profile_kernel<<<(bytes + 255) / 256, 256, 0, stream>>>(
        a->batch, p.table32.as<const std::int32_t>(), a->d, kProfileConfigs[config].group,
        kProfileConfigs[config].columns, profile, bytes);
    DPX_CUDA_CHECK_LAUNCH("query_profile_kernel");
    return Status::ok();
  }
  bool uses_store(const SlotRange&) const { return false; }
  Status launch(std::size_t k, const SlotRange&, const SwLaunchArgs& a, std::int64_t,
                cudaStream_t stream) const {
    SwLaunchArgs b = a;
    b.table = profile;
    b.table_bytes = a.d * row_bytes;
    b.boundary =
        passes > 1 ? store + (k % regions) * std::size_t(store_groups) * std::size_t(store_rows) : nullptr;
    b.boundary_rows = store_rows;
    return scan_profile_dispatch<ops::Dpx>(config, passes > 1, b, store_groups, stream,
                                           std::make_integer_sequence<int, kProfileConfigCount>());
  }
};

}  // namespace
}  // namespace align

namespace variants {

Status ProfileScan::run(const AlignPlan& plan, const DeviceSequenceBatch& queries,
                        const DeviceSequenceBatch& targets, DeviceAlignResults* out, cudaStream_t stream) {
  const AlignPlan::Impl* impl = AlignPlanAccess::impl(plan);
  if (impl == nullptr || !impl->score.scan || !align::profile_scan_fits(impl->table_side, impl->query_length))
    return plan.run(queries, targets, out, stream);
  align::QueryProfileScan scan{};
  scan.config = align::profile_config(impl->query_length);
  const int width = align::kProfileConfigs[scan.config].width();
  scan.row_bytes = align::profile_row_bytes(impl->query_length, width);
  scan.passes = align::profile_passes(impl->query_length, width);
  const std::size_t profile_bytes = std::size_t(impl->table_side) * scan.row_bytes;
  if (profile_.size() < profile_bytes) DPX_RETURN_IF_ERROR(profile_.allocate(align::kProfileMaxBytes));
  scan.profile = profile_.as<std::int8_t>();
  scan.regions = std::max<std::size_t>(impl->side.size(), 1);
  if (scan.passes > 1) {
    // per side stream, a column store for every group the device holds at once, rows for the
    // longest target; at most 1 GiB a region, but one block's worth (launch_groups sizes the grid
    // by it): fewer blocks beside very long targets
    int sms = 0;
    DPX_RETURN_IF_ERROR(runtime::sm_count(&sms));
    const std::int32_t longest =
        impl->lengths.m.empty() ? 0 : *std::max_element(impl->lengths.m.begin(), impl->lengths.m.end());
    scan.store_rows = align::scan_row_entries(longest);
    const std::size_t row_bytes = std::size_t(scan.store_rows) * sizeof(align::ScanEdge);
    const std::int64_t per_block = align::kProfileThreads / align::kProfileConfigs[scan.config].group;
    scan.store_groups =
        std::min<std::int64_t>(std::int64_t(sms) * per_block,
                               std::max<std::int64_t>((std::int64_t(1) << 30) / row_bytes, per_block));
    const std::size_t need = scan.regions * std::size_t(scan.store_groups) * row_bytes;
    if (store_.size() < need) DPX_RETURN_IF_ERROR(store_.allocate(need));
    scan.store = store_.as<align::ScanEdge>();
  } else {
    scan.store_groups = std::numeric_limits<std::int64_t>::max();
  }
  align::ResultArrays arrays;
  DPX_RETURN_IF_ERROR(align::prepare_results(*impl, out, &arrays));
  return align::run_plan_mode<ops::Dpx, true>(*impl, align::make_device_view(queries, targets, impl->pairing),
                                              arrays, stream, scan);
}

}  // namespace variants
}  // namespace dpx
