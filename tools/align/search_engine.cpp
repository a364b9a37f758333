#include "search_engine.h"

#include <chrono>
#include <future>

namespace dpx {
namespace cli {
namespace {

// CPU chunks: enough targets to keep every thread busy, few enough results to stay small.
constexpr std::size_t kCpuChunkLetters = std::size_t(16) << 20;

class CpuScorer : public ShardScorer {
 public:
  CpuScorer(const ScoreMatrix& matrix, const AlignOptions& options, int threads)
      : matrix_(matrix), options_(options), threads_(threads) {}

  Status score(const SequenceBatch& queries, const SequenceBatch& db, TargetRange range, SearchControl* control,
               std::vector<TopHits>* hits) override {
    std::vector<AlignResult> results;
    for (const TargetRange& chunk : split_by_size(db, range, kCpuChunkLetters, 0)) {
      const SequenceBatch targets = copy_range(db, chunk);
      for (std::size_t q = 0; q < queries.size(); ++q) {
        if (control->stopped()) return Status::ok();
        SequenceBatch query;
        query.add(queries.view(q));
        DPX_RETURN_IF_ERROR(align_cpu(query, targets, Pairing::kOneToMany, matrix_, options_, &results, threads_));
        for (std::size_t k = 0; k < results.size(); ++k)
          (*hits)[q].offer({results[k].score, static_cast<std::uint32_t>(chunk.begin + k)});
        control->count(chunk.size(), range_cells(queries.length(q), db, chunk));
      }
    }
    return Status::ok();
  }

 private:
  const ScoreMatrix& matrix_;
  AlignOptions options_;
  int threads_;
};

}  // namespace

std::unique_ptr<ShardScorer> make_cpu_scorer(const ScoreMatrix& matrix, const AlignOptions& options, int threads) {
  return std::make_unique<CpuScorer>(matrix, options, threads);
}

std::uint64_t range_cells(std::size_t query_length, const SequenceBatch& db, TargetRange range) {
  return std::uint64_t(query_length) * (db.offsets()[range.end] - db.offsets()[range.begin]);
}

Status search_best_hits(const SequenceBatch& queries, const SequenceBatch& db, const DatabaseOrder& order,
                        TargetRange range, HitLimits limits,
                        const std::vector<ShardScorer*>& scorers, SearchControl* control,
                        const std::function<void()>& tick, std::vector<std::vector<Hit>>* best) {
  const std::vector<TargetRange> shards = split_evenly(db, range, scorers.size());
  const std::vector<TopHits> empty(queries.size(), TopHits(limits.top, limits.min_score, &order));
  std::vector<std::vector<TopHits>> hits(scorers.size(), empty);
  std::vector<std::future<Status>> running;
  for (std::size_t s = 0; s < scorers.size(); ++s) {
    running.push_back(std::async(std::launch::async, [&, s] {
      return scorers[s]->score(queries, db, shards[s], control, &hits[s]);
    }));
  }
  Status status = Status::ok();
  for (std::future<Status>& r : running) {
    while (r.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready) tick();
    const Status s = r.get();
    if (status.is_ok()) status = s;
  }
  if (!status.is_ok()) return status;
  std::vector<TopHits> merged = empty;
  for (const std::vector<TopHits>& shard : hits)
    for (std::size_t q = 0; q < queries.size(); ++q) merged[q].merge(shard[q]);
  best->clear();
  for (const TopHits& m : merged) best->push_back(m.sorted());
  return Status::ok();
}

}  // namespace cli
}  // namespace dpx
