// AlignPlan's state (filled in by the CUDA build), and DeviceAlignResultsAccess, through which
// the code that runs a plan (sw_run.cuh) reaches into DeviceAlignResults.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dpx/align.h"
#include "sw_plan.h"

namespace dpx {

struct DeviceAlignResultsAccess {
  static DeviceBuffer& fields(DeviceAlignResults& r) { return r.fields_; }
  static DeviceBuffer& ops(DeviceAlignResults& r) { return r.ops_; }
  static DeviceBuffer& op_counts(DeviceAlignResults& r) { return r.op_counts_; }
  static std::vector<std::uint64_t>& op_offsets(DeviceAlignResults& r) { return r.op_offsets_; }
  static std::vector<std::pair<std::int32_t, std::string>>& fixed_cigars(DeviceAlignResults& r) { return r.fixed_cigars_; }
  static std::size_t& count(DeviceAlignResults& r) { return r.count_; }
  static bool& traceback(DeviceAlignResults& r) { return r.traceback_; }
};

struct AlignPlanAccess {
  static const AlignPlan::Impl* impl(const AlignPlan& plan) { return plan.impl_; }
};

// A device buffer and the host copy of what it holds: a new upload is skipped when the content is
// the same, the buffer only grows, and the host copy stays alive for the asynchronous copy.
template <class T>
struct Mirrored {
  DeviceBuffer device;
  std::vector<T> host;
};

struct AlignPlan::Impl {
  // what the plan was made for
  std::size_t queries = 0, targets = 0, pairs = 0;
  Pairing pairing = Pairing::kPairwise;
  AlignOptions options;
  ScoreMatrix matrix;
  int wildcard = 0;
  int table_side = 0;  // D: alphabet + the padding letter
  std::uint64_t cells = 0;
  align::PairLengths lengths;
  std::vector<std::int32_t> target_order;  // one-to-many: targets by descending length, sorted once
  std::int32_t query_length = 0;           // one-to-many: what the kernels check the query against
  align::ScorePlan score;
  align::TracebackPlan traceback;

  // device copies; the target side (code, planned, tables) goes up once in create()
  DeviceBuffer code;                // 256 letter -> index
  DeviceBuffer planned;             // per pair: n, m (what the kernels check the batches against)
  DeviceBuffer table16, table32;    // scorer tables (sw_strip.h), padded to 16 bytes
  int table16_bytes = 0, table32_bytes = 0;
  // the query side, redone by set_query() for one-to-many plans
  Mirrored<align::Slot> slots16, slots32;
  DeviceBuffer overflow, overflow_count;
  Mirrored<std::int32_t> trivial_pairs, trivial_fields;
  std::int32_t trivial_count = 0;
  std::vector<std::pair<std::int32_t, std::string>> trivial_cigars;
  DeviceBuffer query_rows;          // scan plans: the table row of each query row (sw_scan.h)
  DeviceBuffer boundary;            // per-group column stores of pairs that take several passes
  std::uint64_t boundary_bytes = 0;
  // The strip shapes of a batch run side by side on these, so one launch's last blocks overlap the
  // next launch instead of leaving SMs idle; score launches that use the boundary store share
  // side[0] (a traceback slot's column stores follow its direction words).
  std::vector<Stream> side;
  Mirrored<align::Slot> tb_slots;
  Mirrored<std::uint8_t> tb_config;
  Mirrored<std::uint64_t> tb_offset, ops_offset;
  DeviceBuffer tb_dirs;
  DeviceBuffer claims;  // per launch of a scan or of a traceback chunk: its claim counter
  Mirrored<align::PassItem> tb_items;
  DeviceBuffer tb_sync;    // per pass item: align::PassSync
  std::uint64_t ops_total = 0;
};

}  // namespace dpx
