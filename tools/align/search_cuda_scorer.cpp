// The search's scorer for one CUDA device. The database shard is scored a chunk at a time; a chunk
// is uploaded once, its plan made once (one-to-many, score only) and pointed at each query with
// AlignPlan::set_query. When the shard fits in half the free memory it is one chunk, resident for
// every query; otherwise the next chunk is uploaded and planned on a second stream, from a second
// thread, while the current one is computed.
#include <future>

#include "search_engine.h"

namespace dpx {
namespace cli {
namespace {

// Device bytes a target costs in a plan besides its letters: its offset, its result fields, the
// plan's tables (a generous bound, so a chunk never runs the device out of memory).
constexpr std::size_t kBytesPerTarget = 96;

// A chunk on the device: its targets, their plan and what one run of it needs.
struct Resident {
  Stream stream;
  SequenceBatch host;
  DeviceSequenceBatch targets, query;
  AlignPlan plan;
  DeviceAlignResults results;
};

class CudaScorer : public ShardScorer {
 public:
  CudaScorer(const ScoreMatrix& matrix, const AlignOptions& options, int device)
      : matrix_(matrix), options_(options), device_(device) {}

  Status score(const SequenceBatch& queries, const SequenceBatch& db, TargetRange range, SearchControl* control,
               std::vector<TopHits>* hits) override {
    if (range.size() == 0 || queries.size() == 0) return Status::ok();
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
      r->host = copy_range(db, chunk);
      DPX_RETURN_IF_ERROR(r->targets.upload(r->host, r->stream.get()));
      return r->plan.create(first, r->host, Pairing::kOneToMany, matrix_, options_, r->stream.get());
    };
    DPX_RETURN_IF_ERROR(prepare(chunks[0], &slots[0]));
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
    for (std::size_t q = 0; q < queries.size(); ++q) {
      if (control->stopped()) return Status::ok();
      SequenceBatch query;
      query.add(queries.view(q));
      if (q > 0) DPX_RETURN_IF_ERROR(r->plan.set_query(query, r->stream.get()));
      DPX_RETURN_IF_ERROR(r->query.upload(query, r->stream.get()));
      DPX_RETURN_IF_ERROR(r->plan.run(r->query, r->targets, &r->results, r->stream.get()));
      DPX_RETURN_IF_ERROR(r->results.download_scores(scores, r->stream.get()));
      for (std::size_t k = 0; k < scores->size(); ++k)
        (*hits)[q].offer({(*scores)[k], static_cast<std::uint32_t>(chunk.begin + k)});
      control->count(chunk.size(), range_cells(queries.length(q), r->host, TargetRange{0, r->host.size()}));
    }
    return Status::ok();
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
