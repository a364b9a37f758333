// align_cuda's checks (the work is behind DPX_CUDA_BACKEND), and align_batch: the host-batch call
// on whichever backend is asked for.
#include "sw_common.h"
#include "sw_cuda.h"
#include "cuda_backend.h"
#include "dpx/align.h"

namespace dpx {

Status align_cuda(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing, const ScoreMatrix& matrix,
                  const AlignOptions& options, std::vector<AlignResult>* out, cudaStream_t stream) {
  DPX_RETURN_IF_ERROR(align::validate_align_call(queries, targets, pairing, matrix, options, "align_cuda"));
  if (out == nullptr) return invalid_argument("align_cuda: out is null");
  DPX_CUDA_BACKEND("align_cuda", align::align_cuda_launch(queries, targets, pairing, matrix, options, out, stream));
}

Status align_batch(Backend backend, const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                   const ScoreMatrix& matrix, const AlignOptions& options, std::vector<AlignResult>* out) {
  Backend resolved = Backend::kCpu;
  DPX_RETURN_IF_ERROR(resolve_backend(backend, &resolved));
  if (resolved == Backend::kCuda) return align_cuda(queries, targets, pairing, matrix, options, out, nullptr);
  return align_cpu(queries, targets, pairing, matrix, options, out);
}

}  // namespace dpx
