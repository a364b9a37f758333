#include "sw_simulator.h"

#include <array>
#include <algorithm>
#include <limits>
#include <utility>

#include "align/sw/sw_common.h"
#include "align/common/cigar.h"
#include "align/sw/sw_group.h"
#include "align/sw/sw_plan.h"
#include "align/sw/sw_scan.h"
#include "align/sw/sw_scan_profile.h"
#include "align/sw/sw_tables.h"
#include "align/sw/sw_walk.h"
#include "align/sw/sw_walk_window.h"

namespace dpx {
namespace test {
namespace {

using namespace dpx::align;
using Ops = ops::Dpx;  // on the host: the portable definitions

struct Context {
  const SequenceBatch& queries;
  const SequenceBatch& targets;
  Pairing pairing;
  const ScoreMatrix& matrix;
  AlignOptions options;
  std::vector<std::int32_t> fields;  // 5 per pair
  std::vector<Slot> overflow;
  SimulationStats stats;
  SimScan scan = SimScan::kPairedTable;
};

LaneJob job_for(const Context& ctx, std::int32_t pair) {
  LaneJob j;
  j.query = j.target = "";
  if (pair < 0) return j;
  const std::size_t qi = ctx.pairing == Pairing::kOneToMany ? 0 : static_cast<std::size_t>(pair);
  j.query = ctx.queries.item(qi);
  j.target = ctx.targets.item(static_cast<std::size_t>(pair));
  j.n = static_cast<std::int32_t>(ctx.queries.length(qi));
  j.m = static_cast<std::int32_t>(ctx.targets.length(static_cast<std::size_t>(pair)));
  j.pair = pair;
  return j;
}

template <class Scorer>
Scorer scorer_for_lane(const void* table, int d, int lane);
template <>
PairedScorer scorer_for_lane<PairedScorer>(const void* table, int d, int) {
  return PairedScorer{static_cast<const std::uint32_t*>(table), d};
}
template <>
TwoLookupScorer scorer_for_lane<TwoLookupScorer>(const void* table, int d, int lane) {
  return TwoLookupScorer{static_cast<const std::int16_t*>(table) + lane % TwoLookupScorer::kCopies, d};
}
template <>
SingleScorer scorer_for_lane<SingleScorer>(const void* table, int d, int) {
  return SingleScorer{static_cast<const std::int32_t*>(table), d};
}

// The 32 simulated threads of a warp on the batch of slots from `first`, set up as load_jobs and
// begin_slot set them up on the device.
template <class GT, class Scorer>
struct SimWarp {
  std::vector<GT> th = std::vector<GT>(32);
  std::vector<Scorer> sc;
  int most_rows = 0, most_passes = 0;
};

template <class GT, class Scorer>
SimWarp<GT, Scorer> start_warp(Context& ctx, const std::vector<Slot>& slots, std::int32_t first, const void* table,
                               const Edges<typename GT::L>& edges, std::uint32_t* dirs,
                               const std::vector<std::uint64_t>* dir_offset) {
  constexpr int G = GT::kGroup;
  const int d = ctx.matrix.size() + 1;
  const std::int32_t count = static_cast<std::int32_t>(slots.size());
  SimWarp<GT, Scorer> w;
  for (int lane = 0; lane < 32; ++lane) {
    const std::int32_t index = first + lane / G;
    const Slot slot = index < count ? slots[index] : Slot{-1, -1};
    LaneJob jobs[GT::kLanes];
    for (int k = 0; k < GT::kLanes; ++k) jobs[k] = job_for(ctx, k == 0 ? slot.a : slot.b);
    w.sc.push_back(scorer_for_lane<Scorer>(table, d, lane));
    GT& g = w.th[lane];
    g.code = ctx.matrix.code_table();
    g.pad = d - 1;
    g.begin_slot(lane % G, jobs, edges);
    if (GT::kDirections && jobs[0].pair >= 0) g.dirs = dirs + (*dir_offset)[jobs[0].pair];
    w.most_rows = std::max(w.most_rows, g.rows);
    w.most_passes = std::max(w.most_passes, g.passes);
  }
  return w;
}

// Pass p of the warp's groups, as sweep_pass runs it.
template <class GT, class Scorer>
void sweep(SimWarp<GT, Scorer>& w, int p, const Edges<typename GT::L>& edges) {
  constexpr int G = GT::kGroup;
  for (int lane = 0; lane < 32; ++lane) w.th[lane].begin_pass(p, w.sc[lane], edges);
  for (int s = 0; s < GT::steps(w.most_rows); ++s) {
    // what the shuffles read: every lane's outputs of the last step
    typename GT::V h[32], e[32];
    std::uint32_t letters[32];
    for (int lane = 0; lane < 32; ++lane) {
      h[lane] = w.th[lane].h_out;
      e[lane] = w.th[lane].e_out;
      letters[lane] = w.th[lane].letters_out;
    }
    for (int lane = 0; lane < 32; ++lane) {
      const int t = lane % G;
      const int left = t == 0 ? lane : lane - 1;  // shfl_up leaves a group's first lane its own value
      const typename GT::Feed fed = w.th[lane - t].feed(s + 1, edges);
      w.th[lane].step(s, h[left], e[left], letters[left], fed, w.sc[lane], edges);
    }
  }
}

// Lane k's best over the threads of `group`, as group_best reduces it.
template <class GT, class Scorer>
Candidate group_result(const SimWarp<GT, Scorer>& w, int group, int k) {
  Candidate c = w.th[group * GT::kGroup].result(k);
  for (int t = 1; t < GT::kGroup; ++t)
    if (better(w.th[group * GT::kGroup + t].result(k), c)) c = w.th[group * GT::kGroup + t].result(k);
  return c;
}

// As write_lane: the fields, or a packed local lane above the limit to the 32-bit reruns.
template <class GT>
void write_result(Context& ctx, std::int32_t pair, const Candidate& c, std::int32_t overflow_limit) {
  if (pair < 0) return;
  if (GT::kLanes == 2 && GT::kLocalMode && c.score > overflow_limit) {
    ctx.overflow.push_back(Slot{pair, -1});
    return;
  }
  result_fields(ctx.options.mode, ctx.options.score_only, c.score, c.i, c.j, &ctx.fields[static_cast<std::size_t>(pair) * 5]);
}

// One score launch over `slots`, warp by warp, as run_slots does it.
template <class L, class Scorer, bool kLocal, int G, int R>
void simulate_slots(Context& ctx, const std::vector<Slot>& slots, const void* table, std::int32_t overflow_limit) {
  using GT = GroupThread<Ops, L, Scorer, kLocal, false, G, R>;
  constexpr int kGroupsPerWarp = 32 / G;
  const Edges<L> edges(ctx.options.mode, ctx.options.gap_open, ctx.options.gap_extend);
  for (std::int32_t first = 0; first < static_cast<std::int32_t>(slots.size()); first += kGroupsPerWarp) {
    SimWarp<GT, Scorer> w = start_warp<GT, Scorer>(ctx, slots, first, table, edges, nullptr, nullptr);
    for (int lane = 0; lane < 32; lane += G) {
      ctx.stats.two_pair_slots += GT::kLanes == 2 && w.th[lane].jobs[1].pair >= 0;
      ctx.stats.multipass_slots += w.th[lane].passes > 1;
    }
    std::vector<std::vector<typename GT::Boundary>> boundary(kGroupsPerWarp);
    for (int group = 0; group < kGroupsPerWarp; ++group) {
      boundary[group].assign(static_cast<std::size_t>(std::max(w.most_rows, 1)), typename GT::Boundary{});
      for (int t = 0; t < G; ++t) w.th[group * G + t].boundary_in = w.th[group * G + t].boundary_out = boundary[group].data();
    }
    for (int p = 0; p < w.most_passes; ++p) sweep(w, p, edges);
    for (int group = 0; group < kGroupsPerWarp; ++group)
      for (int k = 0; k < GT::kLanes; ++k) write_result<GT>(ctx, w.th[group * G].jobs[k].pair, group_result(w, group, k), overflow_limit);
  }
}

// One traceback launch over `items` of `slots`, item by item in claim order, as run_pass_items
// does it: each pass by a warp of its own, reading the column store the previous pass left in the
// direction words, the passes' results merged at the last one.
template <class L, class Scorer, bool kLocal, int G, int R>
void simulate_pass_items(Context& ctx, const std::vector<Slot>& slots, const std::vector<PassItem>& items,
                         const void* table, std::uint32_t* dirs, const std::vector<std::uint64_t>& dir_offset) {
  using GT = GroupThread<Ops, L, Scorer, kLocal, true, G, R>;
  constexpr int kGroupsPerWarp = 32 / G;
  const Edges<L> edges(ctx.options.mode, ctx.options.gap_open, ctx.options.gap_extend);
  std::vector<std::array<Candidate, GT::kLanes>> found(items.size());  // PassSync::found
  for (std::size_t x = 0; x < items.size(); ++x) {
    const int p = items[x].pass;
    SimWarp<GT, Scorer> w = start_warp<GT, Scorer>(ctx, slots, items[x].first_slot, table, edges, dirs, &dir_offset);
    if (p > 0 && p >= w.most_passes) continue;
    const bool last = p + 1 >= w.most_passes;
    if (p == 0) {
      for (int lane = 0; lane < 32; lane += G) {
        ctx.stats.two_pair_slots += GT::kLanes == 2 && w.th[lane].jobs[1].pair >= 0;
        ctx.stats.multipass_slots += w.th[lane].passes > 1;
      }
    }
    for (GT& g : w.th) {
      if (p > 0) g.boundary_in = g.column_store(p - 1);
      if (!last) g.boundary_out = g.column_store(p);
    }
    sweep(w, p, edges);
    for (int group = 0; group < kGroupsPerWarp; ++group) {
      for (int k = 0; k < GT::kLanes; ++k) {
        Candidate c = group_result(w, group, k);
        if (!last) {
          found[x][k] = c;
          continue;
        }
        for (int q = 1; q <= p; ++q)
          if (better(found[x - q][k], c)) c = found[x - q][k];
        write_result<GT>(ctx, w.th[group * G].jobs[k].pair, c, std::numeric_limits<std::int32_t>::max());
      }
    }
  }
}

// Steps 0..steps-1 of a warp's scan threads, as scan_pass_steps runs them: the shuffles are copies.
template <int G, class T>
void scan_pass_steps(std::vector<T>& th, std::int32_t steps, const GapCosts<typename T::L>& g) {
  for (std::int32_t s = 0; s < steps; ++s) {
    typename T::V h[32], e[32];  // what the shuffles read: every lane's outputs of the last step
    for (int lane = 0; lane < 32; ++lane) {
      h[lane] = th[lane].h_out;
      e[lane] = th[lane].e_out;
    }
    for (int lane = 0; lane < 32; ++lane) {
      const int left = lane % G == 0 ? lane : lane - 1;
      th[lane].step(s, s % kScanAhead, h[left], e[left], g);
    }
  }
}

// The warp's slots from `first`: each group's two lane jobs, as load_jobs gives them.
template <int G>
void scan_jobs(Context& ctx, const std::vector<Slot>& slots, std::int32_t first, LaneJob (&jobs)[32 / G][2]) {
  const std::int32_t count = static_cast<std::int32_t>(slots.size());
  for (int group = 0; group < 32 / G; ++group) {
    const Slot slot = first + group < count ? slots[first + group] : Slot{-1, -1};
    jobs[group][0] = job_for(ctx, slot.a);
    jobs[group][1] = job_for(ctx, slot.b);
    ctx.stats.two_pair_slots += slot.b >= 0;
  }
}

// Each group's largest H per lane as its pairs' scores, or the lane sent to the 32-bit rerun, as
// finish_scan_slot does it.
template <int G, class T>
void finish_scan_slots(Context& ctx, const std::vector<T>& th, const LaneJob (&jobs)[32 / G][2],
                       std::int32_t overflow_limit) {
  using L = typename T::L;
  for (int group = 0; group < 32 / G; ++group) {
    typename T::V best = th[group * G].best;
    for (int t = 1; t < G; ++t) best = L::max(best, th[group * G + t].best);
    for (int k = 0; k < 2; ++k) {
      const std::int32_t pair = jobs[group][k].pair;
      if (pair < 0) continue;
      const std::int32_t score = L::lane(best, k);
      if (score > overflow_limit) {
        ctx.overflow.push_back(Slot{pair, -1});
        continue;
      }
      result_fields(ctx.options.mode, ctx.options.score_only, score, 0, 0, &ctx.fields[static_cast<std::size_t>(pair) * 5]);
    }
  }
}

// Column stores of a warp's groups; entries nobody wrote hold a large score, so reading one would show.
std::vector<std::vector<ScanEdge>> poisoned_stores(int groups, std::int32_t rows) {
  const ScanEdge poison{ops::lanes::pack(30000, 30000), ops::lanes::pack(30000, 30000)};
  return std::vector<std::vector<ScanEdge>>(groups, std::vector<ScanEdge>(static_cast<std::size_t>(scan_row_entries(rows)), poison));
}

// One scan launch over `slots` (one query against many targets), warp by warp, as scan_slots does
// it.
template <int G, int R, bool kPasses>
void simulate_scan_slots(Context& ctx, const std::vector<Slot>& slots, const std::uint32_t* table,
                         std::int32_t overflow_limit) {
  using T = ScanThread<Ops, G, R, kPasses>;
  using L = typename T::L;
  constexpr int kGroupsPerWarp = 32 / G;
  const int d = ctx.matrix.size() + 1;
  const GapCosts<L> g(ctx.options.gap_open, ctx.options.gap_extend);
  const std::int32_t n = static_cast<std::int32_t>(ctx.queries.length(0));
  std::vector<std::uint32_t> rows(static_cast<std::size_t>(scan_row_entries(n)));
  for (std::size_t x = 0; x < rows.size(); ++x) {
    rows[x] = scan_query_row(static_cast<std::int32_t>(x), n, d,
                             [&](std::int32_t i) { return ctx.matrix.encode(ctx.queries.item(0)[i - 1]); });
  }
  const std::int32_t count = static_cast<std::int32_t>(slots.size());
  for (std::int32_t first = 0; first < count; first += kGroupsPerWarp) {
    std::vector<std::vector<ScanEdge>> edges = poisoned_stores(kGroupsPerWarp, n);
    std::vector<T> th(32);
    LaneJob jobs[kGroupsPerWarp][2];
    scan_jobs<G>(ctx, slots, first, jobs);
    int passes = 0;
    for (int group = 0; group < kGroupsPerWarp; ++group) {
      const std::int32_t cols = std::max(jobs[group][0].m, jobs[group][1].m);
      passes = std::max(passes, (cols + T::kWidth - 1) / T::kWidth);
      ctx.stats.multipass_slots += cols > T::kWidth;
    }
    for (int lane = 0; lane < 32; ++lane) {
      T& th_ = th[lane];
      th_.t = lane % G;
      th_.n = n;
      th_.table = table;
      th_.rows = rows.data();
      th_.edges = edges[lane / G].data();
      th_.begin_slot();
    }
    for (int p = 0; p < passes; ++p) {
      for (int lane = 0; lane < 32; ++lane) {
        const LaneJob* j = jobs[lane / G];
        std::uint8_t la[R], lb[R];
        for (int c = 0; c < R; ++c) {
          const std::int32_t col = p * T::kWidth + (lane % G) * R + c;
          la[c] = static_cast<std::uint8_t>(letter_at(j[0].target, j[0].m, col, ctx.matrix.code_table(), d - 1));
          lb[c] = static_cast<std::uint8_t>(letter_at(j[1].target, j[1].m, col, ctx.matrix.code_table(), d - 1));
        }
        th[lane].begin_pass(p, p + 1 == passes, la, lb, d, g);
      }
      scan_pass_steps<G>(th, scan_steps(n, G), g);
    }
    finish_scan_slots<G>(ctx, th, jobs, overflow_limit);
  }
}

// The query profile of shape kProfileConfigs[config], as query_profile_kernel fills it.
std::vector<std::int8_t> query_profile(const Context& ctx, int config) {
  const int d = ctx.matrix.size() + 1;
  const StripConfig shape = kProfileConfigs[config];
  const std::int32_t n = static_cast<std::int32_t>(ctx.queries.length(0));
  std::vector<std::int8_t> profile(static_cast<std::size_t>(d) * profile_row_bytes(n, shape.width()));
  for (std::size_t at = 0; at < profile.size(); ++at) {
    profile[at] = profile_byte(
        static_cast<std::int32_t>(at), n, shape.group, shape.columns, d,
        [&](std::int32_t c) { return ctx.matrix.encode(ctx.queries.item(0)[c]); },
        [&](int q, int x) { return ctx.matrix.score(q, x); });
  }
  return profile;
}

// One launch of the profile scan over `slots`, warp by warp, as sw_scan_profile_kernel does it.
template <int G, int R, bool kPasses>
void simulate_profile_slots(Context& ctx, const std::vector<Slot>& slots, const std::vector<std::int8_t>& profile,
                            std::int32_t row_bytes, std::int32_t overflow_limit) {
  using T = ProfileScanThread<Ops, G, R, kPasses>;
  using L = typename T::L;
  constexpr int kGroupsPerWarp = 32 / G;
  const int d = ctx.matrix.size() + 1;
  const GapCosts<L> g(ctx.options.gap_open, ctx.options.gap_extend);
  const int passes = row_bytes / T::kWidth;
  const std::int32_t count = static_cast<std::int32_t>(slots.size());
  for (std::int32_t first = 0; first < count; first += kGroupsPerWarp) {
    LaneJob jobs[kGroupsPerWarp][2];
    scan_jobs<G>(ctx, slots, first, jobs);
    std::int32_t rows = 0;
    for (int group = 0; group < kGroupsPerWarp; ++group) rows = std::max({rows, jobs[group][0].m, jobs[group][1].m});
    for (int group = 0; group < kGroupsPerWarp; ++group) ctx.stats.multipass_slots += passes > 1 && jobs[group][0].pair >= 0;
    std::vector<std::vector<ScanEdge>> edges = poisoned_stores(kGroupsPerWarp, rows);
    std::vector<T> th(32);
    for (int lane = 0; lane < 32; ++lane) {
      T& th_ = th[lane];
      th_.t = lane % G;
      th_.n = rows;
      th_.profile = reinterpret_cast<const unsigned char*>(profile.data());
      th_.row_bytes = row_bytes;
      th_.code = ctx.matrix.code_table();
      th_.pad = d - 1;
      th_.edges = edges[lane / G].data();
      for (int k = 0; k < 2; ++k) {
        th_.target[k] = jobs[lane / G][k].target;
        th_.m[k] = jobs[lane / G][k].m;
      }
      th_.begin_slot();
    }
    for (int p = 0; p < passes; ++p) {
      for (int lane = 0; lane < 32; ++lane) th[lane].begin_pass(p, p + 1 == passes, g);
      scan_pass_steps<G>(th, scan_steps(rows, G), g);
    }
    finish_scan_slots<G>(ctx, th, jobs, overflow_limit);
  }
}

template <int... C>
void simulate_profile(Context& ctx, int config, const std::vector<Slot>& slots, const std::vector<std::int8_t>& profile,
                      std::int32_t limit, std::integer_sequence<int, C...>) {
  const std::int32_t row_bytes = profile_row_bytes(static_cast<std::int32_t>(ctx.queries.length(0)), kProfileConfigs[config].width());
  const bool passes = row_bytes > kProfileConfigs[config].width();
  ((config == C ? (passes ? simulate_profile_slots<kProfileConfigs[C].group, kProfileConfigs[C].columns, true>(
                                ctx, slots, profile, row_bytes, limit)
                          : simulate_profile_slots<kProfileConfigs[C].group, kProfileConfigs[C].columns, false>(
                                ctx, slots, profile, row_bytes, limit))
                : void()),
   ...);
}

template <int... C>
void simulate_scan(Context& ctx, int config, const std::vector<Slot>& slots, const std::uint32_t* table,
                   std::int32_t limit, std::integer_sequence<int, C...>) {
  ((config == C ? simulate_scan_slots<kScanConfigs[C].group, kScanConfigs[C].columns, (C >= kScanSinglePassCount)>(
                      ctx, slots, table, limit)
                : void()),
   ...);
}

template <class Scorer, bool kLocal, int... C>
void simulate_score16(Context& ctx, int config, const std::vector<Slot>& slots, const void* table, std::int32_t limit,
                      std::integer_sequence<int, C...>) {
  ((config == C ? simulate_slots<Lanes16<Ops>, Scorer, kLocal, kScore16Configs[C].group, kScore16Configs[C].columns>(
                      ctx, slots, table, limit)
                : void()),
   ...);
}

template <bool kLocal>
void simulate_scores(Context& ctx, const PairLengths& len) {
  const ScorePlan plan = plan_scores(len, ctx.pairing, ctx.matrix, ctx.options);
  const std::vector<std::uint32_t> paired = paired_table(ctx.matrix);
  const std::vector<std::int16_t> two = two_lookup_table(ctx.matrix);
  const std::vector<std::int32_t> single = single_table(ctx.matrix);
  const std::int32_t n = plan.scan ? static_cast<std::int32_t>(ctx.queries.length(0)) : 0;
  const bool profile = plan.scan && ctx.scan == SimScan::kQueryProfile && profile_scan_fits(ctx.matrix.size() + 1, n);
  const std::vector<std::int8_t> profile_bytes = profile ? query_profile(ctx, profile_config(n)) : std::vector<std::int8_t>();
  for (const SlotRange& r : plan.ranges16) {
    const std::vector<Slot> slots(plan.slots16.begin() + r.first, plan.slots16.begin() + r.first + r.count);
    if (profile) {
      ++ctx.stats.scan_launches;
      ++ctx.stats.profile_launches;
      simulate_profile(ctx, profile_config(n), slots, profile_bytes, plan.overflow_limit,
                       std::make_integer_sequence<int, kProfileConfigCount>());
    } else if (plan.scan) {
      ++ctx.stats.scan_launches;
      simulate_scan(ctx, r.config, slots, paired.data(), plan.overflow_limit,
                    std::make_integer_sequence<int, kScanConfigCount>());
    } else if (plan.scorer == ScorerKind::kPaired) {
      simulate_score16<PairedScorer, kLocal>(ctx, r.config, slots, paired.data(), plan.overflow_limit,
                                             std::make_integer_sequence<int, kScore16ConfigCount>());
    } else {
      simulate_score16<TwoLookupScorer, kLocal>(ctx, r.config, slots, two.data(), plan.overflow_limit,
                                                std::make_integer_sequence<int, kScore16ConfigCount>());
    }
  }
  ctx.stats.wide_pairs += plan.range32.count;
  simulate_slots<Lanes32<Ops>, SingleScorer, kLocal, kScore32Config.group, kScore32Config.columns>(
      ctx, plan.slots32, single.data(), 0);
  ctx.stats.reruns += static_cast<int>(ctx.overflow.size());
  const std::vector<Slot> reruns = ctx.overflow;
  simulate_slots<Lanes32<Ops>, SingleScorer, kLocal, kScore32Config.group, kScore32Config.columns>(
      ctx, reruns, single.data(), 0);
}

// A pair's letters as matrix indices.
struct HostLetters {
  const std::uint8_t *q, *t;
  int query(std::int32_t x) const { return q[x]; }
  int target(std::int32_t x) const { return t[x]; }
};

// What walk_back reads on the device, through the same window, from the simulated direction words
// of lane `lane` of a slot.
template <int C>
struct HostWalk {
  WindowedDirections<kTracebackConfigs[C].group, kTracebackConfigs[C].columns, traceback_packed(C), HostLetters> dirs;
  std::string* ops;  // last to first
  std::uint32_t code(std::int32_t i, std::int32_t j) { return dirs.code(i, j); }
  bool same(std::int32_t i, std::int32_t j) const { return dirs.same(i, j); }
  std::int32_t score(std::int32_t i, std::int32_t j) const { return dirs.score(i, j); }
  void emit(char op, std::int32_t count) { ops->append(static_cast<std::size_t>(count), op); }
};

template <int C>
std::string walk_lane(Context& ctx, const Slot& slot, int lane, const std::uint32_t* dirs, const std::int32_t* scores) {
  const std::int32_t pair = lane == 0 ? slot.a : slot.b, partner = lane == 0 ? slot.b : slot.a;
  const LaneJob j = job_for(ctx, pair);
  std::vector<std::uint8_t> q(j.n), t(j.m);
  for (std::int32_t x = 0; x < j.n; ++x) q[x] = ctx.matrix.encode(j.query[x]);
  for (std::int32_t x = 0; x < j.m; ++x) t[x] = ctx.matrix.encode(j.target[x]);
  std::int32_t* f = &ctx.fields[static_cast<std::size_t>(pair) * 5];
  std::string ops;
  WalkWindowCells window;
  HostWalk<C> w{{&window, dirs, std::max(j.n, job_for(ctx, partner).n), lane, HostLetters{q.data(), t.data()},
                 ctx.matrix.wildcard(), scores, ctx.matrix.size() + 1},
                &ops};
  if (!(ctx.options.mode == AlignMode::kLocal && f[0] == 0))
    walk_back(ctx.options.mode, ctx.options.gap_open, ctx.options.gap_extend, f[0], f[2], f[4], w, &f[1], &f[3]);
  return cigar_from_reversed_ops(ops.data(), ops.size());
}

template <int... C>
std::string walk_shape(Context& ctx, int config, const Slot& slot, int lane, const std::uint32_t* dirs,
                       const std::int32_t* scores, std::integer_sequence<int, C...>) {
  std::string cigar;
  ((config == C ? (void)(cigar = walk_lane<C>(ctx, slot, lane, dirs, scores)) : void()), ...);
  return cigar;
}

// The scorer tables of every traceback shape, built once per simulated call.
struct TracebackTables {
  std::vector<std::int32_t> single;
  std::vector<std::uint32_t> paired;
  std::vector<std::int16_t> two;
};

// The direction launch of range `x` of a chunk, traceback shape C.
template <bool kLocal, int C>
void simulate_directions(Context& ctx, const TracebackPlan& plan, const TracebackChunk& chunk, std::size_t x,
                         const TracebackTables& tables, std::uint32_t* dirs) {
  constexpr StripConfig c = kTracebackConfigs[C];
  const TracebackRange& r = chunk.ranges[x];
  const std::vector<Slot> slots(plan.slots.begin() + r.first, plan.slots.begin() + r.first + r.count);
  const std::vector<PassItem> items(plan.items.begin() + r.first_item, plan.items.begin() + r.first_item + r.item_count);
  if constexpr (!traceback_packed(C)) {
    ctx.stats.wide_pairs += static_cast<int>(slots.size());
    simulate_pass_items<Lanes32<Ops>, SingleScorer, kLocal, c.group, c.columns>(ctx, slots, items, tables.single.data(),
                                                                                dirs, plan.word_offset);
  } else if (plan.scorer == ScorerKind::kPaired) {
    simulate_pass_items<Lanes16<Ops>, PairedScorer, kLocal, c.group, c.columns>(ctx, slots, items, tables.paired.data(),
                                                                                dirs, plan.word_offset);
  } else {
    simulate_pass_items<Lanes16<Ops>, TwoLookupScorer, kLocal, c.group, c.columns>(ctx, slots, items, tables.two.data(),
                                                                                   dirs, plan.word_offset);
  }
}

template <bool kLocal, int... C>
void simulate_directions_shape(Context& ctx, const TracebackPlan& plan, const TracebackChunk& chunk, std::size_t x,
                               const TracebackTables& tables, std::uint32_t* dirs, std::integer_sequence<int, C...>) {
  ctx.stats.traceback_shapes |= 1u << chunk.ranges[x].config;
  ((chunk.ranges[x].config == C ? simulate_directions<kLocal, C>(ctx, plan, chunk, x, tables, dirs) : void()), ...);
}

// Per chunk every shape's directions, then the walk of every slot lane (run_plan_mode walks a
// shape's pairs after its own directions, beside the other shapes: a shape writing into another's
// words would show here).
template <bool kLocal>
void simulate_traceback(Context& ctx, const PairLengths& len, std::vector<std::string>* cigars) {
  const TracebackPlan plan = plan_traceback(len, ctx.pairing, ctx.matrix, ctx.options, traceback_budget_words(std::uint64_t(1) << 30));
  const TracebackTables tables{single_table(ctx.matrix), paired_table(ctx.matrix), two_lookup_table(ctx.matrix)};
  constexpr auto kShapes = std::make_integer_sequence<int, kTracebackConfigCount>();
  for (const TracebackChunk& chunk : plan.chunks) {
    ++ctx.stats.traceback_chunks;
    std::vector<std::uint32_t> dirs(chunk.words, 0xA5A5A5A5u);  // poisoned: unwritten words would show
    for (std::size_t x = 0; x < chunk.ranges.size(); ++x)
      simulate_directions_shape<kLocal>(ctx, plan, chunk, x, tables, dirs.data(), kShapes);
    for (std::int32_t x = chunk.first; x < chunk.first + chunk.count; ++x) {
      const Slot& s = plan.slots[x];
      for (int lane = 0; lane < 2; ++lane) {
        const std::int32_t pair = lane == 0 ? s.a : s.b;
        if (pair >= 0)
          (*cigars)[pair] = walk_shape(ctx, plan.config[pair], s, lane, dirs.data() + plan.word_offset[pair],
                                       tables.single.data(), kShapes);
      }
    }
  }
}

}  // namespace

Status simulate_gpu(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                    const ScoreMatrix& matrix, const AlignOptions& options, std::vector<AlignResult>* out,
                    SimulationStats* stats, SimScan scan) {
  DPX_RETURN_IF_ERROR(validate_align_call(queries, targets, pairing, matrix, options, "simulate_gpu"));
  const PairLengths len = pair_lengths(queries, targets, pairing);
  const std::size_t pairs = len.n.size();
  Context ctx{queries, targets, pairing, matrix, options, std::vector<std::int32_t>(pairs * 5, -12345), {}, {}, scan};
  std::vector<std::string> cigars(pairs);
  const bool local = options.mode == AlignMode::kLocal;
  if (!options.traceback) {
    if (local) simulate_scores<true>(ctx, len);
    else simulate_scores<false>(ctx, len);
  } else {
    if (local) simulate_traceback<true>(ctx, len, &cigars);
    else simulate_traceback<false>(ctx, len, &cigars);
  }
  out->assign(pairs, AlignResult{});
  for (std::size_t k = 0; k < pairs; ++k) {
    if (len.n[k] == 0 || len.m[k] == 0) {
      (*out)[k] = empty_side_result(len.n[k], len.m[k], options);
      continue;
    }
    const std::int32_t* f = &ctx.fields[k * 5];
    AlignResult& r = (*out)[k];
    r.score = f[0];
    r.query_begin = f[1];
    r.query_end = f[2];
    r.target_begin = f[3];
    r.target_end = f[4];
    r.cigar = cigars[k];
  }
  if (stats != nullptr) *stats = ctx.stats;
  return Status::ok();
}

}  // namespace test
}  // namespace dpx
