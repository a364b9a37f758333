// The search's scorer for one CUDA device. The database shard is scored a chunk at a time; a chunk
// is uploaded once, its plan made once (one-to-many, score only) and pointed at each query with
// AlignPlan::set_query. When the shard fits in half the free memory it is one chunk, resident for
// every query; otherwise the next chunk is uploaded and planned on a second stream, from a second
// thread, while the current one is computed.
#include <chrono>
#include <future>

#include "progress.h"
#include "search_engine.h"

namespace dpx {
namespace cli {
namespace {

// Device bytes a target costs in a plan besides its letters: its offset, its result fields, the
// plan's tables (a generous bound, so a chunk never runs the device out of memory).
constexpr std::size_t kBytesPerTarget = 96;

// A chunk on the device: its targets, their plan and what runs of it need. Runs go on `stream`,
// the scores come back on `copies`, two queries' worth alternating, so the host ranks one query's
// scores while the device computes the next.
struct Resident {
  Stream stream, copies;
  SequenceBatch owned;                 // the chunk's letters, unless it is the whole database
  const SequenceBatch* host = nullptr;  // the chunk's letters
  DeviceSequenceBatch targets, query[2];
  AlignPlan plan;
  DeviceAlignResults results[2];
};

class CudaScorer : public ShardScorer {
 public:
  CudaScorer(const ScoreMatrix& matrix, const AlignOptions& options, int device)
      : matrix_(matrix), options_(options), device_(device) {}

  Status score(const SequenceBatch& queries, const SequenceBatch& db, TargetRange range, SearchControl* control,
               std::vector<TopHits>* hits) override {
    if (range.size() == 0 || queries.size() == 0) return Status::ok();
    const auto started = std::chrono::steady_clock::now();  // setup: the device, the first chunk's upload and plan
    DPX_RETURN_IF_ERROR(set_cuda_device(device_));
    std::size_t free_bytes = 0, total_bytes = 0;
    DPX_RETURN_IF_ERROR(cuda_memory_info(&free_bytes, &total_bytes));
    const std::size_t whole = db.offsets()[range.end] - db.offsets()[range.begin] + range.size() * kBytesPerTarget;
    // two chunks are resident while streaming; each also needs its plan's workspace
    const std::size_t budget = whole <= free_bytes / 2 ? whole : free_bytes / 6;
    const std::vector<TargetRange> chunks = split_by_size(db, range, budget, kBytesPerTarget);

    SequenceBatch first;
    first.add(queries.view(0));
    Resident slots[2];
    auto prepare = [&](TargetRange chunk, Resident* r) -> Status {
      DPX_RETURN_IF_ERROR(set_cuda_device(device_));  // current device is per thread
      if (r->stream.get() == nullptr) DPX_RETURN_IF_ERROR(r->stream.create());
      if (r->copies.get() == nullptr) DPX_RETURN_IF_ERROR(r->copies.create());
      const bool whole = chunk.begin == 0 && chunk.end == db.size();
      r->owned = whole ? SequenceBatch() : copy_range(db, chunk);
      r->host = whole ? &db : &r->owned;
      DPX_RETURN_IF_ERROR(r->targets.upload(*r->host, r->stream.get()));
      return r->plan.create(first, *r->host, Pairing::kOneToMany, matrix_, options_, r->stream.get());
    };
    DPX_RETURN_IF_ERROR(prepare(chunks[0], &slots[0]));
    control->setup_took(static_cast<std::uint64_t>(seconds_since(started) * 1e6));
    std::vector<std::int32_t> scores;
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      Resident& cur = slots[c % 2];
      std::future<Status> next;
      if (c + 1 < chunks.size()) next = std::async(std::launch::async, prepare, chunks[c + 1], &slots[(c + 1) % 2]);
      Status s = run_chunk(queries, chunks[c], &cur, control, hits, &scores);
      const Status n = next.valid() ? next.get() : Status::ok();
      DPX_RETURN_IF_ERROR(s);
      DPX_RETURN_IF_ERROR(n);
      if (control->stopped()) return Status::ok();
    }
    return Status::ok();
  }

 private:
  Status run_chunk(const SequenceBatch& queries, TargetRange chunk, Resident* r, SearchControl* control,
                   std::vector<TopHits>* hits, std::vector<std::int32_t>* scores) {
    // Query q's scores come back on r->copies, which waits for q's run (queued before q + 1's).
    auto rank = [&](std::size_t q) -> Status {
      DPX_RETURN_IF_ERROR(r->results[q % 2].download_scores(scores, r->copies.get()));
      for (std::size_t k = 0; k < scores->size(); ++k)
        (*hits)[q].offer({(*scores)[k], static_cast<std::uint32_t>(chunk.begin + k)});
      control->count(chunk.size(), range_cells(queries.length(q), *r->host, TargetRange{0, r->host->size()}));
      return Status::ok();
    };
    std::size_t ran = 0;
    for (std::size_t q = 0; q < queries.size() && !control->stopped(); ++q) {
      SequenceBatch query;
      query.add(queries.view(q));
      if (q > 0) DPX_RETURN_IF_ERROR(r->plan.set_query(query, r->stream.get()));
      DPX_RETURN_IF_ERROR(r->query[q % 2].upload(query, r->stream.get()));
      DPX_RETURN_IF_ERROR(r->plan.run(r->query[q % 2], r->targets, &r->results[q % 2], r->stream.get()));
      ran = q + 1;
      if (q > 0) DPX_RETURN_IF_ERROR(rank(q - 1));
      DPX_RETURN_IF_ERROR(stream_wait(r->copies.get(), r->stream.get()));
    }
    if (ran > 0 && !control->stopped()) DPX_RETURN_IF_ERROR(rank(ran - 1));
    return r->stream.synchronize();  // nothing may still read the query batches when they change
  }

  const ScoreMatrix& matrix_;
  AlignOptions options_;
  int device_;
};

}  // namespace

std::unique_ptr<ShardScorer> make_cuda_scorer(const ScoreMatrix& matrix, const AlignOptions& options, int device) {
  return std::make_unique<CudaScorer>(matrix, options, device);
}

}  // namespace cli
}  // namespace dpx
