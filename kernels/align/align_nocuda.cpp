// The CUDA alignment API in a build without CUDA: every call says so.
#include "align_common.h"

namespace dpx {

namespace {
Status not_built() { return Status(StatusCode::kNotBuilt, "libdpx was built without CUDA support"); }
}  // namespace

Status AlignPlan::create(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                         const ScoreMatrix& matrix, const AlignOptions& options, cudaStream_t) {
  DPX_RETURN_IF_ERROR(align::validate_align_call(queries, targets, pairing, matrix, options, "AlignPlan::create"));
  return not_built();
}
Status AlignPlan::set_query(const SequenceBatch&, cudaStream_t) {
  return invalid_argument("AlignPlan::set_query: the plan was not created (or its create failed)");
}
Status AlignPlan::run(const DeviceSequenceBatch&, const DeviceSequenceBatch&, DeviceAlignResults*, cudaStream_t) const {
  return invalid_argument("AlignPlan::run: the plan was not created (or its create failed)");
}
Status DeviceAlignResults::download(std::vector<AlignResult>*, cudaStream_t) const { return not_built(); }
Status DeviceAlignResults::download_scores(std::vector<std::int32_t>*, cudaStream_t) const { return not_built(); }

Status align_cuda(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing, const ScoreMatrix& matrix,
                  const AlignOptions& options, std::vector<AlignResult>*, cudaStream_t) {
  DPX_RETURN_IF_ERROR(align::validate_align_call(queries, targets, pairing, matrix, options, "align_cuda"));
  return not_built();
}

}  // namespace dpx
