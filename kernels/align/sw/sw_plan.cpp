#include "sw_plan.h"

#include <algorithm>
#include <tuple>

#include "sw_common.h"
#include "sw_group.h"

namespace dpx {
namespace align {
namespace {

std::int32_t passes_of(std::int32_t m, const StripConfig& c) { return (m + c.width() - 1) / c.width(); }

// Sorts a bucket so that neighbours (the two lanes of a slot, the groups of a warp) have similar
// work: most passes first, then the longest queries first (which also balances the persistent grid).
// A bucket filled in order_by_target_length's order of one-to-many pairs is already sorted so.
void sort_by_work(std::vector<std::int32_t>* pairs, const PairLengths& len, const StripConfig& c, bool presorted) {
  if (presorted) return;
  std::sort(pairs->begin(), pairs->end(), [&](std::int32_t x, std::int32_t y) {
    return std::make_tuple(-passes_of(len.m[x], c), -len.n[x], x) < std::make_tuple(-passes_of(len.m[y], c), -len.n[y], y);
  });
}

// `pairs` as slots, two per slot when `two`.
std::vector<Slot> pair_up(const std::vector<std::int32_t>& pairs, bool two) {
  std::vector<Slot> out;
  const std::size_t step = two ? 2 : 1;
  for (std::size_t x = 0; x < pairs.size(); x += step)
    out.push_back(Slot{pairs[x], two && x + 1 < pairs.size() ? pairs[x + 1] : -1});
  return out;
}

// Appends `units` to `slots` and returns their range.
SlotRange add_slots(const std::vector<Slot>& units, int config, const StripConfig& c, const PairLengths& len,
                    std::vector<Slot>* slots) {
  SlotRange r{config, static_cast<std::int32_t>(slots->size()), 0, 0, 0};
  for (const Slot& s : units) {
    slots->push_back(s);
    for (std::int32_t p : {s.a, s.b}) {
      if (p < 0) continue;
      r.max_rows = std::max(r.max_rows, len.n[p]);
      r.max_passes = std::max(r.max_passes, passes_of(len.m[p], c));
    }
  }
  r.count = static_cast<std::int32_t>(slots->size()) - r.first;
  return r;
}

// The pass items of range r: for each warp's batch of 32 / G slots, one item per pass of its
// widest slot. Passes come only with the 32-thread shapes (plan_traceback gives the narrower ones
// only targets they hold), so a batch that takes passes is one slot.
void add_pass_items(const SlotRange& r, const StripConfig& c, const PairLengths& len, const std::vector<Slot>& slots,
                    std::vector<PassItem>* items) {
  const int batch = 32 / c.group;
  for (std::int32_t x = r.first; x < r.first + r.count; x += batch) {
    std::int32_t passes = 1;
    for (std::int32_t y = x; y < std::min(x + batch, r.first + r.count); ++y)
      for (std::int32_t p : {slots[y].a, slots[y].b})
        if (p >= 0) passes = std::max(passes, passes_of(len.m[p], c));
    for (std::int32_t p = 0; p < passes; ++p) items->push_back(PassItem{x - r.first, p});
  }
}

}  // namespace

PairLengths pair_lengths(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing) {
  PairLengths len;
  const std::size_t pairs = pair_count(queries.size(), targets.size(), pairing);
  len.n.resize(pairs);
  len.m.resize(pairs);
  for (std::size_t k = 0; k < pairs; ++k) {
    len.n[k] = static_cast<std::int32_t>(queries.length(pairing == Pairing::kOneToMany ? 0 : k));
    len.m[k] = static_cast<std::int32_t>(targets.length(k));
  }
  return len;
}

bool fits_16_bits(std::int32_t n, std::int32_t m, const ScoreMatrix& matrix, const AlignOptions& o) {
  const std::int64_t top = std::max(matrix.max_score(), 0);
  if (std::int64_t(std::min(n, m)) * top > 32767 - top) return false;
  const std::int64_t gaps = gap_cost(n, o) + (o.mode == AlignMode::kGlobal ? gap_cost(m, o) : 0);
  // every H is at least -gaps; E, F, H - open and the substitutions stay within a few costs of it
  return -gaps - 2 * o.gap_open - 2 * o.gap_extend - 256 >= -32768;
}

ScorerKind scorer_for(Pairing pairing, const ScoreMatrix& matrix) {
  return pairing == Pairing::kOneToMany && matrix.size() + 1 <= kPairedMaxTableSide ? ScorerKind::kPaired
                                                                                    : ScorerKind::kTwoLookup;
}

std::vector<std::int32_t> order_by_target_length(const PairLengths& len) {
  std::vector<std::int32_t> order(len.m.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<std::int32_t>(k);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t x, std::int32_t y) { return len.m[x] > len.m[y]; });
  return order;
}

int scan_config(std::int32_t m) {
  for (int c = 0; c < kScanSinglePassCount; ++c)
    if (kScanConfigs[c].width() >= m) return c;
  int best = kScanSinglePassCount;
  for (int c = kScanSinglePassCount; c < kScanConfigCount; ++c)  // the least padding, the wider on a tie
    if (passes_of(m, kScanConfigs[c]) * kScanConfigs[c].width() <= passes_of(m, kScanConfigs[best]) * kScanConfigs[best].width())
      best = c;
  return best;
}

bool uses_scan(Pairing pairing, const ScoreMatrix& matrix, const AlignOptions& o) {
  return o.mode == AlignMode::kLocal && o.score_only && scorer_for(pairing, matrix) == ScorerKind::kPaired;
}

ScorePlan plan_scores(const PairLengths& len, Pairing pairing, const ScoreMatrix& matrix, const AlignOptions& o,
                      const std::vector<std::int32_t>* order) {
  ScorePlan plan;
  plan.scorer = scorer_for(pairing, matrix);
  plan.scan = uses_scan(pairing, matrix, o);
  plan.overflow_limit = 32767 - std::max(matrix.max_score(), 0);
  const bool local = o.mode == AlignMode::kLocal;
  const StripConfig* configs = plan.scan ? kScanConfigs : kScore16Configs;
  const int config_count = plan.scan ? kScanConfigCount : kScore16ConfigCount;
  std::vector<std::vector<std::int32_t>> buckets(static_cast<std::size_t>(config_count));
  std::vector<std::int32_t> wide;
  for (std::size_t x = 0; x < len.n.size(); ++x) {
    const std::int32_t k = order ? (*order)[x] : static_cast<std::int32_t>(x);
    const std::int32_t n = len.n[k], m = len.m[k];
    if (n == 0 || m == 0) {
      plan.trivial.push_back(k);
    } else if (local || fits_16_bits(n, m, matrix, o)) {
      int c = 0;
      if (plan.scan) {
        c = scan_config(m);
      } else {
        while (c + 1 < config_count && configs[c].width() < m) ++c;
      }
      buckets[c].push_back(k);
      if (local) {
        ++plan.local16_pairs;
        plan.max_rows_local16 = std::max(plan.max_rows_local16, n);
        plan.max_cols_local16 = std::max(plan.max_cols_local16, m);
      }
    } else {
      wide.push_back(k);
    }
  }
  for (int c = 0; c < config_count; ++c) {
    if (buckets[c].empty()) continue;
    sort_by_work(&buckets[c], len, configs[c], order != nullptr);
    plan.ranges16.push_back(add_slots(pair_up(buckets[c], true), c, configs[c], len, &plan.slots16));
  }
  sort_by_work(&wide, len, kScore32Config, order != nullptr);
  plan.range32 = add_slots(pair_up(wide, false), 0, kScore32Config, len, &plan.slots32);
  return plan;
}

std::uint64_t traceback_words(std::int32_t n, std::int32_t m, int config) {
  const StripConfig& c = kTracebackConfigs[config];
  const std::int32_t passes = passes_of(m, c);
  return slot_direction_words(n, passes, c.group, traceback_thread_words(traceback_packed(config))) +
         std::uint64_t(passes - 1) * std::uint64_t(n) * kColumnStoreEntryWords;
}

int packed_traceback_config(std::int32_t m) {
  int best = -1;
  for (int c = kTracebackPackedFirst; c < kTracebackConfigCount; ++c) {
    const StripConfig& s = kTracebackConfigs[c];
    if (s.group < 32) {
      if (s.width() >= m) return c;
      continue;
    }
    const auto work = [&](int x) { return passes_of(m, kTracebackConfigs[x]) * kTracebackConfigs[x].columns; };
    if (best < 0 || work(c) <= work(best)) best = c;
  }
  return best;
}

std::uint64_t traceback_budget_words(std::uint64_t free_bytes) {
  const std::uint64_t gib = std::uint64_t(1) << 30;
  return std::min(std::max(free_bytes / 4, gib), 4 * gib) / sizeof(std::uint32_t);
}

TracebackPlan plan_traceback(const PairLengths& len, Pairing pairing, const ScoreMatrix& matrix, const AlignOptions& o,
                             std::uint64_t budget_words, const std::vector<std::int32_t>* presorted) {
  TracebackPlan plan;
  plan.scorer = scorer_for(pairing, matrix);
  const std::size_t pairs = len.n.size();
  plan.word_offset.assign(pairs, 0);
  plan.config.assign(pairs, 0);
  std::vector<std::int32_t> by_config[kTracebackConfigCount];
  for (std::size_t x = 0; x < pairs; ++x) {
    const std::int32_t k = presorted ? (*presorted)[x] : static_cast<std::int32_t>(x);
    if (len.n[k] == 0 || len.m[k] == 0) {
      plan.trivial.push_back(k);
      continue;
    }
    int c = len.m[k] <= kTracebackConfigs[0].width() ? 0 : 1;
    if (fits_16_bits(len.n[k], len.m[k], matrix, o)) c = packed_traceback_config(len.m[k]);
    plan.config[k] = static_cast<std::uint8_t>(c);
    by_config[c].push_back(k);
  }
  std::vector<Slot> order;
  for (int c = 0; c < kTracebackConfigCount; ++c) {
    sort_by_work(&by_config[c], len, kTracebackConfigs[c], presorted != nullptr);
    const std::vector<Slot> units = pair_up(by_config[c], traceback_packed(c));
    order.insert(order.end(), units.begin(), units.end());
  }
  // Cut the ordered slots into chunks of at most budget_words (a single larger slot gets its own).
  // Slots start on 16-byte boundaries: the packed shapes store four words at once.
  std::size_t x = 0;
  while (x < order.size()) {
    TracebackChunk chunk{};
    chunk.first = static_cast<std::int32_t>(plan.slots.size());
    std::vector<Slot> members[kTracebackConfigCount];
    while (x < order.size()) {
      const Slot s = order[x];
      const int c = plan.config[s.a];
      const std::int32_t n = std::max(len.n[s.a], s.b >= 0 ? len.n[s.b] : 0);
      const std::int32_t m = std::max(len.m[s.a], s.b >= 0 ? len.m[s.b] : 0);
      const std::uint64_t start = (chunk.words + 3) / 4 * 4, w = traceback_words(n, m, c);
      if (chunk.words > 0 && start + w > budget_words) break;
      plan.word_offset[s.a] = start;
      if (s.b >= 0) plan.word_offset[s.b] = start;
      chunk.words = start + w;
      members[c].push_back(s);
      ++x;
    }
    chunk.items_first = static_cast<std::int32_t>(plan.items.size());
    for (int c = 0; c < kTracebackConfigCount; ++c) {
      if (members[c].empty()) continue;
      const SlotRange r = add_slots(members[c], c, kTracebackConfigs[c], len, &plan.slots);
      const auto first_item = static_cast<std::int32_t>(plan.items.size());
      add_pass_items(r, kTracebackConfigs[c], len, plan.slots, &plan.items);
      chunk.ranges.push_back(TracebackRange{r, first_item, static_cast<std::int32_t>(plan.items.size()) - first_item});
    }
    chunk.count = static_cast<std::int32_t>(plan.slots.size()) - chunk.first;
    chunk.items = static_cast<std::int32_t>(plan.items.size()) - chunk.items_first;
    plan.max_chunk_words = std::max(plan.max_chunk_words, chunk.words);
    plan.chunks.push_back(std::move(chunk));
  }
  return plan;
}

}  // namespace align
}  // namespace dpx
