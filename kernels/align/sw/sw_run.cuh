// Runs an AlignPlan on the device: which kernels, over which slots, in which order, all on one
// stream. A template on the op policy so the benchmark can run the same sequence with PlainOps.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "align/common/pair_batch.cuh"
#include "align_cuda_plan.h"
#include "align_results.h"
#include "cuda_check.h"
#include "sw_kernels.cuh"
#include "sw_scan.cuh"

namespace dpx {
namespace align {

// Sizes `out` for the plan (reusing its buffers when they fit) and gives its arrays.
inline Status prepare_results(const AlignPlan::Impl& p, DeviceAlignResults* out, ResultArrays* arrays) {
  using A = DeviceAlignResultsAccess;
  const std::uint64_t field_bytes = std::uint64_t(p.pairs) * 5 * sizeof(std::int32_t);
  if (A::fields(*out).size() < field_bytes) DPX_RETURN_IF_ERROR(A::fields(*out).allocate(field_bytes));
  A::count(*out) = p.pairs;
  A::traceback(*out) = p.options.traceback;
  A::fixed_cigars(*out) = p.trivial_cigars;
  arrays->fields = A::fields(*out).as<std::int32_t>();
  if (!p.options.traceback) return Status::ok();
  const std::uint64_t count_bytes = std::uint64_t(p.pairs) * sizeof(std::int32_t);
  if (A::ops(*out).size() < p.ops_total) DPX_RETURN_IF_ERROR(A::ops(*out).allocate(p.ops_total));
  if (A::op_counts(*out).size() < count_bytes) DPX_RETURN_IF_ERROR(A::op_counts(*out).allocate(count_bytes));
  A::op_offsets(*out) = p.ops_offset.host;
  arrays->ops = A::ops(*out).as<char>();
  arrays->op_counts = A::op_counts(*out).as<std::int32_t>();
  return Status::ok();
}

// Fork-join of the plan's side streams around a group of launches, all ordered after what is
// already on `main` and before what comes next on it.
class SideStreams {
 public:
  SideStreams(const std::vector<Stream>& side, cudaStream_t main) : side_(side), main_(main) {}
  // fork: every side stream waits for main; join: main waits for every side stream.
  Status fork() {
    for (const Stream& s : side_) DPX_RETURN_IF_ERROR(stream_wait(s.get(), main_));
    return Status::ok();
  }
  Status join() {
    for (const Stream& s : side_) DPX_RETURN_IF_ERROR(stream_wait(main_, s.get()));
    return Status::ok();
  }
  // The stream for launch k; launches that use the boundary store all go to side[0].
  cudaStream_t stream_for(std::size_t k, bool uses_boundary) const {
    if (side_.empty()) return main_;
    return side_[uses_boundary ? 0 : k % side_.size()].get();
  }

