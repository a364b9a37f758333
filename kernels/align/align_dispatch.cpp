// align_batch: the host-batch call on whichever backend is asked for.
#include "dpx/align.h"

namespace dpx {

Status align_batch(Backend backend, const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                   const ScoreMatrix& matrix, const AlignOptions& options, std::vector<AlignResult>* out) {
  Backend resolved = Backend::kCpu;
  DPX_RETURN_IF_ERROR(resolve_backend(backend, &resolved));
  if (resolved == Backend::kCuda) return align_cuda(queries, targets, pairing, matrix, options, out, nullptr);
  return align_cpu(queries, targets, pairing, matrix, options, out);
}

}  // namespace dpx
