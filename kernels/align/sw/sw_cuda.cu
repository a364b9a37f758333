// The CUDA side of the alignment API: plan creation (host decisions, device uploads), runs,
// downloads. The host files check the arguments before they get here (sw_cuda.h).
#include <algorithm>
#include <cstring>
#include <limits>

#include "align/common/pair_upload.cuh"
#include "align_results.h"
#include "sw_common.h"
#include "sw_cuda.h"
#include "sw_instances.h"
#include "sw_run.cuh"
#include "sw_tables.h"

namespace dpx {

namespace {

using align::Slot;

constexpr std::size_t kSideStreams = 4;

template <class T>
Status upload(DeviceBuffer* dst, const std::vector<T>& src, cudaStream_t stream) {
  const std::size_t bytes = src.size() * sizeof(T);
  DPX_RETURN_IF_ERROR(dst->allocate(bytes > 0 ? bytes : 16));
  if (bytes > 0) DPX_CUDA_TRY(cudaMemcpyAsync(dst->data(), src.data(), bytes, cudaMemcpyHostToDevice, stream));
  return Status::ok();
}

// Grows `dst` to at least `bytes` (never below 16), keeping it when it is large enough.
Status reserve(DeviceBuffer* dst, std::uint64_t bytes) {
  bytes = std::max<std::uint64_t>(bytes, 16);
  return dst->size() >= bytes ? Status::ok() : dst->allocate(bytes);
}

// Uploads `src` unless the buffer already holds the same; the mirror keeps the bytes the
// asynchronous copy reads.
template <class T>
Status upload(Mirrored<T>* dst, std::vector<T> src, cudaStream_t stream) {
  const bool same = dst->device.size() > 0 && dst->host.size() == src.size() &&
                    (src.empty() || std::memcmp(dst->host.data(), src.data(), src.size() * sizeof(T)) == 0);
  if (same) return Status::ok();
  dst->host = std::move(src);
  const std::size_t bytes = dst->host.size() * sizeof(T);
  DPX_RETURN_IF_ERROR(reserve(&dst->device, bytes));
  if (bytes > 0) DPX_CUDA_TRY(cudaMemcpyAsync(dst->device.data(), dst->host.data(), bytes, cudaMemcpyHostToDevice, stream));
  return Status::ok();
}

// The workspaces a plan's layout needs: column stores for pairs that take passes (and for the
// 32-bit reruns), the scan's query rows, the side streams. Grown, never shrunk, so a reused plan
// stops allocating.
Status size_workspaces(AlignPlan::Impl& p) {
  std::uint64_t boundary = 0;
  if (!p.options.traceback) {
    for (const align::SlotRange& r : p.score.ranges16) {
      const int group = (p.score.scan ? align::kScanConfigs : align::kScore16Configs)[r.config].group;
      boundary = std::max(boundary, align::boundary_need(r.count, align::column_store_rows(p.score.scan, r.max_rows),
                                                         r.max_passes, group));
    }
    if (p.score.scan) {
      DPX_RETURN_IF_ERROR(reserve(&p.query_rows, std::uint64_t(align::scan_row_entries(p.query_length)) * sizeof(std::uint32_t)));
    }
    const align::SlotRange& w = p.score.range32;
    const int group32 = align::kScore32Config.group;
    boundary = std::max(boundary, align::boundary_need(w.count, w.max_rows, w.max_passes, group32));
    const std::int32_t rerun_passes = (p.score.max_cols_local16 + align::kScore32Config.width() - 1) / align::kScore32Config.width();
    if (p.options.mode == AlignMode::kLocal)
      boundary = std::max(boundary, align::boundary_need(p.score.local16_pairs, p.score.max_rows_local16, rerun_passes, group32));
  }  // the traceback's column stores lie in its direction words
  p.boundary_bytes = std::max<std::uint64_t>(boundary, p.boundary.size());
  DPX_RETURN_IF_ERROR(reserve(&p.boundary, boundary));
  std::size_t launches = p.score.ranges16.size() + (p.score.range32.count > 0);
  for (const align::TracebackChunk& c : p.traceback.chunks) launches = std::max(launches, c.ranges.size());
  if (p.side.empty() && launches > 1) {
    std::vector<Stream> side(kSideStreams);
    for (Stream& s : side) DPX_RETURN_IF_ERROR(s.create());
    p.side = std::move(side);
  }
  return Status::ok();
}

// Everything of a plan that depends on the query lengths: which pairs are trivial, the slot
// layout, then the workspaces.
Status plan_queries(AlignPlan::Impl& p, cudaStream_t stream) {
  const AlignOptions& options = p.options;
  const std::vector<std::int32_t>* order = p.pairing == Pairing::kOneToMany ? &p.target_order : nullptr;
  p.cells = 0;
  for (std::size_t k = 0; k < p.pairs; ++k) p.cells += std::uint64_t(p.lengths.n[k]) * std::uint64_t(p.lengths.m[k]);

  // pairs with an empty side: results from the host
  std::vector<std::int32_t> trivial_pairs, trivial_fields;
  p.trivial_cigars.clear();
  for (std::size_t k = 0; k < p.pairs; ++k) {
    if (p.lengths.n[k] != 0 && p.lengths.m[k] != 0) continue;
    const AlignResult r = align::empty_side_result(p.lengths.n[k], p.lengths.m[k], options);
    trivial_pairs.push_back(static_cast<std::int32_t>(k));
    trivial_fields.insert(trivial_fields.end(), {r.score, r.query_begin, r.query_end, r.target_begin, r.target_end});
    if (options.traceback) p.trivial_cigars.emplace_back(static_cast<std::int32_t>(k), r.cigar);
  }
  p.trivial_count = static_cast<std::int32_t>(trivial_pairs.size());
  DPX_RETURN_IF_ERROR(upload(&p.trivial_pairs, std::move(trivial_pairs), stream));
  DPX_RETURN_IF_ERROR(upload(&p.trivial_fields, std::move(trivial_fields), stream));

  if (!options.traceback) {
    p.score = align::plan_scores(p.lengths, p.pairing, p.matrix, options, order);
    DPX_RETURN_IF_ERROR(upload(&p.slots16, p.score.slots16, stream));
    DPX_RETURN_IF_ERROR(upload(&p.slots32, p.score.slots32, stream));
    DPX_RETURN_IF_ERROR(reserve(&p.overflow, std::max<std::size_t>(1, p.score.local16_pairs) * sizeof(Slot)));
    if (p.score.scan) DPX_RETURN_IF_ERROR(reserve(&p.claims, p.score.ranges16.size() * sizeof(std::int32_t)));
  } else {
    std::size_t free_bytes = 0, total_bytes = 0;
    DPX_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    p.traceback = align::plan_traceback(p.lengths, p.pairing, p.matrix, options, align::traceback_budget_words(free_bytes), order);
    std::vector<std::uint64_t> offset(p.pairs + 1, 0);
    for (std::size_t k = 0; k < p.pairs; ++k) offset[k + 1] = offset[k] + p.lengths.n[k] + p.lengths.m[k];
    p.ops_total = std::max<std::uint64_t>(offset[p.pairs], 16);
    DPX_RETURN_IF_ERROR(upload(&p.ops_offset, std::move(offset), stream));
    DPX_RETURN_IF_ERROR(upload(&p.tb_slots, p.traceback.slots, stream));
    DPX_RETURN_IF_ERROR(upload(&p.tb_config, p.traceback.config, stream));
    DPX_RETURN_IF_ERROR(upload(&p.tb_offset, p.traceback.word_offset, stream));
    DPX_RETURN_IF_ERROR(upload(&p.tb_items, p.traceback.items, stream));
    DPX_RETURN_IF_ERROR(reserve(&p.tb_sync, std::max<std::size_t>(p.traceback.items.size(), 1) * sizeof(align::PassSync)));
    DPX_RETURN_IF_ERROR(reserve(&p.tb_dirs, std::max<std::uint64_t>(p.traceback.max_chunk_words, 4) * sizeof(std::uint32_t)));
    DPX_RETURN_IF_ERROR(reserve(&p.claims, align::kTracebackConfigCount * sizeof(std::int32_t)));
  }
  return size_workspaces(p);
}

// A local one-to-many score plan keeps its layout for another query length: every local pair
// starts in the packed lanes, slots follow the target lengths alone, and an empty target's result
// does not depend on the query. Only the row counts, the cell count and the workspaces change
// (a database search re-plans per query; redoing the layout cost milliseconds per million targets).
bool keeps_layout(const AlignPlan::Impl& p, std::int32_t length) {
  return p.pairing == Pairing::kOneToMany && p.options.mode == AlignMode::kLocal && !p.options.traceback &&
         p.query_length > 0 && length > 0;
}

Status requery_layout(AlignPlan::Impl& p, std::int32_t length) {
  p.cells = p.cells / static_cast<std::uint64_t>(p.query_length) * static_cast<std::uint64_t>(length);
  for (align::SlotRange& r : p.score.ranges16) r.max_rows = length;
  if (p.score.range32.count > 0) p.score.range32.max_rows = length;
  if (p.score.local16_pairs > 0) p.score.max_rows_local16 = length;
  p.query_length = length;
  return size_workspaces(p);
}

// The target side of a plan (tables, planned lengths, the target order), then its query side.
Status build_plan(AlignPlan::Impl& p, const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                  const ScoreMatrix& matrix, const AlignOptions& options, cudaStream_t stream) {
  p.queries = queries.size();
  p.targets = targets.size();
  p.pairs = pair_count(queries.size(), targets.size(), pairing);
  p.pairing = pairing;
  p.options = options;
  p.matrix = matrix;
  p.wildcard = matrix.wildcard();
  p.table_side = matrix.size() + 1;
  p.lengths = align::pair_lengths(queries, targets, pairing);
  if (pairing == Pairing::kOneToMany) {
    p.target_order = align::order_by_target_length(p.lengths);
    p.query_length = static_cast<std::int32_t>(queries.length(0));
  }

  std::vector<std::uint8_t> code(matrix.code_table(), matrix.code_table() + 256);
  DPX_RETURN_IF_ERROR(upload(&p.code, code, stream));
  std::vector<std::int32_t> planned(2 * p.pairs);
  for (std::size_t k = 0; k < p.pairs; ++k) {
    planned[2 * k] = p.lengths.n[k];
    planned[2 * k + 1] = p.lengths.m[k];
  }
  DPX_RETURN_IF_ERROR(upload(&p.planned, planned, stream));
  const std::vector<std::int32_t> t32 = align::single_table(matrix);
  p.table32_bytes = static_cast<int>(t32.size() * sizeof(std::int32_t));
  DPX_RETURN_IF_ERROR(upload(&p.table32, t32, stream));
  if (align::scorer_for(pairing, matrix) == align::ScorerKind::kPaired) {
    const std::vector<std::uint32_t> t = align::paired_table(matrix);
    p.table16_bytes = static_cast<int>(t.size() * sizeof(std::uint32_t));
    DPX_RETURN_IF_ERROR(upload(&p.table16, t, stream));
  } else {
    const std::vector<std::int16_t> t = align::two_lookup_table(matrix);
    p.table16_bytes = static_cast<int>(t.size() * sizeof(std::int16_t));
    DPX_RETURN_IF_ERROR(upload(&p.table16, t, stream));
  }
  if (!options.traceback) DPX_RETURN_IF_ERROR(p.overflow_count.allocate(sizeof(std::int32_t)));
  DPX_RETURN_IF_ERROR(plan_queries(p, stream));
  // The host vectors above are temporaries: make sure the copies from them are done.
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  return Status::ok();
}

}  // namespace

namespace align {

Status create_plan(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                   const ScoreMatrix& matrix, const AlignOptions& options, cudaStream_t stream, AlignPlan::Impl** plan) {
  *plan = nullptr;
  auto* fresh = new AlignPlan::Impl;
  const Status built = build_plan(*fresh, queries, targets, pairing, matrix, options, stream);
  if (!built.is_ok()) {
    cudaStreamSynchronize(stream);  // no copy may still read what is freed here
    delete fresh;
    return built;
  }
  *plan = fresh;
  return Status::ok();
}

Status set_plan_query(std::int32_t length, cudaStream_t stream, AlignPlan::Impl** plan) {
  AlignPlan::Impl& p = **plan;
  std::fill(p.lengths.n.begin(), p.lengths.n.end(), length);
  const Status planned = [&]() -> Status {
    if (keeps_layout(p, length)) return requery_layout(p, length);
    p.query_length = length;
    DPX_RETURN_IF_ERROR(plan_queries(p, stream));
    DPX_CUDA_TRY(cudaStreamSynchronize(stream));
    return Status::ok();
  }();
  if (!planned.is_ok()) {
    cudaStreamSynchronize(stream);
    delete *plan;  // part of the query side may be stale: the plan is empty, as after a failed create
    *plan = nullptr;
  }
  return planned;
}

Status launch_plan(const AlignPlan::Impl& plan, const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets,
                   DeviceAlignResults* out, cudaStream_t stream) {
  ResultArrays arrays;
  DPX_RETURN_IF_ERROR(prepare_results(plan, out, &arrays));
  return run_plan<ops::Dpx>(plan, make_device_view(queries, targets, plan.pairing), arrays, stream);
}

namespace {
// The result fields of every pair, copied into `host` on `stream` (not waited for).
Status copy_fields(const std::int32_t* fields, HostAlignResults* host, cudaStream_t stream) {
  host->fields.resize(host->count * 5);
  if (host->count > 0) {
    DPX_CUDA_TRY(cudaMemcpyAsync(host->fields.data(), fields, host->fields.size() * sizeof(std::int32_t),
                                 cudaMemcpyDeviceToHost, stream));
  }
  return Status::ok();
}
}  // namespace

Status download_scores(const std::int32_t* fields, std::size_t count, std::vector<std::int32_t>* out,
                       cudaStream_t stream) {
  HostAlignResults host;
  host.count = count;
  DPX_RETURN_IF_ERROR(copy_fields(fields, &host, stream));
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  return assemble_scores(host, out);
}

Status download_results(const ResultArrays& arrays, HostAlignResults host, std::vector<AlignResult>* out,
                        cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(copy_fields(arrays.fields, &host, stream));
  if (host.traceback && host.count > 0) {
    host.op_counts.resize(host.count);
    host.ops.resize(host.op_offsets.back());
    DPX_CUDA_TRY(cudaMemcpyAsync(host.op_counts.data(), arrays.op_counts,
                                 host.op_counts.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost,
                                 stream));
    if (!host.ops.empty())
      DPX_CUDA_TRY(
          cudaMemcpyAsync(host.ops.data(), arrays.ops, host.ops.size(), cudaMemcpyDeviceToHost, stream));
  }
  DPX_CUDA_TRY(cudaStreamSynchronize(stream));
  return assemble_results(host, out);
}

namespace {
// The result arrays of a run of `p` from one lease: the fields, then the counts, then the operations.
Status lease_results(const AlignPlan::Impl& p, runtime::ScratchLease* lease, ResultArrays* arrays) {
  const std::size_t words = p.pairs * 5 + (p.options.traceback ? p.pairs + (p.ops_total + 3) / 4 : 0);
  std::int32_t* base = nullptr;
  DPX_RETURN_IF_ERROR(lease->acquire_array(std::max<std::size_t>(words, 1), &base));
  arrays->fields = base;
  if (p.options.traceback) {
    arrays->op_counts = base + p.pairs * 5;
    arrays->ops = reinterpret_cast<char*>(arrays->op_counts + p.pairs);
  }
  return Status::ok();
}
}  // namespace

Status align_cuda_launch(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const ScoreMatrix& matrix, const AlignOptions& options, std::vector<AlignResult>* out,
                         cudaStream_t stream) {
  if (cuda_device_count() == 0) return Status(StatusCode::kNoDevice, "align_cuda: no usable CUDA device");
  AlignPlan plan;
  DPX_RETURN_IF_ERROR(plan.create(queries, targets, pairing, matrix, options, stream));
  const AlignPlan::Impl& p = *AlignPlanAccess::impl(plan);
  const Status run = [&]() -> Status {
    PairUpload<char> upload(stream);
    DPX_RETURN_IF_ERROR(upload.upload(queries, targets, pairing));
    runtime::ScratchLease lease(nullptr, stream);
    ResultArrays arrays;
    DPX_RETURN_IF_ERROR(lease_results(p, &lease, &arrays));
    DPX_RETURN_IF_ERROR(run_plan<ops::Dpx>(p, upload.view(), arrays, stream));
    return download_results(
        arrays, host_results(p.pairs, p.options.traceback, p.ops_offset.host, p.trivial_cigars), out, stream);
  }();
  if (!run.is_ok()) cudaStreamSynchronize(stream);  // nothing may still use the plan about to be freed
  return run;
}

}  // namespace align
}  // namespace dpx