 private:
  const std::vector<Stream>& side_;
  cudaStream_t main_;
};

// Column-store bytes for one launch of groups of `group` threads whose pairs take several passes:
// enough for all its slots up to 256 MiB, and never less than one block of its groups.
inline std::uint64_t boundary_need(std::int64_t slots, std::int32_t rows, std::int32_t passes, int group) {
  if (passes <= 1 || slots <= 0) return 0;
  const std::uint64_t row_bytes = std::uint64_t(rows) * 8;
  const std::uint64_t want = std::min<std::uint64_t>(std::uint64_t(slots) * row_bytes, std::uint64_t(256) << 20);
  return std::max<std::uint64_t>(want, std::uint64_t(kKernelThreads / group) * row_bytes);
}

// Groups a launch may use given `bytes` of column store (unlimited when its pairs take one pass).
inline std::int64_t boundary_groups(std::uint64_t bytes, std::int32_t max_rows, std::int32_t max_passes) {
  if (max_passes <= 1) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(bytes / (std::uint64_t(max_rows > 0 ? max_rows : 1) * 8));
}

// How a scan plan's launches run: the paired table's scan (sw_scan.cuh). A policy says what a
// query needs before its launches, whether a range's launch uses the plan's column store (those
// share one stream) and launches range `k` of the plan; the query profile's scan is another
// (sw_scan_profile.cu).
template <class Ops>
struct PairedTableScan {
  Status prepare(const AlignPlan::Impl& p, SwLaunchArgs* a, cudaStream_t stream) const {
    a->query_rows = p.query_rows.as<const std::uint32_t>();
    return launch_scan_query_rows(a->batch, a->d, p.query_rows.as<std::uint32_t>(), stream);
  }
  bool uses_store(const SlotRange& r) const { return r.max_passes > 1; }
  Status launch(std::size_t, const SlotRange& r, const SwLaunchArgs& a, std::int64_t groups,
                cudaStream_t stream) const {
    return launch_scan<Ops>(r.config, a, groups, stream);
  }
};

// The plan over `batch` into `out`; clears the traceback counts first.
template <class Ops, bool kLocal, class Scan = PairedTableScan<Ops>>
Status run_plan_mode(const AlignPlan::Impl& p, const PairBatchView<char>& batch, const ResultArrays& out,
                     cudaStream_t stream, const Scan& scan = Scan{}) {
  std::int32_t* fields = out.fields;
  if (p.trivial_count > 0) {
    DPX_RETURN_IF_ERROR(launch_scatter_fields(p.trivial_pairs.device.as<const std::int32_t>(), p.trivial_fields.device.as<const std::int32_t>(),
                                              p.trivial_count, fields, stream));
  }
  SwLaunchArgs a{};
  a.batch = BatchView{batch.query_data,
                      batch.query_offsets,
                      batch.target_data,
                      batch.target_offsets,
                      p.pairing == Pairing::kOneToMany,
                      p.code.as<const std::uint8_t>(),
                      p.planned.as<const std::int32_t>(),
                      p.query_length};
  a.mode = p.options.mode;
  a.score_only = p.options.score_only;
  a.open = p.options.gap_open;
  a.extend = p.options.gap_extend;
  a.fields = fields;
  a.boundary = p.boundary.data();
  a.d = p.table_side;

  if (!p.options.traceback) {
    a.table = p.table16.data();
    a.table_bytes = p.table16_bytes;
    a.overflow = p.overflow.as<Slot>();
    a.overflow_count = p.overflow_count.as<std::int32_t>();
    a.overflow_limit = p.score.overflow_limit;
    const bool reruns = kLocal && p.score.local16_pairs > 0;
    if (reruns) DPX_CUDA_TRY(cudaMemsetAsync(a.overflow_count, 0, sizeof(std::int32_t), stream));
    if (p.score.scan) {
      DPX_RETURN_IF_ERROR(scan.prepare(p, &a, stream));
      DPX_CUDA_TRY(
          cudaMemsetAsync(p.claims.data(), 0, p.score.ranges16.size() * sizeof(std::int32_t), stream));
    }
    SideStreams side(p.side, stream);
    DPX_RETURN_IF_ERROR(side.fork());
    auto launch_all = [&]() -> Status {
      // Widest shapes first: their slots take longest (targets in passes, up to tens of thousands of
      // letters), so they start while the narrow launches fill the GPU around them instead of
      // running alone at the end.
      for (std::size_t k = 0; k < p.score.ranges16.size(); ++k) {
        const SlotRange& r = p.score.ranges16[p.score.ranges16.size() - 1 - k];
        a.slots = p.slots16.device.as<const Slot>() + r.first;
        a.slot_count = r.count;
        a.boundary_rows = column_store_rows(p.score.scan, r.max_rows);
        const std::int64_t groups = boundary_groups(p.boundary_bytes, a.boundary_rows, r.max_passes);
        const cudaStream_t s = side.stream_for(k, p.score.scan ? scan.uses_store(r) : r.max_passes > 1);
        if (p.score.scan) {
          // This launch's claim counter on a copy: the 32-bit launches after it keep fixed shares.
          SwLaunchArgs claimed = a;
          claimed.next_slot = p.claims.as<std::int32_t>() + k;
          DPX_RETURN_IF_ERROR(scan.launch(k, r, claimed, groups, s));
        } else if (p.score.scorer == ScorerKind::kPaired) {
          DPX_RETURN_IF_ERROR((launch_score16<Ops, PairedScorer, kLocal>(r.config, a, groups, s)));
        } else {
          DPX_RETURN_IF_ERROR((launch_score16<Ops, TwoLookupScorer, kLocal>(r.config, a, groups, s)));
        }
      }
      a.table = p.table32.data();
      a.table_bytes = p.table32_bytes;
      if (p.score.range32.count == 0) return Status::ok();
      a.slots = p.slots32.device.as<const Slot>();
      a.slot_count = p.score.range32.count;
      a.boundary_rows = p.score.range32.max_rows;
      const std::int64_t groups = boundary_groups(p.boundary_bytes, p.score.range32.max_rows, p.score.range32.max_passes);
      return launch_score32<Ops, kLocal>(a, a.slot_count, groups, side.stream_for(0, p.score.range32.max_passes > 1));
    };
    const Status launched = launch_all();
    const Status joined = side.join();  // also after a failure: nothing may outlive the call unordered
    DPX_RETURN_IF_ERROR(launched);
    DPX_RETURN_IF_ERROR(joined);
    if (reruns) {  // local pairs whose 16-bit lanes came near the limit, in 32 bits
      a.slots = p.overflow.as<const Slot>();
      a.slot_count = 0;
      a.slot_count_device = a.overflow_count;
      a.boundary_rows = p.score.max_rows_local16;
      const std::int64_t groups = boundary_groups(p.boundary_bytes, p.score.max_rows_local16,
                                                  (p.score.max_cols_local16 + kScore32Config.width() - 1) / kScore32Config.width());
      DPX_RETURN_IF_ERROR((launch_score32<Ops, kLocal>(a, p.score.local16_pairs, groups, stream)));
    }
    return Status::ok();
  }

  DPX_CUDA_TRY(cudaMemsetAsync(out.op_counts, 0, std::size_t(p.pairs) * sizeof(std::int32_t), stream));
  a.dirs = p.tb_dirs.as<std::uint32_t>();
  a.overflow_limit = std::numeric_limits<std::int32_t>::max();  // the plan keeps packed pairs within 16 bits
  a.dir_offset = p.tb_offset.device.as<const std::uint64_t>();
  WalkArgs w{};
  w.batch = a.batch;
  w.wildcard = p.wildcard;
  w.mode = a.mode;
  w.open = a.open;
  w.extend = a.extend;
  w.scores = p.table32.as<const std::int32_t>();
  w.side = p.table_side;
  w.config = p.tb_config.device.as<const std::uint8_t>();
  w.dirs = a.dirs;
  w.dir_offset = a.dir_offset;
  w.fields = fields;
  w.ops = out.ops;
  w.ops_offset = p.ops_offset.device.as<const std::uint64_t>();
  w.op_count = out.op_counts;
  for (const TracebackChunk& chunk : p.traceback.chunks) {
    // The shapes of a chunk write disjoint words: side by side (widest first, as above), each
    // followed on its stream by the walk of its pairs, which then runs beside the later shapes'
    // directions instead of after all of them.
    std::int32_t* claims = p.claims.as<std::int32_t>();
    DPX_CUDA_TRY(cudaMemsetAsync(claims, 0, chunk.ranges.size() * sizeof(std::int32_t), stream));
    PassSync* sync = p.tb_sync.as<PassSync>() + chunk.items_first;
    DPX_CUDA_TRY(cudaMemsetAsync(sync, 0, std::size_t(chunk.items) * sizeof(PassSync), stream));
    SideStreams side(p.side, stream);
    DPX_RETURN_IF_ERROR(side.fork());
    auto launch_chunk = [&]() -> Status {
      for (std::size_t k = 0; k < chunk.ranges.size(); ++k) {
        const std::size_t x = chunk.ranges.size() - 1 - k;
        const TracebackRange& r = chunk.ranges[x];
        a.slots = p.tb_slots.device.as<const Slot>() + r.first;
        a.slot_count = r.count;
        a.items = p.tb_items.device.as<const PassItem>() + r.first_item;
        a.item_count = r.item_count;
        a.pass_sync = sync + (r.first_item - chunk.items_first);
        const cudaStream_t s = side.stream_for(k, false);
        a.next_slot = claims + k;
        const bool packed = traceback_packed(r.config);
        a.table = packed ? p.table16.data() : p.table32.data();
        a.table_bytes = packed ? p.table16_bytes : p.table32_bytes;
        if (!packed) {
          DPX_RETURN_IF_ERROR((launch_directions<Ops, SingleScorer, kLocal>(r.config, a, s)));
        } else if (p.traceback.scorer == ScorerKind::kPaired) {
          DPX_RETURN_IF_ERROR((launch_directions<Ops, PairedScorer, kLocal>(r.config, a, s)));
        } else {
          DPX_RETURN_IF_ERROR((launch_directions<Ops, TwoLookupScorer, kLocal>(r.config, a, s)));
        }
        w.slots = a.slots;
        w.slot_count = r.count;
        DPX_RETURN_IF_ERROR(launch_walk(w, s));
      }
      return Status::ok();
    };
    const Status launched = launch_chunk();
    const Status joined = side.join();
    DPX_RETURN_IF_ERROR(launched);
    DPX_RETURN_IF_ERROR(joined);
  }
  return Status::ok();
}

template <class Ops>
Status run_plan(const AlignPlan::Impl& p, const PairBatchView<char>& batch, const ResultArrays& out,
                cudaStream_t stream) {
  if (p.options.mode == AlignMode::kLocal) return run_plan_mode<Ops, true>(p, batch, out, stream);
  return run_plan_mode<Ops, false>(p, batch, out, stream);
}

}  // namespace align
}  // namespace dpx
