// AlignPlan in both builds: ownership, queries and argument checks; the CUDA work is behind
// DPX_CUDA_BACKEND (sw_cuda.h).
#include "sw_common.h"
#include "align_cuda_plan.h"
#include "sw_cuda.h"
#include "cuda_backend.h"

namespace dpx {

AlignPlan::AlignPlan() = default;
AlignPlan::~AlignPlan() { delete impl_; }
AlignPlan::AlignPlan(AlignPlan&& o) noexcept : impl_(o.impl_) { o.impl_ = nullptr; }
AlignPlan& AlignPlan::operator=(AlignPlan&& o) noexcept {
  if (this != &o) {
    delete impl_;
    impl_ = o.impl_;
    o.impl_ = nullptr;
  }
  return *this;
}
std::size_t AlignPlan::pairs() const { return impl_ ? impl_->pairs : 0; }
std::uint64_t AlignPlan::cells() const { return impl_ ? impl_->cells : 0; }

Status AlignPlan::create(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const ScoreMatrix& matrix, const AlignOptions& options, cudaStream_t stream) {
  delete impl_;  // a failed create leaves the plan empty, never half built
  impl_ = nullptr;
  DPX_RETURN_IF_ERROR(align::validate_align_call(queries, targets, pairing, matrix, options, "AlignPlan::create"));
  DPX_CUDA_BACKEND("AlignPlan::create",
                   align::create_plan(queries, targets, pairing, matrix, options, stream, &impl_));
}

Status AlignPlan::set_query(const SequenceBatch& query, cudaStream_t stream) {
  if (impl_ == nullptr) return invalid_argument("AlignPlan::set_query: the plan was not created (or its create failed)");
  if (impl_->pairing != Pairing::kOneToMany) return invalid_argument("AlignPlan::set_query: the plan is not one-to-many");
  DPX_RETURN_IF_ERROR(validate_align_batches(query, SequenceBatch(), Pairing::kOneToMany, "AlignPlan::set_query"));
  const auto length = static_cast<std::int32_t>(query.length(0));
  if (length == impl_->query_length) return Status::ok();
  DPX_CUDA_BACKEND("AlignPlan::set_query", align::set_plan_query(length, stream, &impl_));
}

Status AlignPlan::run(const DeviceSequenceBatch& queries, const DeviceSequenceBatch& targets, DeviceAlignResults* out,
                      cudaStream_t stream) const {
  if (impl_ == nullptr) return invalid_argument("AlignPlan::run: the plan was not created (or its create failed)");
  if (out == nullptr) return invalid_argument("AlignPlan::run: out is null");
  if (queries.size() != impl_->queries || targets.size() != impl_->targets) {
    return invalid_argument("AlignPlan::run: the plan was made for " + std::to_string(impl_->queries) + " queries and " +
                            std::to_string(impl_->targets) + " targets, got " + std::to_string(queries.size()) + " and " +
                            std::to_string(targets.size()));
  }
  DPX_CUDA_BACKEND("AlignPlan::run", align::launch_plan(*impl_, queries, targets, out, stream));
}

}  // namespace dpx
