#include "align_device.h"

namespace dpx {
namespace cli {
namespace {

class CudaAlignDevice : public AlignDevice {
 public:
  CudaAlignDevice(const ScoreMatrix& matrix, const AlignOptions& options)
      : matrix_(matrix), options_(options) {}

  Status run_one_to_many(const SequenceBatch& query, const SequenceBatch& targets,
                         std::vector<AlignResult>* out) override {
    if (&targets != aligned_targets_) {
      aligner_ = std::make_unique<OneToManyAligner>(targets, matrix_, options_);
      aligned_targets_ = &targets;
    }
    return aligner_->align(query, out);
  }
  Status run_pairwise(const SequenceBatch& queries, const SequenceBatch& targets,
                      std::vector<AlignResult>* out) override {
    if (stream_.get() == nullptr) DPX_RETURN_IF_ERROR(stream_.create());
    return align_cuda(queries, targets, Pairing::kPairwise, matrix_, options_, out, stream_.get());
  }

 private:
  const ScoreMatrix& matrix_;
  AlignOptions options_;
  Stream stream_;  // the pairwise chunks'
  std::unique_ptr<OneToManyAligner> aligner_;
  const SequenceBatch* aligned_targets_ = nullptr;  // the target set aligner_ was made for
};

}  // namespace

std::unique_ptr<AlignDevice> make_cuda_align_device(const ScoreMatrix& matrix, const AlignOptions& options) {
  return std::make_unique<CudaAlignDevice>(matrix, options);
}

}  // namespace cli
}  // namespace dpx
