#include "align_device.h"

namespace dpx {
namespace cli {
namespace {

// The targets go up once and the plan is made once; each query only uploads itself.
class CudaAlignDevice : public AlignDevice {
 public:
  CudaAlignDevice(const ScoreMatrix& matrix, const AlignOptions& options) : matrix_(matrix), options_(options) {}

  Status plan(const SequenceBatch& query, const SequenceBatch& targets) override {
    DPX_RETURN_IF_ERROR(stream_.create());
    DPX_RETURN_IF_ERROR(targets_.upload(targets, stream_.get()));
    return plan_.create(query, targets, Pairing::kOneToMany, matrix_, options_, stream_.get());
  }
  Status set_query(const SequenceBatch& query) override { return plan_.set_query(query, stream_.get()); }
  Status run(const SequenceBatch& query, std::vector<AlignResult>* out) override {
    DPX_RETURN_IF_ERROR(query_.upload(query, stream_.get()));
    DPX_RETURN_IF_ERROR(plan_.run(query_, targets_, &results_, stream_.get()));
    return results_.download(out, stream_.get());
  }
  Status run_pairwise(const SequenceBatch& queries, const SequenceBatch& targets, std::vector<AlignResult>* out) override {
    if (stream_.get() == nullptr) DPX_RETURN_IF_ERROR(stream_.create());
    return align_cuda(queries, targets, Pairing::kPairwise, matrix_, options_, out, stream_.get());
  }

 private:
  const ScoreMatrix& matrix_;
  AlignOptions options_;
  Stream stream_;
  AlignPlan plan_;
  DeviceSequenceBatch targets_, query_;
  DeviceAlignResults results_;
};

}  // namespace

std::unique_ptr<AlignDevice> make_cuda_align_device(const ScoreMatrix& matrix, const AlignOptions& options) {
  return std::make_unique<CudaAlignDevice>(matrix, options);
}

}  // namespace cli
}  // namespace dpx
