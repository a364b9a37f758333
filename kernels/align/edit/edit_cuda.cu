// Edit distance on CUDA, the host-batch form: distances alone from the bit-parallel kernels
// (edit_bitparallel_cuda.cu), CIGARs from the walk back through their columns (edit_cigar_cuda.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_check.h"
#include "edit_cuda.h"
#include "dpx/align_distance.h"
#include "edit_launch.cuh"
#include "align/common/pair_upload.cuh"

namespace dpx {
namespace align {

Status edit_distance_cuda_launch(const SequenceBatch& queries, const SequenceBatch& targets, Pairing pairing,
                                 const EditOptions& options, std::vector<EditResult>* out, cudaStream_t stream) {
  if (cuda_device_count() == 0) return Status(StatusCode::kNoDevice, "edit_distance_cuda: no usable CUDA device");
  const std::size_t pairs = pair_count(queries.size(), targets.size(), pairing);
  // Written in place: a caller that passes the same vector again keeps its strings' storage (a
  // thousand CIGARs allocated afresh cost a tenth of the call).
  std::vector<EditResult>& results = *out;
  results.resize(pairs);
  if (pairs == 0) return Status::ok();
  if (options.cigar) {
    PairUpload<char> upload(stream);
    DPX_RETURN_IF_ERROR(upload.upload(queries, targets, pairing));
    return edit_cigar_walk(queries, targets, pairing, upload.view(), &results, stream);
  }
  const std::size_t longest = std::max(queries.max_length(), targets.max_length());
  std::vector<std::int64_t> host(pairs);
  DPX_RETURN_IF_ERROR(run_host_batch(queries, targets, pairing, &host, stream,
                                     [&](const PairBatchView<char>& view, std::int64_t* distances) {
                                       return launch_edit_bits(view, longest, distances, stream);
                                     }));
  for (std::size_t p = 0; p < pairs; ++p) {
    results[p].distance = host[p];
    results[p].cigar.clear();
  }
  return Status::ok();
}

}  // namespace align
}  // namespace dpx
