// OneToManyAligner: a one-to-many AlignPlan kept for its target set, pointed at each next query.
#include <string>

#include "cuda_backend.h"
#include "dpx/align.h"

namespace dpx {

struct OneToManyAligner::State {
  State(const SequenceBatch& t, const ScoreMatrix& m, const AlignOptions& o)
      : targets(t), matrix(m), options(o) {}
  const SequenceBatch& targets;
  ScoreMatrix matrix;
  AlignOptions options;
  Stream stream;
  DeviceSequenceBatch device_targets, device_query;
  AlignPlan plan;
  bool planned = false;  // the targets are up and the plan made (at the first query)
  DeviceAlignResults results;
};

OneToManyAligner::OneToManyAligner(const SequenceBatch& targets, const ScoreMatrix& matrix,
                                   const AlignOptions& options)
    : state_(new State(targets, matrix, options)) {}

OneToManyAligner::~OneToManyAligner() {
  delete state_;
}

namespace {

Status check_call(const SequenceBatch& query, const void* out, const char* what) {
  if (out == nullptr) return invalid_argument(std::string(what) + ": out is null");
  if (query.size() != 1) return invalid_argument(std::string(what) + ": the query must be a batch of one");
  return Status::ok();
}

}  // namespace

Status OneToManyAligner::run(const SequenceBatch& query) {
  State& s = *state_;
  if (!s.planned) {
    DPX_RETURN_IF_ERROR(s.stream.create());
    DPX_RETURN_IF_ERROR(s.device_targets.upload(s.targets, s.stream.get()));
    DPX_RETURN_IF_ERROR(
        s.plan.create(query, s.targets, Pairing::kOneToMany, s.matrix, s.options, s.stream.get()));
    s.planned = true;
  } else {
    // A failed set_query leaves the plan empty: the next query plans again.
    const Status pointed = s.plan.set_query(query, s.stream.get());
    if (!pointed.is_ok()) {
      s.planned = false;
      return pointed;
    }
  }
  DPX_RETURN_IF_ERROR(s.device_query.upload(query, s.stream.get()));
  return s.plan.run(s.device_query, s.device_targets, &s.results, s.stream.get());
}

Status OneToManyAligner::align(const SequenceBatch& query, std::vector<AlignResult>* out) {
  constexpr const char* kWhat = "OneToManyAligner::align";
  DPX_RETURN_IF_ERROR(check_call(query, out, kWhat));
  DPX_CUDA_BACKEND(kWhat, [&]() -> Status {
    DPX_RETURN_IF_ERROR(run(query));
    return state_->results.download(out, state_->stream.get());
  }());
}

Status OneToManyAligner::scores(const SequenceBatch& query, std::vector<std::int32_t>* out) {
  constexpr const char* kWhat = "OneToManyAligner::scores";
  DPX_RETURN_IF_ERROR(check_call(query, out, kWhat));
  DPX_CUDA_BACKEND(kWhat, [&]() -> Status {
    DPX_RETURN_IF_ERROR(run(query));
    return state_->results.download_scores(out, state_->stream.get());
  }());
}

}  // namespace dpx
