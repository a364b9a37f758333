// dpx-align search, first pass: every query's score against every database sequence (local, score
// only), split over scorers (one per GPU, or the CPU), keeping each query's best hits.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "database_order.h"
#include "dpx/align.h"
#include "target_ranges.h"
#include "top_hits.h"

namespace dpx {
namespace cli {

// Shared by the threads of one search: the stop request (set from a signal handler) and the work
// done so far, for the progress line.
struct SearchControl {
  const std::atomic<bool>* stop = nullptr;
  std::atomic<std::uint64_t> pairs{0}, cells{0};
  std::atomic<std::uint64_t> setup_us{0};  // the longest any scorer took before its first query

  void setup_took(std::uint64_t us) {
    for (std::uint64_t seen = setup_us.load(); us > seen && !setup_us.compare_exchange_weak(seen, us);) {
    }
  }

  bool stopped() const { return stop != nullptr && stop->load(); }
  void count(std::uint64_t done_pairs, std::uint64_t done_cells) {
    pairs += done_pairs;
    cells += done_cells;
  }
};

class ShardScorer {
 public:
  virtual ~ShardScorer() = default;
  // Offers each query's score against every sequence of db[range] to hits[query], the target named
  // by its index in `db`. Returns early, without error, once control->stopped().
  virtual Status score(const SequenceBatch& queries, const SequenceBatch& db, TargetRange range,
                       SearchControl* control, std::vector<TopHits>* hits) = 0;
};

// align_cpu one-to-many on `threads` threads (0 = all), a chunk of the database at a time.
std::unique_ptr<ShardScorer> make_cpu_scorer(const ScoreMatrix& matrix, const AlignOptions& options, int threads);
// One CUDA device (search_cuda_scorer.cpp).
std::unique_ptr<ShardScorer> make_cuda_scorer(const ScoreMatrix& matrix, const AlignOptions& options, int device);

struct HitLimits {
  std::size_t top = 10;  // 0 = all
  std::int32_t min_score = 1;
};

// Splits `range` evenly over the scorers, runs them at once (a thread each; `tick` runs on the
// calling thread about five times a second meanwhile) and merges their hits: best[q] holds query
// q's hits, best first, each target an original index by `order` — the same whatever the number of
// scorers.
Status search_best_hits(const SequenceBatch& queries, const SequenceBatch& db, const DatabaseOrder& order,
                        TargetRange range, HitLimits limits,
                        const std::vector<ShardScorer*>& scorers, SearchControl* control,
                        const std::function<void()>& tick, std::vector<std::vector<Hit>>* best);

// The cells of one query against db[range] (for the progress line).
std::uint64_t range_cells(std::size_t query_length, const SequenceBatch& db, TargetRange range);

}  // namespace cli
}  // namespace dpx
