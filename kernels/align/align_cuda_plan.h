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

struct AlignPlan::Impl {
  // what the plan was made for
  std::size_t queries = 0, targets = 0, pairs = 0;
  Pairing pairing = Pairing::kPairwise;
  AlignOptions options;
  int wildcard = 0;
  int table_side = 0;  // D: alphabet + the padding letter
  std::uint64_t cells = 0;
  align::PairLengths lengths;
  align::ScorePlan score;
  align::TracebackPlan traceback;

  // device copies
  DeviceBuffer code;                // 256 letter -> index
  DeviceBuffer planned;             // per pair: n, m (what the kernels check the batches against)
  DeviceBuffer table16, table32;    // scorer tables (sw_strip.h), padded to 16 bytes
  int table16_bytes = 0, table32_bytes = 0;
  DeviceBuffer slots16, slots32;
  DeviceBuffer overflow, overflow_count;
  DeviceBuffer trivial_pairs, trivial_fields;
  std::int32_t trivial_count = 0;
  std::vector<std::pair<std::int32_t, std::string>> trivial_cigars;
  DeviceBuffer boundary;            // per-group column stores of pairs that take several passes
  std::uint64_t boundary_bytes = 0;
  // The strip shapes of a batch run side by side on these, so one launch's last blocks overlap the
  // next launch instead of leaving SMs idle; launches that use the boundary store share side[0].
  std::vector<Stream> side;
  DeviceBuffer tb_slots, tb_config, tb_offset, tb_dirs, ops_offset;
  std::vector<std::uint64_t> ops_offset_host;
  std::uint64_t ops_total = 0;
};

}  // namespace dpx
